// Stripe's billing side (docs/decisions.md#23, #25 and #35), API version 2026-10-28: the billing period is on
// the subscription ITEM, an invoice's subscription is under `invoice.parent.subscription_details`, and the first
// invoice's client secret is `latest_invoice.confirmation_secret`. Changes are called under the subscription's
// row lock with an idempotency key derived from the change. A failed read, or a change Stripe refused, is a
// BillingUnavailableError (503, nothing changed); a change Stripe did not answer is a BillingUncertainError (503,
// being checked: Stripe may have applied it, and its webhook settles it).
import type { Logger } from "pino";
import Stripe from "stripe";
import type { Env } from "../../config/env.js";
import { type StripeSubscriptionSide, createStripeClient } from "../payments/index.js";
import type { Plan, PlanType } from "../plans/index.js";
import {
  type BillingProvider,
  BillingUnavailableError,
  type PlanChange,
  type ProviderSubscription,
} from "./billing-provider.js";
import {
  CURRENCY,
  ForeignSubscriptionError,
  type StripeTaxRate,
  idOf,
  invoiceStateOf,
  receiptEmailOf,
  stateOf,
  taxRateIdsOf,
} from "./stripe-billing-state.js";
import { changeAtStripe, readAtStripe } from "./stripe-calls.js";
import {
  type StripeChangeSide,
  type UpgradeChargeAtStripe,
  changePlanAtStripe,
  previewUpgradeAtStripe,
} from "./stripe-plan-changes.js";
import type { ProviderInvoiceState, ProviderSubscriptionState } from "./subscriptions.constants.js";

// Stripe's objects read as Haven's states: stripe-billing-state.ts (re-exported for the module's other files).
export { ForeignSubscriptionError, invoiceStateOf, stateOf };

/** docs/decisions.md#23: one recurring monthly Price per plan and amount, found again by this key. */
export const priceLookupKey = (plan: PlanType, amountCents: number) => `haven_${plan}_monthly_${amountCents}`;

/** The two billing-portal configurations, told apart by `metadata.haven` (docs/decisions.md#25: no cancel button before the minimum term ends). */
export const PORTAL_CONFIGURATIONS = {
  withCancel: "portal_with_cancel",
  withoutCancel: "portal_without_cancel",
} as const;

/** A subscription read back from Stripe with its latest invoice, as webhooks and purchases store it. */
export interface StripeRead {
  state: ProviderSubscriptionState;
  invoice: ProviderInvoiceState | null;
}

/** Also payments' Stripe side (StripeSubscriptionSide): its purchases start subscriptions, which this reads back. */
export class StripeBilling implements BillingProvider, StripeSubscriptionSide {
  readonly name = "stripe" as const;
  private readonly prices = new Map<string, Promise<string>>();
  private readonly portalConfigurations = new Map<string, Promise<string>>();
  private readonly taxRates = new Map<string, Promise<StripeTaxRate>>();

  constructor(
    readonly stripe: Stripe,
    private readonly log?: Logger,
  ) {}

  // ---------------------------------------------------------------- prices

  /** docs/decisions.md#23: the recurring monthly CAD Price for this plan and amount, made once and found again by lookup key. */
  priceFor(plan: Pick<Plan, "type" | "name">, amountCents: number): Promise<string> {
    const key = priceLookupKey(plan.type, amountCents);
    let price = this.prices.get(key);
    if (!price) {
      price = this.call(async () => {
        const found = await this.stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 });
        if (found.data[0]) return found.data[0].id;
        const made = await this.stripe.prices.create({
          currency: CURRENCY,
          unit_amount: amountCents,
          recurring: { interval: "month" },
          lookup_key: key,
          // An archived Price may hold the key: the new one takes it over.
          transfer_lookup_key: true,
          product_data: { name: `Haven ${plan.name} Plan`, metadata: { plan: plan.type } },
          metadata: { plan: plan.type },
        });
        return made.id;
      });
      // A failure is not cached: the next purchase asks again.
      price.catch(() => this.prices.delete(key));
      this.prices.set(key, price);
    }
    return price;
  }

  // ---------------------------------------------------------------- reads

  /** The subscription now, with its customer (for the payer's e-mail) and its latest invoice. */
  async readBack(subscriptionId: string, checkoutRef: string | null = null): Promise<StripeRead> {
    const subscription = await this.call(() =>
      this.stripe.subscriptions.retrieve(subscriptionId, {
        expand: ["customer", "latest_invoice.payments.data.payment.payment_intent"],
      }),
    );
    const latest = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
    const state = stateOf(subscription, checkoutRef);
    // /checkout's customer is made before the payer is known; the Payment Element's receipt e-mail names them.
    if (!state.payerEmail && latest) state.payerEmail = receiptEmailOf(latest);
    return { state, invoice: latest ? invoiceStateOf(latest, await this.taxRatesOf(latest)) : null };
  }

  /** A subscription /checkout has just created, its latest invoice expanded: read as readBack reads one. */
  readCreated(subscription: Stripe.Subscription, checkoutRef: string): StripeRead {
    const latest = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
    return { state: stateOf(subscription, checkoutRef), invoice: latest ? invoiceStateOf(latest) : null };
  }

  /** An invoice now, with its payment attempts (for the failure reason). */
  async readInvoice(invoiceId: string): Promise<ProviderInvoiceState | null> {
    const invoice = await this.call(() =>
      this.stripe.invoices.retrieve(invoiceId, { expand: ["payments.data.payment.payment_intent"] }),
    );
    return invoiceStateOf(invoice, await this.taxRatesOf(invoice));
  }

  /** The Tax Rates an invoice's taxes name, each read once per process (their percentage never changes). */
  async taxRatesOf(invoice: Stripe.Invoice): Promise<Map<string, StripeTaxRate>> {
    const found = new Map<string, StripeTaxRate>();
    for (const id of taxRateIdsOf(invoice)) {
      let rate = this.taxRates.get(id);
      if (!rate) {
        rate = this.call(() => this.stripe.taxRates.retrieve(id));
        rate.catch(() => this.taxRates.delete(id));
        this.taxRates.set(id, rate);
      }
      const { percentage, display_name } = await rate;
      found.set(id, { percentage, display_name });
    }
    return found;
  }

  /** A customer's subscriptions (every status), as Stripe lists them. */
  async listSubscriptions(customerId: string): Promise<{ id: string; status: string }[]> {
    const list = await this.call(() =>
      this.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }),
    );
    return list.data.map((s) => ({ id: s.id, status: s.status }));
  }

  async read(sub: ProviderSubscription): Promise<ProviderSubscriptionState> {
    return (await this.readBack(sub.providerSubscriptionId)).state;
  }

  // ---------------------------------------------------------------- changes (BillingProvider)

  /**
   * docs/decisions.md#25: Stripe ends it at `cancelAt` (the minimum-term end, or the period end); nothing is
   * prorated. (A waiting downgrade's schedule is released first by the caller: Stripe refuses cancel_at on a
   * subscription a schedule manages.)
   */
  async scheduleCancel(sub: ProviderSubscription, cancelAt: Date, key: string): Promise<ProviderSubscriptionState> {
    const updated = await this.mutate(() =>
      this.stripe.subscriptions.update(
        sub.providerSubscriptionId,
        { cancel_at: Math.floor(cancelAt.getTime() / 1000), proration_behavior: "none", expand: ["customer"] },
        { idempotencyKey: key },
      ),
    );
    return stateOf(updated);
  }

  /** Undoes Haven's cancel_at, or the portal's cancel_at_period_end (Stripe takes one of the two per call). */
  async undoCancel(sub: ProviderSubscription, key: string): Promise<ProviderSubscriptionState> {
    const current = await this.call(() => this.stripe.subscriptions.retrieve(sub.providerSubscriptionId));
    const params: Stripe.SubscriptionUpdateParams = current.cancel_at_period_end
      ? { cancel_at_period_end: false }
      : { cancel_at: "" };
    const updated = await this.mutate(() =>
      this.stripe.subscriptions.update(
        sub.providerSubscriptionId,
        { ...params, expand: ["customer"] },
        { idempotencyKey: key },
      ),
    );
    return stateOf(updated);
  }

  /** Staff only: ends it at once. */
  async cancelNow(sub: ProviderSubscription, _now: Date, key: string): Promise<ProviderSubscriptionState> {
    const canceled = await this.mutate(() =>
      this.stripe.subscriptions.cancel(sub.providerSubscriptionId, { expand: ["customer"] }, { idempotencyKey: key }),
    );
    return stateOf(canceled);
  }

  /** docs/decisions.md#25, #35, #49: stripe-plan-changes.ts. */
  changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end" | "keep",
    _now: Date,
    key: string,
    prorationDate: Date | null = null,
  ): Promise<PlanChange> {
    return changePlanAtStripe(this.changeSide(), sub.providerSubscriptionId, plan, when, key, prorationDate);
  }

  /** What a plan change and its preview need of this class (stripe-plan-changes.ts). */
  private changeSide(): StripeChangeSide {
    return {
      stripe: this.stripe,
      priceFor: (target, cents) => this.priceFor(target, cents),
      readState: async (id) => (await this.readBack(id)).state,
      taxRatesOf: (invoice) => this.taxRatesOf(invoice),
      mutate: (work) => this.mutate(work),
      call: (work) => this.call(work),
    };
  }

  /** docs/decisions.md#63: an upgrade's prorated charge before it is made (stripe-plan-changes.ts). */
  previewUpgrade(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
    plan: Plan & { amountCents: number },
    prorationDate: Date,
  ): Promise<UpgradeChargeAtStripe> {
    return previewUpgradeAtStripe(this.changeSide(), sub.providerSubscriptionId, plan, prorationDate);
  }

  // ---------------------------------------------------------------- the customer's billing portal and card

  /**
   * A billing-portal session for the subscription's customer. Before the minimum term ends (`canCancel` false)
   * the configuration has no cancel button; after it, cancellation takes effect at the end of the paid period.
   */
  async portalUrl(
    sub: Pick<ProviderSubscription, "providerCustomerId">,
    returnUrl: string,
    options: { canCancel: boolean },
  ): Promise<string> {
    const customer = this.customerOf(sub);
    const configuration = await this.portalConfiguration(options.canCancel);
    const session = await this.call(() =>
      this.stripe.billingPortal.sessions.create({ customer, return_url: returnUrl, configuration }),
    );
    return session.url;
  }

  /** Straight to the portal's card form. Afterwards (the return URL, or customer.updated) call adoptCustomerDefaultCard. */
  async cardUpdateUrl(sub: Pick<ProviderSubscription, "providerCustomerId">, returnUrl: string): Promise<string> {
    const customer = this.customerOf(sub);
    const configuration = await this.portalConfiguration(false);
    const session = await this.call(() =>
      this.stripe.billingPortal.sessions.create({
        customer,
        return_url: returnUrl,
        configuration,
        flow_data: { type: "payment_method_update" },
      }),
    );
    return session.url;
  }

  /**
   * The portal's card flow sets the CUSTOMER's default card, but a subscription with a default card of its own
   * keeps retrying that one. This copies the customer's default onto the subscription and pays the open invoice
   * with it. Returns null when there is nothing to do (no new card, or it is already the subscription's).
   */
  async adoptCustomerDefaultCard(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
  ): Promise<StripeRead | null> {
    const subscription = await this.call(() =>
      this.stripe.subscriptions.retrieve(sub.providerSubscriptionId, { expand: ["customer", "latest_invoice"] }),
    );
    const customer = subscription.customer;
    const card =
      typeof customer === "object" && !("deleted" in customer && customer.deleted)
        ? idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method)
        : null;
    if (!card || card === idOf(subscription.default_payment_method)) return null;
    // Keys name the card and the invoice (docs/decisions.md#35): a repeat is the same call to Stripe.
    await this.mutate(() =>
      this.stripe.subscriptions.update(
        sub.providerSubscriptionId,
        { default_payment_method: card },
        { idempotencyKey: `adopt:${sub.providerSubscriptionId}:${card}` },
      ),
    );
    const open =
      typeof subscription.latest_invoice === "object" && subscription.latest_invoice?.status === "open"
        ? subscription.latest_invoice.id
        : null;
    if (open) {
      await this.mutate(async () => {
        try {
          await this.stripe.invoices.pay(open, { payment_method: card }, { idempotencyKey: `pay:${open}:${card}` });
        } catch (error) {
          // A declined card is an answer, not an outage: the invoice stays open and the state says so.
          if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
        }
      });
    }
    return this.readBack(sub.providerSubscriptionId);
  }

  /**
   * POST /v1/invoices/{id}/pay under the change's key (docs/decisions.md#62), so a double click is one charge: Stripe
   * gives a repeated key its first answer. A declined card is an answer (its message), not an outage. An invoice paid
   * meanwhile (Stripe: 400 "Invoice is already paid") is read back as paid.
   */
  async retryInvoice(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
    invoiceId: string,
    key: string,
  ): Promise<StripeRead & { declined: string | null }> {
    let declined: string | null = null;
    await this.mutate(async () => {
      try {
        await this.stripe.invoices.pay(invoiceId, {}, { idempotencyKey: key });
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) declined = error.message;
        else if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        else if ((await this.call(() => this.stripe.invoices.retrieve(invoiceId))).status !== "paid") throw error;
      }
    });
    const { state } = await this.readBack(sub.providerSubscriptionId);
    return { state, invoice: await this.readInvoice(invoiceId), declined };
  }

  /** Made once per Stripe account and found again by metadata.haven; cached per process. */
  private portalConfiguration(canCancel: boolean): Promise<string> {
    const name = canCancel ? PORTAL_CONFIGURATIONS.withCancel : PORTAL_CONFIGURATIONS.withoutCancel;
    let found = this.portalConfigurations.get(name);
    if (!found) {
      found = this.call(async () => {
        for await (const configuration of this.stripe.billingPortal.configurations.list({ active: true, limit: 100 })) {
          if (configuration.metadata?.haven === name) return configuration.id;
        }
        const made = await this.stripe.billingPortal.configurations.create({
          business_profile: { headline: "Haven Home Health: your plan and card" },
          features: {
            invoice_history: { enabled: true },
            payment_method_update: { enabled: true },
            subscription_cancel: canCancel
              ? { enabled: true, mode: "at_period_end", proration_behavior: "none" }
              : { enabled: false },
          },
          metadata: { haven: name },
        });
        return made.id;
      });
      found.catch(() => this.portalConfigurations.delete(name));
      this.portalConfigurations.set(name, found);
    }
    return found;
  }

  private customerOf(sub: Pick<ProviderSubscription, "providerCustomerId">): string {
    if (!sub.providerCustomerId) throw new BillingUnavailableError();
    return sub.providerCustomerId;
  }

  /** A call that changes something at Stripe (stripe-calls.ts: a refusal is a 503, no answer is "being checked"). */
  private mutate<T>(work: () => Promise<T>): Promise<T> {
    return changeAtStripe(work, this.log);
  }

  /** A read (stripe-calls.ts): any failure is an outage to the caller, 503. */
  private call<T>(work: () => Promise<T>): Promise<T> {
    return readAtStripe(work, this.log);
  }
}

/** Stripe's billing side when PAYMENTS_MODE is stripe; null in demo mode. */
export function createStripeBilling(
  env: Pick<Env, "PAYMENTS_MODE" | "STRIPE_SECRET_KEY" | "STRIPE_API_BASE">,
  log?: Logger,
): StripeBilling | null {
  if (env.PAYMENTS_MODE !== "stripe" || !env.STRIPE_SECRET_KEY) return null;
  return new StripeBilling(createStripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE), log);
}
