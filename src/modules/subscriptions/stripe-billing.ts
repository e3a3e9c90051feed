// Stripe's billing side (docs/decisions.md#23, #25 and #35), API version 2026-10-28: the billing period is on
// the subscription ITEM, an invoice's subscription is under `invoice.parent.subscription_details`, and the first
// invoice's client secret is `latest_invoice.confirmation_secret`. Changes are called under the subscription's
// row lock with an idempotency key derived from the change. A failed read, or a change Stripe refused, is a
// BillingUnavailableError (503, nothing changed); a change Stripe did not answer is a BillingUncertainError (503,
// being checked: Stripe may have applied it, and its webhook settles it).
import type { Logger } from "pino";
import Stripe from "stripe";
import type { Env } from "../../config/env.js";
import { type StripeSubscriptionSide, createStripeClient, invoiceSubscriptionId } from "../payments/index.js";
import { type Plan, type PlanType, planTypeSchema } from "../plans/index.js";
import type { TaxKind, TaxLine } from "../tax/index.js";
import { ACTION_REQUIRED_REASON } from "./provider-state.js";
import { utcMonthsAfter } from "./billing-dates.js";
import {
  type BillingProvider,
  BillingUncertainError,
  BillingUnavailableError,
  type ProviderSubscription,
} from "./billing-provider.js";
import {
  MINIMUM_TERM_MONTHS,
  type ProviderInvoiceState,
  type ProviderSubscriptionState,
} from "./subscriptions.constants.js";

const CURRENCY = "cad";

/** docs/decisions.md#23: one recurring monthly Price per plan and amount, found again by this key. */
export const priceLookupKey = (plan: PlanType, amountCents: number) => `haven_${plan}_monthly_${amountCents}`;

/** The two billing-portal configurations, told apart by `metadata.haven` (docs/decisions.md#25: no cancel button before the minimum term ends). */
export const PORTAL_CONFIGURATIONS = {
  withCancel: "portal_with_cancel",
  withoutCancel: "portal_without_cancel",
} as const;

/** A subscription that is not one of Haven's plans (no plan on its price or its metadata): webhooks ignore it. */
export class ForeignSubscriptionError extends Error {
  constructor(id: string) {
    super(`Stripe subscription ${id} is not a Haven plan`);
  }
}

const at = (seconds: number | null | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

const planOf = (...candidates: (string | null | undefined)[]): PlanType | null => {
  for (const candidate of candidates) {
    const parsed = planTypeSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
};

/** The plan a lookup key names (haven_<plan>_monthly_<cents>). */
const planOfLookupKey = (key: string | null | undefined) =>
  planOf(/^haven_([a-z-]+)_monthly_\d+$/.exec(key ?? "")?.[1]);

/** Haven's view of a Stripe subscription: the period from its item, the plan from its price (else its metadata). */
export function stateOf(
  subscription: Stripe.Subscription,
  checkoutRef: string | null = null,
): ProviderSubscriptionState {
  const item = subscription.items.data[0];
  const price = item?.price;
  const planType = planOf(price?.metadata?.plan, subscription.metadata?.plan) ?? planOfLookupKey(price?.lookup_key);
  if (!item || !price || !planType) throw new ForeignSubscriptionError(subscription.id);
  const customer =
    typeof subscription.customer === "object" && !("deleted" in subscription.customer && subscription.customer.deleted)
      ? (subscription.customer as Stripe.Customer)
      : null;
  const periodEnd = at(item.current_period_end)!;
  const ended = ["canceled", "incomplete_expired"].includes(subscription.status);
  return {
    provider: "stripe",
    providerSubscriptionId: subscription.id,
    providerCustomerId: idOf(subscription.customer),
    // Stripe's value as it is: an unknown one is kept (and logged by the service), never mapped.
    status: subscription.status,
    planType,
    monthlyAmountCents: (price.unit_amount ?? 0) * (item.quantity ?? 1),
    currency: price.currency ?? CURRENCY,
    startedAt: at(subscription.start_date)!,
    currentPeriodStart: at(item.current_period_start)!,
    currentPeriodEnd: periodEnd,
    // The portal's "at period end" sets cancel_at_period_end; Haven's own calls set cancel_at.
    cancelAt: ended ? null : (at(subscription.cancel_at) ?? (subscription.cancel_at_period_end ? periodEnd : null)),
    // When it ended (Stripe's canceled_at is when the cancellation was asked for).
    canceledAt: ended ? (at(subscription.ended_at) ?? at(subscription.canceled_at)) : null,
    payerEmail: customer?.email ?? null,
    payerName: customer?.name ?? null,
    checkoutRef: checkoutRef ?? subscription.metadata?.checkout_ref ?? null,
    // Set by the purchase paths when they create it (docs/decisions.md#23, #32).
    priceList: subscription.metadata?.price_list === "checkout" ? "checkout" : "pricing",
    postalCode: subscription.metadata?.postal_code || null,
    // docs/decisions.md#25: the end of Stripe's own third period, counted from its billing anchor as Stripe counts.
    minimumTermEndsAt: utcMonthsAfter(
      at(subscription.billing_cycle_anchor ?? subscription.start_date)!,
      MINIMUM_TERM_MONTHS,
    ),
  };
}

/** What Haven knows of a Stripe Tax Rate: its percentage and display name (HST, GST, QST). */
export interface StripeTaxRate {
  percentage: number;
  display_name: string;
}

/**
 * The invoice's taxes as TaxLines (docs/decisions.md#32), from `total_taxes` (or the older `total_tax_amounts`) and
 * the Tax Rates they name. Undefined when a rate is not known: the invoice write path then computes the tax.
 */
function taxLinesOf(invoice: Stripe.Invoice, rates: ReadonlyMap<string, StripeTaxRate>): TaxLine[] | undefined {
  const legacy = (invoice as unknown as { total_tax_amounts?: { amount: number; tax_rate: string | { id: string } }[] })
    .total_tax_amounts;
  const taxes: { amount: number; rate: string | null }[] = invoice.total_taxes
    ? invoice.total_taxes.map((t) => ({ amount: t.amount, rate: idOf(t.tax_rate_details?.tax_rate ?? null) }))
    : (legacy ?? []).map((t) => ({ amount: t.amount, rate: idOf(t.tax_rate) }));
  const lines: TaxLine[] = [];
  for (const tax of taxes) {
    const rate = tax.rate ? rates.get(tax.rate) : undefined;
    if (!rate) return undefined;
    const kind = (["HST", "GST", "QST"] as const).find((k) => rate.display_name.toUpperCase().includes(k));
    if (!kind) return undefined;
    lines.push({
      kind: kind as TaxKind,
      label: `${kind} ${rate.percentage}%`,
      percent: rate.percentage,
      amountCents: tax.amount,
    });
  }
  return lines;
}

/** The Tax Rate ids an invoice's taxes name. */
export function taxRateIdsOf(invoice: Stripe.Invoice): string[] {
  const legacy = (invoice as unknown as { total_tax_amounts?: { tax_rate: string | { id: string } }[] })
    .total_tax_amounts;
  const ids = invoice.total_taxes
    ? invoice.total_taxes.map((t) => idOf(t.tax_rate_details?.tax_rate ?? null))
    : (legacy ?? []).map((t) => idOf(t.tax_rate));
  return [...new Set(ids.filter((i): i is string => Boolean(i)))];
}

/** The receipt e-mail the payer gave when paying the invoice, when its PaymentIntent was expanded. */
function receiptEmailOf(invoice: Stripe.Invoice): string | null {
  for (const payment of invoice.payments?.data ?? []) {
    const intent = payment.payment?.payment_intent;
    if (intent && typeof intent === "object" && intent.receipt_email) return intent.receipt_email;
  }
  return null;
}

/** The reason the last payment attempt failed, from the invoice's PaymentIntent when it was expanded. */
function failureOf(invoice: Stripe.Invoice): string | null {
  if (invoice.status !== "open" || !invoice.attempted || invoice.attempt_count < 1) return null;
  for (const payment of invoice.payments?.data ?? []) {
    const intent = payment.payment?.payment_intent;
    if (intent && typeof intent === "object" && intent.status === "requires_action") return ACTION_REQUIRED_REASON;
    if (intent && typeof intent === "object" && intent.last_payment_error?.message)
      return intent.last_payment_error.message;
  }
  return "The card payment did not go through.";
}

/**
 * Haven's view of a subscription invoice; null for an invoice that bills no subscription. With the Tax Rates its
 * taxes name (`rates`), its subtotal and tax lines are Stripe's own.
 */
export function invoiceStateOf(
  invoice: Stripe.Invoice,
  rates: ReadonlyMap<string, StripeTaxRate> = new Map(),
): ProviderInvoiceState | null {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId || !invoice.id) return null;
  // The subscription line's period is the period billed (the invoice's own period_start/end is the previous one for renewals).
  const line = invoice.lines?.data?.find((l) => l.period) ?? null;
  const paid = invoice.status === "paid";
  return {
    provider: "stripe",
    providerInvoiceId: invoice.id,
    providerSubscriptionId: subscriptionId,
    amountCents: paid ? invoice.amount_paid : invoice.amount_due,
    currency: invoice.currency ?? CURRENCY,
    periodStart: at(line?.period.start ?? invoice.period_start)!,
    periodEnd: at(line?.period.end ?? invoice.period_end)!,
    status: invoice.status ?? "draft",
    billingReason: invoice.billing_reason ?? null,
    paidAt: paid ? (at(invoice.status_transitions?.paid_at) ?? new Date()) : null,
    failureReason: failureOf(invoice),
    attemptCount: invoice.attempt_count ?? 0,
    ...taxFieldsOf(invoice, rates),
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
  };
}

/** Stripe's subtotal and taxes, when every tax names a known rate (else the invoice write path computes them). */
function taxFieldsOf(
  invoice: Stripe.Invoice,
  rates: ReadonlyMap<string, StripeTaxRate>,
): Pick<ProviderInvoiceState, "subtotalCents" | "taxLines"> {
  const taxLines = taxLinesOf(invoice, rates);
  if (!taxLines || typeof invoice.subtotal !== "number") return {};
  // The subtotal before tax of what was charged: the total less its taxes (discounts included).
  const total = typeof invoice.total === "number" ? invoice.total : invoice.subtotal;
  const tax = taxLines.reduce((sum, line) => sum + line.amountCents, 0);
  return { subtotalCents: taxLines.length ? total - tax : invoice.subtotal, taxLines };
}

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

  /**
   * Upgrade ("now"): a waiting downgrade's schedule is released, so the price paid is still the item's, then the
   * price is swapped and the rest of the period invoiced at once (always_invoice), prorated from what was paid.
   * Downgrade ("period_end"): a Subscription Schedule keeps the paid price until the period ends, then the new
   * one, and releases the subscription. "keep": a waiting downgrade's schedule is released.
   */
  async changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end" | "keep",
    _now: Date,
    key: string,
  ): Promise<{ state: ProviderSubscriptionState; invoice: ProviderInvoiceState | null }> {
    const price = when === "keep" ? null : await this.priceFor(plan, plan.amountCents);
    const current = await this.call(() => this.stripe.subscriptions.retrieve(sub.providerSubscriptionId));
    const item = current.items.data[0];
    if (!item) throw new BillingUnavailableError();
    const scheduleId = idOf(current.schedule);
    if (when === "period_end") {
      await this.scheduleDowngrade(current, item, price!, plan, scheduleId, key);
      return { state: (await this.readBack(sub.providerSubscriptionId)).state, invoice: null };
    }
    if (scheduleId)
      await this.mutate(() =>
        this.stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `${key}:release` }),
      );
    if (when === "keep") return { state: (await this.readBack(sub.providerSubscriptionId)).state, invoice: null };
    const updated = await this.mutate(() =>
      this.stripe.subscriptions.update(
        sub.providerSubscriptionId,
        {
          items: [{ id: item.id, price: price! }],
          proration_behavior: "always_invoice",
          metadata: { plan: plan.type },
          expand: ["customer", "latest_invoice"],
        },
        { idempotencyKey: key },
      ),
    );
    const latest = typeof updated.latest_invoice === "object" ? updated.latest_invoice : null;
    // The upgrade's proration invoice.
    const invoice =
      latest?.billing_reason === "subscription_update" ? invoiceStateOf(latest, await this.taxRatesOf(latest)) : null;
    return { state: stateOf(updated), invoice };
  }

  /** The paid price until the period's end, then `price` (Stripe's documented way to downgrade at period end). */
  private async scheduleDowngrade(
    current: Stripe.Subscription,
    item: Stripe.SubscriptionItem,
    price: string,
    plan: Plan,
    scheduleId: string | null,
    key: string,
  ): Promise<void> {
    const schedule = scheduleId
      ? await this.call(() => this.stripe.subscriptionSchedules.retrieve(scheduleId))
      : await this.mutate(() =>
          this.stripe.subscriptionSchedules.create(
            { from_subscription: current.id },
            { idempotencyKey: `${key}:schedule` },
          ),
        );
    const phaseStart =
      schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? item.current_period_start;
    const paidPlan = current.metadata?.plan ?? item.price.metadata?.plan ?? "";
    await this.mutate(() =>
      this.stripe.subscriptionSchedules.update(
        schedule.id,
        {
          end_behavior: "release",
          proration_behavior: "none",
          phases: [
            {
              items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
              start_date: phaseStart,
              end_date: item.current_period_end,
              metadata: { ...current.metadata, plan: paidPlan },
            },
            {
              items: [{ price, quantity: 1 }],
              duration: { interval: "month", interval_count: 1 },
              proration_behavior: "none",
              metadata: { ...current.metadata, plan: plan.type },
            },
          ],
        },
        { idempotencyKey: `${key}:phases` },
      ),
    );
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

  /**
   * A call that changes something at Stripe. Refused (a 4xx answer): nothing changed, 503. Not answered (the
   * network, a timeout, a 5xx): Stripe may have applied it, so the caller is told it is being checked.
   */
  private async mutate<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof BillingUnavailableError || error instanceof BillingUncertainError) throw error;
      this.log?.warn({ err: error }, "Stripe billing change failed");
      const status = (error as { statusCode?: number }).statusCode;
      if (status !== undefined && status < 500) throw new BillingUnavailableError();
      throw new BillingUncertainError();
    }
  }

  /** A read (or a Stripe refusal): any failure is an outage to the caller: 503, nothing changed. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (
        error instanceof BillingUnavailableError ||
        error instanceof BillingUncertainError ||
        error instanceof ForeignSubscriptionError
      )
        throw error;
      this.log?.warn({ err: error }, "Stripe billing call failed");
      throw new BillingUnavailableError();
    }
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
