// What happens on Stripe's side between Haven's calls, for tests to set going: a hosted checkout paid, a Payment
// Element confirming an invoice, a billing period ending (renewed, declined, asking for 3-D Secure, ended), a new
// card from the billing portal.
import { randomBytes } from "node:crypto";
import type { Obj } from "./stripe-stand-in-kit.js";
import { StandInSchedules } from "./stripe-stand-in-schedules.js";
import { monthsFrom } from "./stripe-stand-in-kit.js";

export class StandInScenarios extends StandInSchedules {
  /**
   * Completes a session as Stripe's hosted page would after a good card. A subscription-mode session
   * creates its customer and subscription and pays the first invoice.
   */
  pay(sessionId: string, customer = { email: "payer@example.com", name: "Pat Payer" }): Obj {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No such session ${sessionId}`);
    if (session.mode === "subscription" && !session.subscription) {
      const cus = this.createCustomer({ email: customer.email, name: customer.name, metadata: {} });
      const sub = this.createSubscription(
        cus.id as string,
        session.price as string,
        (session.subscription_metadata as Record<string, string>) ?? {},
        "on_subscription",
      );
      // The session's line tax rates go on the subscription's item and tax its first invoice, as Stripe's do.
      this.applyTaxRates(sub, null, (session.tax_rates as string[] | undefined) ?? []);
      const invoice = this.invoices.get(sub.latest_invoice as string)!;
      this.charge(invoice, `pm_card_${randomBytes(4).toString("hex")}`, customer.email);
      Object.assign(session, { subscription: sub.id, customer: cus.id });
    }
    Object.assign(session, {
      payment_status: "paid",
      status: "complete",
      customer_details: { email: customer.email, name: customer.name },
    });
    return session;
  }

  /** A one-time intent succeeds; an invoice's intent pays that invoice (as the Payment Element would). */
  succeedIntent(intentId: string, receiptEmail: string | null = "payer@example.com"): Obj {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`No such intent ${intentId}`);
    if (this.intentInvoice.has(intentId)) {
      this.paySubscriptionInvoice(intentId, { email: receiptEmail });
      return intent;
    }
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, receipt_email: receiptEmail });
    return intent;
  }

  /**
   * The Payment Element confirms a subscription's open invoice (`ref`: its PaymentIntent, the invoice or the
   * subscription): paid with `card`, which becomes the subscription's default (save_default_payment_method).
   */
  paySubscriptionInvoice(ref: string, options: { email?: string | null; card?: string } = {}): Obj {
    const invoice = this.invoiceFor(ref);
    const card = options.card ?? `pm_card_${randomBytes(4).toString("hex")}`;
    if (!this.charge(invoice, card, options.email ?? null)) throw new Error(`Card ${card} is declined`);
    return invoice;
  }

  /**
   * The subscription's period ends: the next one is invoiced and charged to its card (or declined when `fail`
   * or when the card is failing). A cancel_at that has come ends it instead, and a subscription still past due
   * ends as Stripe's retries running out would (canceled, its invoice uncollectible).
   */
  advancePeriod(
    subscriptionId: string,
    options: { fail?: boolean; requiresAction?: boolean } = {},
  ): { subscription: Obj; invoice: Obj | null } {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    if (["canceled", "incomplete_expired"].includes(sub.status as string))
      throw new Error(`${subscriptionId} has ended`);
    const item = this.itemOf(sub);
    const start = item.current_period_end as number;
    if (sub.cancel_at && (sub.cancel_at as number) <= start) {
      Object.assign(sub, {
        status: "canceled",
        ended_at: sub.cancel_at,
        canceled_at: sub.canceled_at ?? this.nowSeconds,
      });
      return { subscription: sub, invoice: null };
    }
    if (sub.status === "past_due") {
      // Stripe's retries ran out: the setting's end state (the open invoice stays payable when unpaid).
      if (this.retriesEnd === "unpaid") {
        sub.status = "unpaid";
        return { subscription: sub, invoice: null };
      }
      const open = this.invoices.get(sub.latest_invoice as string);
      if (open?.status === "open") open.status = "uncollectible";
      Object.assign(sub, { status: "canceled", ended_at: start, canceled_at: start });
      return { subscription: sub, invoice: null };
    }
    if (sub.status === "unpaid") throw new Error(`${subscriptionId} is unpaid: pay its open invoice first`);
    this.expirePendingUpdate(sub);
    // Periods count from the billing anchor, as Stripe's do.
    const n = Number((item as { period_index?: number }).period_index ?? 0) + 1;
    Object.defineProperty(item, "period_index", { value: n, writable: true, enumerable: false, configurable: true });
    const end = monthsFrom(sub.billing_cycle_anchor as number, n + 1);
    Object.assign(item, { current_period_start: start, current_period_end: end });
    if (!this.enterPhase(sub, start)) return { subscription: sub, invoice: null };
    const price = item.price as Obj;
    const invoice = this.createInvoice(sub, "subscription_cycle", [
      { amount: price.unit_amount as number, start, end },
    ]);
    const card = this.cardOf(sub);
    if (options.requiresAction) {
      // The bank asks for 3-D Secure: the invoice stays open until the customer confirms on its hosted page.
      const payment = (invoice.payments as { data: Obj[] }).data[0]!;
      const intent = this.intents.get((payment.payment as Obj).payment_intent as string)!;
      Object.assign(invoice, { attempt_count: 1, attempted: true });
      Object.assign(intent, { status: "requires_action", last_payment_error: null });
      sub.status = "past_due";
      return { subscription: sub, invoice };
    }
    if (options.fail && card) this.failingCards.add(card);
    this.charge(invoice, card, null, start);
    return { subscription: sub, invoice };
  }

  /** "The invoice is voided and the pending update is discarded after the expired_at time on the pending_update has passed." */
  private expirePendingUpdate(sub: Obj): void {
    const update = sub.pending_update as Obj | null;
    if (!update || (update.expires_at as number) > (this.itemOf(sub).current_period_end as number)) return;
    const pending = this.pending.get(sub.id as string);
    const invoice = pending ? this.invoices.get(pending.invoice) : undefined;
    if (invoice?.status === "open") invoice.status = "void";
    sub.pending_update = null;
    this.pending.delete(sub.id as string);
  }

  /** The customer confirms a 3-D Secure payment on the invoice's hosted page: it is paid. */
  confirmInvoice(invoiceId: string): Obj {
    const invoice = this.invoices.get(invoiceId);
    if (!invoice) throw new Error(`No such invoice ${invoiceId}`);
    const sub = this.subscriptionOfInvoice(invoice);
    if (!this.charge(invoice, this.cardOf(sub) ?? `pm_card_${randomBytes(4).toString("hex")}`))
      throw new Error("declined");
    return invoice;
  }

  /** A renewal whose charge is declined: the subscription's card fails from now on; past_due. */
  failRenewal(subscriptionId: string): Obj {
    return this.advancePeriod(subscriptionId, { fail: true }).invoice!;
  }

  /** What the billing portal's card flow does: a new card becomes the CUSTOMER's default (not the subscription's). */
  updateCustomerCard(customerId: string, card = `pm_card_${randomBytes(4).toString("hex")}`): string {
    const customer = this.customers.get(customerId);
    if (!customer) throw new Error(`No such customer ${customerId}`);
    (customer.invoice_settings as Obj).default_payment_method = card;
    return card;
  }

  /** The subscription as the API would return it, with these expansions. */
  subscription(subscriptionId: string, expand: string[] = []): Obj {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription ${subscriptionId}`);
    return this.expand(sub, expand);
  }

  /** The subscription a PaymentIntent, invoice or session belongs to. */
  subscriptionOf(ref: string): Obj {
    if (this.subscriptions.has(ref)) return this.subscriptions.get(ref)!;
    const session = this.sessions.get(ref);
    if (session?.subscription) return this.subscriptions.get(session.subscription as string)!;
    return this.subscriptionOfInvoice(this.invoiceFor(ref));
  }
}
