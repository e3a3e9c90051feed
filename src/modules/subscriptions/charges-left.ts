// The charges a cancellation still leaves (the cancel page: "one more charge of $418.10 on January 25"). Pure.
import { todayIn } from "../../shared/business-time.js";
import type { PlansService } from "../plans/index.js";
import type { Province } from "../tax/index.js";
import { chargeWithTax, chargeWords } from "./charge-with-tax.js";
import { monthsAfter, startOfBusinessDay, utcMonthsAfter } from "./billing-dates.js";
import type { CustomerSubscriptionView } from "./subscriptions.constants.js";

export interface ChargeLeft {
  /** When it is charged, an ISO instant. */
  at: string;
  /** Before tax, in cents: the plan billed then (a downgrade that applies first bills the lower plan). */
  subtotalCents: number;
  /** Tax included: the home's province's tax on the day it is charged (docs/decisions.md#63). */
  totalCents: number;
  /** "$418.10 CAD ($370.00 + HST $48.10)". */
  words: string;
}

export interface ChargesLeft {
  /** When each renewal is charged, ISO instants, in order. */
  dates: string[];
  /** The first charge, tax included (docs/decisions.md#32, #63); null when none is left. */
  totalCents: number | null;
  /** The plan's monthly price before tax, in cents. */
  subtotalCents: number;
  /** Each charge with its own price: they differ when a downgrade takes effect before the cancellation. */
  charges: ChargeLeft[];
}

/** A plan change waiting for the period's end (docs/decisions.md#35): from `at` on, the lower plan's price. */
export interface ScheduledPrice {
  at: string;
  /** The scheduled plan's monthly price before tax, in dollars, from the subscriber's price list. */
  monthlyAmount: number;
}

/** A period's start may differ from the stored period end by clock rounding (Stripe's seconds, our midnights). */
const SAME_INSTANT_MS = 60 * 60 * 1000;

/**
 * The renewals between now and the day a cancellation takes effect: each period start after `now`, from the
 * current period's end, before that day (docs/decisions.md#25: nothing is charged once it has taken effect).
 * Demo periods start at business midnights from the start date; Stripe's at the start instant plus n months.
 * A downgrade waiting for the period's end (`scheduled`) prices the renewals from its date at the lower plan.
 * Each is taxed for the home's province on its day by the tax module (docs/decisions.md#57, #63), as its invoice
 * will be.
 */
export function chargesLeft(
  view: Pick<CustomerSubscriptionView, "subscription" | "invoices">,
  takesEffectAt: string,
  timeZone: string,
  now: Date,
  scheduled: ScheduledPrice | null,
  province: Province,
): ChargesLeft {
  const s = view.subscription;
  const subtotalCents = Math.round(s.monthlyAmount * 100);
  const end = new Date(takesEffectAt).getTime() - SAME_INSTANT_MS;
  const from = Math.max(new Date(s.currentPeriodEnd).getTime() - SAME_INSTANT_MS, now.getTime());
  const startedAt = new Date(s.startedAt);
  const anchor = todayIn(timeZone, startedAt);
  const dates: string[] = [];
  for (let k = 1; k <= 120; k++) {
    const start =
      s.provider === "stripe" ? utcMonthsAfter(startedAt, k) : startOfBusinessDay(monthsAfter(anchor, k), timeZone);
    const at = start.getTime();
    if (at > end) break;
    if (at > from) dates.push(start.toISOString());
  }
  const lowerFrom = scheduled ? new Date(scheduled.at).getTime() - SAME_INSTANT_MS : Number.POSITIVE_INFINITY;
  const lowerCents = scheduled ? Math.round(scheduled.monthlyAmount * 100) : subtotalCents;
  const charges = dates.map((at) => {
    const charge = chargeWithTax(
      new Date(at).getTime() >= lowerFrom ? lowerCents : subtotalCents,
      province,
      at,
      timeZone,
    );
    return { at, subtotalCents: charge.subtotalCents, totalCents: charge.totalCents, words: chargeWords(charge) };
  });
  return {
    dates,
    totalCents: charges[0]?.totalCents ?? null,
    subtotalCents,
    charges,
  };
}

/**
 * The price a waiting plan change bills from its date: the scheduled plan on the subscriber's own price list
 * (docs/decisions.md#23); null when nothing waits or it applies after the cancellation.
 */
export async function scheduledPrice(
  view: Pick<CustomerSubscriptionView, "subscription">,
  takesEffectAt: string,
  plans: Pick<PlansService, "get">,
): Promise<ScheduledPrice | null> {
  const s = view.subscription;
  if (!s.scheduledPlanType || !s.scheduledPlanAt || s.scheduledPlanAt >= takesEffectAt) return null;
  const plan = await plans.get(s.scheduledPlanType);
  return { at: s.scheduledPlanAt, monthlyAmount: s.priceList === "checkout" ? plan.checkoutPrice : plan.price };
}
