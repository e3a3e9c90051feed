// Billing periods and the minimum term (docs/decisions.md#22, #24, #25). Pure.
//
// Period n runs from the anchor date plus n months to the anchor plus n + 1 months, always counted from the
// anchor (never from the previous period), at midnight in the business zone: a subscription started on
// Jan 31 renews on Feb 28, Mar 31, Apr 30… The minimum term ends at the anchor plus three months.
import { addMonths, differenceInCalendarMonths } from "date-fns";
import { startOfBusinessDay } from "../../shared/business-time.js";
import { MINIMUM_TERM_MONTHS } from "./subscriptions.constants.js";

// Local noon keeps the calendar date exact whatever the server's zone (as recurrence.ts does).
const toDate = (date: string) =>
  new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), 12);
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
const toIso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The anchor plus n months, as a date ('YYYY-MM-DD'); a day the month lacks becomes its last day. */
export function monthsAfter(anchor: string, months: number): string {
  return toIso(addMonths(toDate(anchor), months));
}

export { startOfBusinessDay };

/** Period n (0 = the first) of a subscription anchored on `anchor`. */
export function period(
  anchor: string,
  n: number,
  timeZone: string,
): { index: number; start: Date; end: Date; startDate: string; endDate: string } {
  const startDate = monthsAfter(anchor, n);
  const endDate = monthsAfter(anchor, n + 1);
  return {
    index: n,
    start: startOfBusinessDay(startDate, timeZone),
    end: startOfBusinessDay(endDate, timeZone),
    startDate,
    endDate,
  };
}

/** The period that holds business date `date` (the first period for any date before the anchor). */
export function periodOn(anchor: string, date: string, timeZone: string) {
  let n = Math.max(0, differenceInCalendarMonths(toDate(date), toDate(anchor)) - 1);
  while (monthsAfter(anchor, n + 1) <= date) n++;
  return period(anchor, n, timeZone);
}

/** docs/decisions.md#25: the minimum term ends three months after the start, by the same month-end rule. */
export function minimumTermEnd(anchor: string, timeZone: string): Date {
  return startOfBusinessDay(monthsAfter(anchor, MINIMUM_TERM_MONTHS), timeZone);
}

/**
 * docs/decisions.md#25: when a cancellation asked for at `now` takes effect. Before the minimum term ends, at its end;
 * after, at the end of the paid period.
 */
export function cancellationTakesEffect(input: { now: Date; minimumTermEndsAt: Date; currentPeriodEnd: Date }): Date {
  return input.now < input.minimumTermEndsAt ? input.minimumTermEndsAt : input.currentPeriodEnd;
}

/**
 * Stripe's own months (docs/decisions.md#25): `anchor` plus n months in UTC, the time of day kept and the anchor's
 * day clamped to a shorter month's last, always counted from the anchor (Jan 31 → Feb 28 → Mar 31).
 */
export function utcMonthsAfter(anchor: Date, months: number): Date {
  const target = new Date(
    Date.UTC(
      anchor.getUTCFullYear(),
      anchor.getUTCMonth() + months,
      1,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
    ),
  );
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(anchor.getUTCDate(), last));
  return target;
}
