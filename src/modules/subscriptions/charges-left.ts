// The charges a cancellation still leaves (the cancel page: "one more charge of $418.10 on January 25"). Pure.
import { todayIn } from "../../shared/business-time.js";
import { monthsAfter, startOfBusinessDay, utcMonthsAfter } from "./billing-dates.js";
import type { CustomerSubscriptionView } from "./subscriptions.constants.js";

export interface ChargesLeft {
  /** When each renewal is charged, ISO instants, in order. */
  dates: string[];
  /** Each charge, tax included (docs/decisions.md#32); null when no invoice at this price shows its tax yet. */
  totalCents: number | null;
  /** The plan's monthly price before tax, in cents. */
  subtotalCents: number;
}

/** A period's start may differ from the stored period end by clock rounding (Stripe's seconds, our midnights). */
const SAME_INSTANT_MS = 60 * 60 * 1000;

/**
 * The renewals between now and the day a cancellation takes effect: each period start after `now`, from the
 * current period's end, before that day (docs/decisions.md#25: nothing is charged once it has taken effect).
 * Demo periods start at business midnights from the start date; Stripe's at the start instant plus n months.
 * The tax is that of the latest invoice billed at the plan's monthly price (the subscription's own province).
 */
export function chargesLeft(
  view: Pick<CustomerSubscriptionView, "subscription" | "invoices">,
  takesEffectAt: string,
  timeZone: string,
  now: Date,
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
  const sameTaxed = [...view.invoices]
    .filter((i) => Math.round(i.subtotal * 100) === subtotalCents && (i.status === "paid" || i.status === "open"))
    .sort((a, b) => b.periodStart.localeCompare(a.periodStart))[0];
  return { dates, totalCents: sameTaxed ? Math.round(sameTaxed.amount * 100) : null, subtotalCents };
}
