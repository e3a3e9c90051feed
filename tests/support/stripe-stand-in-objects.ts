// The stand-in's objects and what Stripe does to them whatever the call: customers, subscriptions, their invoices
// and PaymentIntents, a payment attempt, taxes from Tax Rates, and `expand`. The routes (stripe-stand-in-billing.ts,
// stripe-stand-in-routes.ts, stripe-stand-in-money.ts) and the test helpers (stripe-stand-in-scenarios.ts) build on it.
import { randomBytes } from "node:crypto";
import { DECLINED, type Obj, addMonth, id, mergeMetadata } from "./stripe-stand-in-kit.js";

/** An invoice line: a price for a period, or a proration of one. */
export interface Line {
  amount: number;
  start: number;
  end: number;
  proration?: boolean;
  description?: string;
}

/** What a pending update applies once its invoice is paid (docs.stripe.com/billing/subscriptions/pending-updates). */
interface Pending {
  invoice: string;
  price: Obj;
  metadata: Record<string, string>;
}

export class StandInObjects {
  readonly sessions = new Map<string, Obj>();
  readonly intents = new Map<string, Obj>();
  readonly customers = new Map<string, Obj>();
  readonly prices = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  readonly schedules = new Map<string, Obj>();
  readonly portalConfigurations = new Map<string, Obj>();
  readonly portalSessions = new Map<string, Obj>();
  /** Tax Rate objects (Haven's are exclusive and carry metadata.haven_tax). */
  readonly taxRates = new Map<string, Obj>();
  /** Payment methods whose charges are declined (failRenewal puts the subscription's card here). */
  readonly failingCards = new Set<string>();
  /**
   * Payment methods declined with a reason of their own, as Stripe's test cards are (4000 0000 0000 9995:
   * `card_declined` with decline_code `insufficient_funds`, "Your card has insufficient funds."; 4000 0000 0000 0069:
   * code `expired_card` and no decline_code); any other failing card is a `card_declined` `generic_decline`.
   */
  readonly cardDeclines = new Map<string, { declineCode?: string; code?: string; message: string }>();
  /** What a subscription still past due when its next period ends becomes: Stripe's "cancel" or "mark unpaid". */
  retriesEnd: "canceled" | "unpaid" = "canceled";
  /** The stand-in's clock (ms). A test may set it; subscriptions start and prorate by it. */
  clock: () => number = () => Date.now();
  url = "";
  /** A PaymentIntent made by an invoice → that invoice. */
  protected readonly intentInvoice = new Map<string, string>();
  /** Subscription → its pending update's effect (the object shows `pending_update`). */
  protected readonly pending = new Map<string, Pending>();
  /** Subscription → proration lines waiting for its next invoice (proration_behavior=create_prorations). */
  protected readonly prorations = new Map<string, Line[]>();

  protected get nowSeconds() {
    return Math.floor(this.clock() / 1000);
  }

  protected itemOf(sub: Obj): Obj {
    return (sub.items as { data: Obj[] }).data[0]!;
  }

  protected subscriptionOfInvoice(invoice: Obj): Obj {
    return this.subscriptions.get(((invoice.parent as Obj).subscription_details as Obj).subscription as string)!;
  }

  protected createCustomer(fields: {
    email: string | null;
    name: string | null;
    metadata: Record<string, string>;
    preferredLocales?: string[];
  }) {
    const customer: Obj = {
      id: id("cus"),
      object: "customer",
      email: fields.email,
      name: fields.name,
      preferred_locales: fields.preferredLocales ?? [],
      metadata: fields.metadata,
      balance: 0,
      invoice_settings: { default_payment_method: null },
    };
    this.customers.set(customer.id as string, customer);
    return customer;
  }

  protected createSubscription(
    customerId: string,
    priceId: string,
    metadata: Record<string, string>,
    saveDefault: string | undefined,
  ): Obj {
    const price = this.prices.get(priceId);
    if (!price) throw new Error(`No such price ${priceId}`);
    const now = this.nowSeconds;
    const sub: Obj = {
      id: id("sub"),
      object: "subscription",
      customer: customerId,
      status: "incomplete",
      created: now,
      start_date: now,
      billing_cycle_anchor: now,
      schedule: null,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      default_payment_method: null,
      default_tax_rates: [],
      automatic_tax: { enabled: false },
      pending_update: null,
      metadata,
      payment_settings: { save_default_payment_method: saveDefault ?? "off" },
      latest_invoice: null,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            price,
            quantity: 1,
            tax_rates: [],
            current_period_start: now,
            current_period_end: addMonth(now),
          },
        ],
      },
    };
    this.subscriptions.set(sub.id as string, sub);
    this.createInvoice(sub, "subscription_create", [
      { amount: price.unit_amount as number, start: now, end: addMonth(now) },
    ]);
    return sub;
  }

  /** A finalized invoice of `lines` (with any prorations waiting for it), taxed, its PaymentIntent made. */
  protected createInvoice(sub: Obj, reason: string, billed: Line[]): Obj {
    const waiting = reason === "subscription_cycle" ? (this.prorations.get(sub.id as string) ?? []) : [];
    this.prorations.delete(sub.id as string);
    const lines = [...waiting, ...billed];
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const invoiceId = id("in");
    const intentId = id("pi");
    const clientSecret = `${intentId}_secret_${randomBytes(8).toString("hex")}`;
    this.intents.set(intentId, {
      id: intentId,
      object: "payment_intent",
      amount: subtotal,
      amount_received: 0,
      currency: "cad",
      client_secret: clientSecret,
      status: "requires_payment_method",
      metadata: {},
      receipt_email: null,
      last_payment_error: null,
    });
    this.intentInvoice.set(intentId, invoiceId);
    const item = this.itemOf(sub);
    // A renewal is created and finalized as its period starts ("Stripe creates an invoice … at the start of each
    // billing cycle"), the other invoices at once.
    const created = Math.max(this.nowSeconds, billed[0]!.start);
    const invoice: Obj = {
      id: invoiceId,
      object: "invoice",
      customer: sub.customer,
      status: "open",
      subtotal,
      amount_due: subtotal,
      amount_paid: 0,
      amount_remaining: subtotal,
      // The customer's balance when it was finalized (a credit is negative), applied by taxInvoice.
      starting_balance: (this.customers.get(sub.customer as string)?.balance as number | undefined) ?? 0,
      ending_balance: 0,
      currency: "cad",
      attempt_count: 0,
      attempted: false,
      billing_reason: reason,
      created,
      custom_fields: null,
      // Stripe's invoice-level period for a renewal is the previous period; the line carries the one billed.
      period_start: billed[0]!.start,
      period_end: billed[0]!.start,
      lines: {
        object: "list",
        data: lines.map((l) => ({
          id: id("il"),
          object: "line_item",
          amount: l.amount,
          currency: "cad",
          description: l.description ?? null,
          period: { start: l.start, end: l.end },
          parent: {
            type: "subscription_item_details",
            subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: !!l.proration },
          },
        })),
      },
      parent: { type: "subscription_details", subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      status_transitions: { paid_at: null, finalized_at: created },
      confirmation_secret: { client_secret: clientSecret, type: "payment_intent" },
      payments: {
        object: "list",
        data: [
          {
            id: id("inpay"),
            object: "invoice_payment",
            invoice: invoiceId,
            is_default: true,
            status: "open",
            payment: { type: "payment_intent", payment_intent: intentId },
          },
        ],
      },
    };
    invoice.hosted_invoice_url = `${this.url}/hosted/${invoiceId}`;
    this.invoices.set(invoiceId, invoice);
    sub.latest_invoice = invoiceId;
    this.taxInvoice(sub, invoice);
    return invoice;
  }

  protected cardOf(sub: Obj): string | null {
    const customer = this.customers.get(sub.customer as string);
    return (
      (sub.default_payment_method as string | null) ??
      ((customer?.invoice_settings as Obj | undefined)?.default_payment_method as string | null) ??
      null
    );
  }

  /**
   * One payment attempt on an open invoice; moves the subscription's status as Stripe does (a pending update's
   * invoice leaves it as it was, and applies the update once paid). True when paid.
   */
  protected charge(invoice: Obj, card: string | null, receiptEmail: string | null = null, at = this.nowSeconds) {
    if (invoice.status !== "open") return invoice.status === "paid";
    const payment = (invoice.payments as { data: Obj[] }).data[0]!;
    const intent = this.intents.get((payment.payment as Obj).payment_intent as string)!;
    const sub = this.subscriptionOfInvoice(invoice);
    const pending = this.pending.get(sub.id as string);
    const forPending = pending?.invoice === invoice.id;
    Object.assign(invoice, { attempt_count: (invoice.attempt_count as number) + 1, attempted: true });
    const reason = card ? this.cardDeclines.get(card) : undefined;
    if (!card || this.failingCards.has(card) || reason) {
      Object.assign(intent, {
        status: "requires_payment_method",
        last_payment_error: {
          type: "card_error",
          code: reason?.code ?? "card_declined",
          // Stripe sends a decline_code with card_declined only; expired_card and incorrect_cvc are codes of their own.
          ...(reason?.code && !reason.declineCode ? {} : { decline_code: reason?.declineCode ?? "generic_decline" }),
          message: reason?.message ?? DECLINED,
          payment_method: card ? { id: card } : null,
        },
      });
      if (sub.status === "active" && !forPending) sub.status = "past_due";
      return false;
    }
    Object.assign(intent, {
      status: "succeeded",
      amount_received: intent.amount,
      last_payment_error: null,
      receipt_email: receiptEmail ?? intent.receipt_email,
      payment_method: card,
    });
    Object.assign(invoice, {
      status: "paid",
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      status_transitions: { ...(invoice.status_transitions as Obj), paid_at: at },
    });
    payment.status = "paid";
    if ((sub.payment_settings as Obj).save_default_payment_method === "on_subscription" && !sub.default_payment_method)
      sub.default_payment_method = card;
    if (["incomplete", "past_due", "unpaid"].includes(sub.status as string)) sub.status = "active";
    if (forPending && pending) {
      // "If the payment succeeds, the changes are applied and the pending_update hash is cleared."
      this.itemOf(sub).price = pending.price;
      mergeMetadata(sub.metadata as Obj, pending.metadata);
      sub.pending_update = null;
      this.pending.delete(sub.id as string);
    }
    return true;
  }

  protected invoiceFor(ref: string): Obj {
    const invoiceId = this.invoices.has(ref)
      ? ref
      : (this.intentInvoice.get(ref) ?? (this.subscriptions.get(ref)?.latest_invoice as string | undefined));
    const invoice = invoiceId ? this.invoices.get(invoiceId) : undefined;
    if (!invoice) throw new Error(`No invoice for ${ref}`);
    return invoice;
  }

  private lookup(value: string): Obj | undefined {
    for (const map of [this.customers, this.invoices, this.intents, this.subscriptions, this.prices, this.schedules]) {
      const found = map.get(value);
      if (found) return found;
    }
    return undefined;
  }

  /** A copy with `expand` paths ("customer", "latest_invoice.payments.data.payment.payment_intent") resolved. */
  protected expand(object: Obj, paths: string[]): Obj {
    const copy = structuredClone(object);
    for (const path of paths) this.expandPath(copy, path.split("."));
    return copy;
  }

  private expandPath(target: unknown, parts: string[]): void {
    if (!parts.length || target == null || typeof target !== "object") return;
    const [head, ...rest] = parts as [string, ...string[]];
    const object = target as Obj;
    let value = object[head];
    if (typeof value === "string") {
      const found = this.lookup(value);
      if (found) {
        value = structuredClone(found);
        object[head] = value;
      }
    }
    if (Array.isArray(value)) for (const entry of value) this.expandPath(entry, rest);
    else this.expandPath(value, rest);
  }

  // ---------------------------------------------------------------- tax rates

  /** Tax Rate objects for ids (unknown ids dropped). */
  protected ratesFor(ids: string[]): Obj[] {
    return ids.map((rateId) => this.taxRates.get(rateId)).filter((r): r is Obj => !!r);
  }

  /** The exclusive rates of a subscription: "When set, the `default_tax_rates` do not apply to this item." */
  protected ratesOf(sub: Obj): Obj[] {
    const item = this.itemOf(sub);
    const itemRates = (item.tax_rates as Obj[] | undefined) ?? [];
    const rates = itemRates.length ? itemRates : ((sub.default_tax_rates as Obj[] | null) ?? []);
    return rates.filter((rate) => !rate.inclusive);
  }

  /** Each rate's tax on an amount, rounded to the cent as Stripe does (half away from zero). */
  protected taxesOn(amount: number, rates: Obj[]) {
    return rates.map((rate) => ({
      amount: Math.sign(amount) * Math.round((Math.abs(amount) * (rate.percentage as number)) / 100),
      tax_behavior: "exclusive",
      taxability_reason: "standard_rated",
      taxable_amount: amount,
      type: "tax_rate_details",
      tax_rate_details: { tax_rate: rate.id },
    }));
  }

  /**
   * An open invoice gets its subscription's taxes: the total, the amount due and its PaymentIntent follow. A customer
   * credit balance pays what it can; an invoice whose total is a credit (a prorated downgrade) is paid at once and
   * its credit goes to the customer's balance, applied to the next invoice.
   */
  protected taxInvoice(sub: Obj, invoice: Obj): void {
    if (invoice.status !== "open" || invoice.attempted) return;
    const subtotal = invoice.subtotal as number;
    const taxes = this.taxesOn(subtotal, this.ratesOf(sub));
    const total = subtotal + taxes.reduce((sum, t) => sum + t.amount, 0);
    const customer = this.customers.get(sub.customer as string);
    const balance = invoice.starting_balance as number;
    const applied = total > 0 ? Math.max(balance, -total) : 0;
    const due = total > 0 ? total + applied : 0;
    Object.assign(invoice, {
      subtotal_excluding_tax: subtotal,
      total,
      total_excluding_tax: subtotal,
      total_taxes: taxes,
      ending_balance: total > 0 ? balance - applied : balance + total,
      amount_due: due,
      amount_remaining: due,
    });
    if (customer) customer.balance = invoice.ending_balance;
    const payment = (invoice.payments as { data: Obj[] }).data[0]!;
    const intent = this.intents.get((payment.payment as Obj).payment_intent as string);
    if (intent) intent.amount = due;
    if (due === 0)
      Object.assign(invoice, {
        status: "paid",
        status_transitions: { ...(invoice.status_transitions as Obj), paid_at: this.nowSeconds },
      });
  }

  /** A new subscription's tax rates (default_tax_rates, or its item's); its first invoice is taxed at once. */
  protected applyTaxRates(sub: Obj, defaults: string[] | null, itemRates: string[] | null): void {
    if (defaults) sub.default_tax_rates = this.ratesFor(defaults);
    if (itemRates) this.itemOf(sub).tax_rates = this.ratesFor(itemRates);
    const invoice = this.invoices.get(sub.latest_invoice as string);
    if (invoice) this.taxInvoice(sub, invoice);
  }
}
