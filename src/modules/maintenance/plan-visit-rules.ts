// The rules of a plan visit the homeowner moves or skips (docs/decisions.md#44). Pure: dates in, answers out.
import { addDays } from "../../shared/business-time.js";

/** A change is made at least this many days before the visit, and a move lands at least this far ahead. */
export const VISIT_CHANGE_LEAD_DAYS = 2;
/** The annual inspection moves at most this many days either side of its due date. */
export const INSPECTION_MOVE_DAYS = 60;
/** An on-request visit (vacation prep…) moves to any date up to this many days ahead. */
export const ON_REQUEST_MOVE_DAYS = 365;
/** The plan service that is the plan's health report: moved (as a booking), never skipped. */
export const ANNUAL_INSPECTION_SERVICE = "health-report";

export const VISIT_RULE_MESSAGES = {
  tooClose: "This visit is less than 2 days away: please call or e-mail us to change it",
  held: "This visit is on hold while your plan's payment is past due",
  notOpen: "Only a visit that is still to come can be changed",
  ended: "Your plan no longer includes this visit",
  skipped: "This visit is skipped: restore it before moving it",
  notSkipped: "This visit is not skipped",
  inspectionSkip: "The annual inspection is your plan's health report: it can be moved, not skipped",
  unskipTooLate: "This visit's day has come: it can no longer be restored",
  outsideWindow: "Choose a date within the visit's window",
  taken: "Another visit of this service is on that date: choose another",
  booked: "This inspection is booked: change it from its booking",
} as const;

const MONTHS = (rrule: string | null) =>
  /BYMONTH=([\d,]+)/
    .exec(rrule ?? "")?.[1]
    ?.split(",")
    .map(Number) ?? null;
const monthOf = (date: string) => Number(date.slice(5, 7));
const lastDayOfMonth = (date: string) => {
  const y = Number(date.slice(0, 4));
  const m = monthOf(date);
  return `${date.slice(0, 7)}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};

/**
 * The dates a plan visit may move to, from the series date it stands for (its first date), before the lead:
 * - the annual inspection: 60 days either side of its due date;
 * - a weekly or fortnightly visit (snow, lawn): less than half its interval either side (3 days for snow, within
 *   its week; 6 for the lawn), never out of its season (the rule's months), so it never meets its neighbours;
 * - a monthly, seasonal or yearly visit (absentee care, windows, HVAC, gutters): any day of its month;
 * - an on-request visit: any date within a year.
 */
export function moveWindow(
  visit: { planService: string; rrule: string | null; seriesDate: string },
  today: string,
): { from: string; to: string } {
  const series = visit.seriesDate;
  let from: string;
  let to: string;
  if (visit.planService === ANNUAL_INSPECTION_SERVICE) {
    from = addDays(series, -INSPECTION_MOVE_DAYS);
    to = addDays(series, INSPECTION_MOVE_DAYS);
  } else if (!visit.rrule) {
    from = today;
    to = addDays(today, ON_REQUEST_MOVE_DAYS);
  } else if (/FREQ=WEEKLY/.test(visit.rrule)) {
    const interval = Number(/INTERVAL=(\d+)/.exec(visit.rrule)?.[1] ?? 1);
    const half = Math.floor((7 * interval - 1) / 2);
    const season = MONTHS(visit.rrule);
    const inSeason = (d: string) => !season || season.includes(monthOf(d));
    from = series;
    to = series;
    for (let i = 1; i <= half && inSeason(addDays(series, -i)); i++) from = addDays(series, -i);
    for (let i = 1; i <= half && inSeason(addDays(series, i)); i++) to = addDays(series, i);
  } else {
    from = `${series.slice(0, 7)}-01`;
    to = lastDayOfMonth(series);
  }
  const earliest = addDays(today, VISIT_CHANGE_LEAD_DAYS);
  return { from: from < earliest ? earliest : from, to };
}

/** Whether the service may be skipped (everything but the plan's health report). */
export const skippable = (planService: string) => planService !== ANNUAL_INSPECTION_SERVICE;

/** Is the visit far enough away to change (at least 2 days before its date)? */
export const changeableOn = (date: string, today: string) => date >= addDays(today, VISIT_CHANGE_LEAD_DAYS);
