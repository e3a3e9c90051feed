// Stripe's subscriptions and invoices read as Haven's states (docs/decisions.md#23, #32), API version 2026-10-28:
// the billing period is on the subscription ITEM and an invoice's subscription under
// `invoice.parent.subscription_details`. Pure functions of Stripe's objects; StripeBilling (stripe-billing.ts) calls
// Stripe and reads its answers with them.
import type Stripe from "stripe";
import { invoiceSubscriptionId } from "../payments/index.js";
import { type PlanType, planTypeSchema } from "../plans/index.js";
import type { TaxKind, TaxLine } from "../tax/index.js";
import { utcMonthsAfter } from "./billing-dates.js";
import { ACTION_REQUIRED_REASON } from "./provider-state.js";
import { declineCodeOf } from "./card-declines.js";
import {
  MINIMUM_TERM_MONTHS,
  type ProviderInvoiceState,
  type ProviderSubscriptionState,
} from "./subscriptions.constants.js";

export const CURRENCY = "cad";

/** A subscription that is not one of Haven's plans (no plan on its price or its metadata): webhooks ignore it. */
export class ForeignSubscriptionError extends Error {
  constructor(id: string) {
    super(`Stripe subscription ${id} is not a Haven plan`);
  }
}

const at = (seconds: number | null | undefined): Date | null => (seconds ? new Date(seconds * 1000) : null);
export const idOf = (value: string | { id: string } | null | undefined): string | null =>
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

/** What Haven knows of a Stripe Tax Rate: its percentage, display name (HST, GST, QST) and tax type. */
export interface StripeTaxRate {
  percentage: number;
  display_name: string;
  tax_type?: string | null;
}

/** The invoice's taxes, from `total_taxes` (or the older `total_tax_amounts`), each with the Tax Rate it names. */
function taxesOf(invoice: Stripe.Invoice): { amount: number; rate: string | null }[] {
  const legacy = (invoice as unknown as { total_tax_amounts?: { amount: number; tax_rate: string | { id: string } }[] })
    .total_tax_amounts;
  return invoice.total_taxes
    ? invoice.total_taxes.map((t) => ({ amount: t.amount, rate: idOf(t.tax_rate_details?.tax_rate ?? null) }))
    : (legacy ?? []).map((t) => ({ amount: t.amount, rate: idOf(t.tax_rate) }));
}

/**
 * The invoice's taxes as TaxLines (docs/decisions.md#32), with the Tax Rates they name. Undefined when a rate is not
 * known: the invoice write path then names Stripe's amounts by the home's rates (docs/decisions.md#50).
 */
function taxLinesOf(invoice: Stripe.Invoice, rates: ReadonlyMap<string, StripeTaxRate>): TaxLine[] | undefined {
  const lines: TaxLine[] = [];
  for (const tax of taxesOf(invoice)) {
    const rate = tax.rate ? rates.get(tax.rate) : undefined;
    if (!rate) return undefined;
    const named = `${rate.tax_type ?? ""} ${rate.display_name}`.toUpperCase();
    const kind = (["HST", "GST", "QST"] as const).find((k) => named.includes(k));
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
  return [...new Set(taxesOf(invoice).flatMap((t) => (t.rate ? [t.rate] : [])))];
}

/** The receipt e-mail the payer gave when paying the invoice, when its PaymentIntent was expanded. */
export function receiptEmailOf(invoice: Stripe.Invoice): string | null {
  for (const payment of invoice.payments?.data ?? []) {
    const intent = payment.payment?.payment_intent;
    if (intent && typeof intent === "object" && intent.receipt_email) return intent.receipt_email;
  }
  return null;
}

/**
 * The reason the last payment attempt failed, from the invoice's PaymentIntent when it was expanded: Stripe's
 * message and its code (decline_code, else code), by which the homeowner's text is chosen (docs/decisions.md#78).
 */
function failureOf(invoice: Stripe.Invoice): { reason: string; code: string | null } | null {
  if (invoice.status !== "open" || !invoice.attempted || invoice.attempt_count < 1) return null;
  for (const payment of invoice.payments?.data ?? []) {
    const intent = payment.payment?.payment_intent;
    if (intent && typeof intent === "object" && intent.status === "requires_action")
      return { reason: ACTION_REQUIRED_REASON, code: null };
    if (intent && typeof intent === "object" && intent.last_payment_error?.message)
      return { reason: intent.last_payment_error.message, code: declineCodeOf(intent.last_payment_error) };
  }
  return { reason: "The card payment did not go through.", code: null };
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
  const failure = failureOf(invoice);
  return {
    provider: "stripe",
    providerInvoiceId: invoice.id,
    providerSubscriptionId: subscriptionId,
    amountCents: paid ? invoice.amount_paid : invoice.amount_due,
    // docs/decisions.md#50: the total, and the customer's balance that paid part of it (or a debt it carried in).
    totalCents: typeof invoice.total === "number" ? invoice.total : undefined,
    balanceAppliedCents:
      typeof invoice.ending_balance === "number" ? invoice.ending_balance - (invoice.starting_balance ?? 0) : 0,
    currency: invoice.currency ?? CURRENCY,
    periodStart: at(line?.period.start ?? invoice.period_start)!,
    periodEnd: at(line?.period.end ?? invoice.period_end)!,
    status: invoice.status ?? "draft",
    billingReason: invoice.billing_reason ?? null,
    paidAt: paid ? (at(invoice.status_transitions?.paid_at) ?? new Date()) : null,
    // Its date: when Stripe finalized it (issued it), whenever Haven hears of it (docs/decisions.md#54).
    issuedAt: at(invoice.status_transitions?.finalized_at) ?? at(invoice.created),
    customFields: (invoice.custom_fields ?? []).map((f) => ({ name: f.name, value: f.value })),
    failureReason: failure?.reason ?? null,
    failureCode: failure?.code ?? null,
    attemptCount: invoice.attempt_count ?? 0,
    ...taxFieldsOf(invoice, rates),
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
  };
}

/**
 * Stripe's subtotal and taxes: as tax lines when every tax names a known rate, else as amounts the invoice write
 * path names (docs/decisions.md#50), never dropped.
 */
function taxFieldsOf(
  invoice: Stripe.Invoice,
  rates: ReadonlyMap<string, StripeTaxRate>,
): Pick<ProviderInvoiceState, "subtotalCents" | "taxLines" | "taxAmountsCents"> {
  if (typeof invoice.subtotal !== "number") return {};
  // The subtotal before tax of what was charged: the total less its taxes (discounts included).
  const total = typeof invoice.total === "number" ? invoice.total : invoice.subtotal;
  const taxLines = taxLinesOf(invoice, rates);
  if (!taxLines) {
    const amounts = taxesOf(invoice).map((t) => t.amount);
    return { subtotalCents: total - amounts.reduce((sum, a) => sum + a, 0), taxAmountsCents: amounts };
  }
  const tax = taxLines.reduce((sum, line) => sum + line.amountCents, 0);
  return { subtotalCents: taxLines.length ? total - tax : invoice.subtotal, taxLines };
}
