// A plan change at Stripe (docs/decisions.md#25, #35, #49), as StripeBilling.changePlan makes it. An upgrade is a
// pending update (payment_behavior=pending_if_incomplete): Stripe applies the new price only once its prorated
// invoice is paid, where by default it applies an update "regardless of whether payment on the new invoice
// succeeds"; so a declined card leaves the plan as it was. A downgrade waits in a Subscription Schedule whose
// phases each carry the subscription's taxes: an update's phases replace the schedule's, each with only the tax
// rates it is given, so a phase sent without them would bill every later renewal without tax.
import type Stripe from "stripe";
import type { Plan } from "../plans/index.js";
import { BillingUnavailableError, type PlanChange } from "./billing-provider.js";
import { type StripeTaxRate, idOf, invoiceStateOf, stateOf } from "./stripe-billing-state.js";

/** What a plan change needs of StripeBilling: its Prices, its reads, and how its calls fail (stripe-calls.ts). */
export interface StripeChangeSide {
  stripe: Stripe;
  priceFor(plan: Pick<Plan, "type" | "name">, amountCents: number): Promise<string>;
  readState(subscriptionId: string): Promise<PlanChange["state"]>;
  taxRatesOf(invoice: Stripe.Invoice): Promise<Map<string, StripeTaxRate>>;
  /** A call that changes something at Stripe. */
  mutate<T>(work: () => Promise<T>): Promise<T>;
  /** A read. */
  call<T>(work: () => Promise<T>): Promise<T>;
}

const rateIds = (rates: (string | Stripe.TaxRate)[] | null | undefined): string[] =>
  (rates ?? []).map((rate) => idOf(rate)!).filter(Boolean);

/**
 * docs/decisions.md#49: the taxes a schedule's phases must carry for their invoices to be taxed as the subscription's
 * are now: its default tax rates and automatic tax on the phase, its item's tax rates on the phase's item.
 */
export function phaseTaxesOf(subscription: Stripe.Subscription): {
  phase: Pick<Stripe.SubscriptionScheduleUpdateParams.Phase, "default_tax_rates" | "automatic_tax">;
  item: Pick<Stripe.SubscriptionScheduleUpdateParams.Phase.Item, "tax_rates">;
} {
  const defaults = rateIds(subscription.default_tax_rates);
  const itemRates = rateIds(subscription.items.data[0]?.tax_rates);
  return {
    phase: {
      ...(defaults.length ? { default_tax_rates: defaults } : {}),
      ...(subscription.automatic_tax?.enabled ? { automatic_tax: { enabled: true } } : {}),
    },
    item: itemRates.length ? { tax_rates: itemRates } : {},
  };
}

/**
 * Upgrade ("now"): a waiting downgrade's schedule is released, so the price paid is still the item's, then the price
 * is swapped and the rest of the period invoiced at once (always_invoice), prorated from what was paid, as a pending
 * update: declined, the answer says why (`declined`) and nothing but the release changed. Downgrade ("period_end"):
 * a Subscription Schedule keeps the paid price until the period ends, then the new one, and releases the
 * subscription. "keep": a waiting downgrade's schedule is released.
 */
export async function changePlanAtStripe(
  side: StripeChangeSide,
  subscriptionId: string,
  plan: Plan & { amountCents: number },
  when: "now" | "period_end" | "keep",
  key: string,
  prorationDate: Date | null = null,
): Promise<PlanChange> {
  const { stripe } = side;
  const price = when === "keep" ? null : await side.priceFor(plan, plan.amountCents);
  const current = await side.call(() => stripe.subscriptions.retrieve(subscriptionId));
  const item = current.items.data[0];
  if (!item) throw new BillingUnavailableError();
  const scheduleId = idOf(current.schedule);
  if (when === "period_end") {
    await scheduleDowngrade(side, current, item, price!, plan, scheduleId, key);
    return { state: await side.readState(subscriptionId), invoice: null };
  }
  if (scheduleId)
    await side.mutate(() => stripe.subscriptionSchedules.release(scheduleId, {}, { idempotencyKey: `${key}:release` }));
  if (when === "keep") return { state: await side.readState(subscriptionId), invoice: null };
  const updated = await side.mutate(() =>
    stripe.subscriptions.update(
      subscriptionId,
      {
        items: [{ id: item.id, price: price! }],
        proration_behavior: "always_invoice",
        // The instant its preview was shown at (docs/decisions.md#63): the charge is the figure shown.
        ...(prorationDate ? { proration_date: Math.floor(prorationDate.getTime() / 1000) } : {}),
        payment_behavior: "pending_if_incomplete",
        // Kept with the pending update and applied with the price (Stripe API 2026-05-27 and later).
        metadata: { plan: plan.type },
        expand: ["customer", "latest_invoice.payments.data.payment.payment_intent"],
      },
      { idempotencyKey: key },
    ),
  );
  const latest = typeof updated.latest_invoice === "object" ? updated.latest_invoice : null;
  if (updated.pending_update) {
    // Its invoice was not paid: Stripe keeps the price paid for, and voids the invoice when the update expires.
    const reason = latest ? invoiceStateOf(latest)?.failureReason : null;
    return { state: stateOf(updated), invoice: null, declined: reason ?? "The card payment did not go through." };
  }
  // The upgrade's proration invoice.
  const invoice =
    latest?.billing_reason === "subscription_update" ? invoiceStateOf(latest, await side.taxRatesOf(latest)) : null;
  return { state: stateOf(updated), invoice };
}

/** The paid price until the period's end, then `price` (Stripe's documented way to downgrade at period end). */
async function scheduleDowngrade(
  side: StripeChangeSide,
  current: Stripe.Subscription,
  item: Stripe.SubscriptionItem,
  price: string,
  plan: Plan,
  scheduleId: string | null,
  key: string,
): Promise<void> {
  const { stripe } = side;
  const schedule = scheduleId
    ? await side.call(() => stripe.subscriptionSchedules.retrieve(scheduleId))
    : await side.mutate(() =>
        stripe.subscriptionSchedules.create({ from_subscription: current.id }, { idempotencyKey: `${key}:schedule` }),
      );
  const phaseStart = schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? item.current_period_start;
  const paidPlan = current.metadata?.plan ?? item.price.metadata?.plan ?? "";
  const taxes = phaseTaxesOf(current);
  await side.mutate(() =>
    stripe.subscriptionSchedules.update(
      schedule.id,
      {
        end_behavior: "release",
        proration_behavior: "none",
        phases: [
          {
            items: [{ price: item.price.id, quantity: item.quantity ?? 1, ...taxes.item }],
            start_date: phaseStart,
            end_date: item.current_period_end,
            metadata: { ...current.metadata, plan: paidPlan },
            ...taxes.phase,
          },
          {
            items: [{ price, quantity: 1, ...taxes.item }],
            duration: { interval: "month", interval_count: 1 },
            proration_behavior: "none",
            metadata: { ...current.metadata, plan: plan.type },
            ...taxes.phase,
          },
        ],
      },
      { idempotencyKey: `${key}:phases` },
    ),
  );
}

/** An upgrade's charge as Stripe will invoice it: its subtotal, each tax line and the total, in cents. */
export interface UpgradeChargeAtStripe {
  subtotalCents: number;
  taxLines: { label: string; amountCents: number }[];
  totalCents: number;
}

/**
 * An upgrade's prorated charge before it is made (docs/decisions.md#63): Stripe's invoice preview of the same item
 * and price, `always_invoice` at `prorationDate`, with the subscription's taxes, as changePlanAtStripe then bills it.
 */
export async function previewUpgradeAtStripe(
  side: StripeChangeSide,
  subscriptionId: string,
  plan: Plan & { amountCents: number },
  prorationDate: Date,
): Promise<UpgradeChargeAtStripe> {
  const price = await side.priceFor(plan, plan.amountCents);
  const current = await side.call(() => side.stripe.subscriptions.retrieve(subscriptionId));
  const item = current.items.data[0];
  if (!item) throw new BillingUnavailableError();
  const preview = await side.call(() =>
    side.stripe.invoices.createPreview({
      subscription: subscriptionId,
      subscription_details: {
        items: [{ id: item.id, price }],
        proration_behavior: "always_invoice",
        proration_date: Math.floor(prorationDate.getTime() / 1000),
      },
    }),
  );
  const read = invoiceStateOf(
    { ...preview, id: preview.id ?? "preview", parent: preview.parent },
    await side.taxRatesOf(preview),
  );
  const totalCents = preview.total;
  const taxLines =
    read?.taxLines ?? (read?.taxAmountsCents ?? []).map((amountCents) => ({ label: "Tax", amountCents }));
  return {
    subtotalCents: totalCents - taxLines.reduce((sum, l) => sum + l.amountCents, 0),
    taxLines: taxLines.map((l) => ({ label: l.label, amountCents: l.amountCents })),
    totalCents,
  };
}
