// Recurrence of maintenance schedules (docs/decisions.md#12 and #22). Pure and zod-free.
//
// The nth occurrence is always the START date plus n steps (date-fns), never the previous occurrence
// plus one: a schedule started on the 31st falls on the last day of shorter months and comes back to
// the 31st; one started on Feb 29 falls on Feb 28 in common years. A task is a wall-clock date and time
// of the business zone, so a daylight-saving change never moves it; `occurrenceInstant` turns it into an
// instant (for .ics files) with @date-fns/tz.
//
// A plan service's schedule (docs/decisions.md#26) carries an RFC 5545 rule instead (`rrule`,
// e.g. FREQ=YEARLY;BYMONTH=5,10;BYMONTHDAY=15) whose DTSTART is the schedule's start date. Rules are
// evaluated with the `rrule` package on floating dates: midnight UTC in, UTC date parts out, so neither
// the server's zone nor a daylight-saving change moves a date.
import { TZDate } from "@date-fns/tz";
import { addDays, addMonths, addWeeks, addYears, differenceInCalendarDays, differenceInCalendarMonths } from "date-fns";
import rrulePkg from "rrule";
import type { RecurrenceType } from "./maintenance.constants.js";

// rrule 2.8 has no named exports under Node ESM: take them from the default export.
const { RRule } = rrulePkg;
type RRuleOptions = ReturnType<typeof RRule.parseString>;

export interface Recurrence {
  startDate: string;
  recurrenceType: RecurrenceType;
  recurrenceInterval: number;
  /** An RFC 5545 RRULE (without DTSTART; the start date is its DTSTART). When set, it decides the dates. */
  rrule?: string | null;
}

// Dates are computed at local noon: no zone changes its clocks at noon, so the calendar date is exact
// whatever the server's zone (the date is all that matters here, not the instant).
const toDate = (date: string) =>
  new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), 12);
const pad = (n: number) => (n < 10 ? `0${n}` : String(n));
const toIso = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The nth occurrence (n = 0 is the start date). */
function nth(start: Date, type: RecurrenceType, interval: number, n: number): Date {
  switch (type) {
    case "daily":
      return addDays(start, n * interval);
    case "weekly":
      return addWeeks(start, n * interval);
    case "monthly":
      return addMonths(start, n * interval);
    case "quarterly":
      return addMonths(start, 3 * n * interval);
    case "annually":
      return addYears(start, n * interval);
  }
}

/** A lower bound of the index of the first occurrence on or after `from`, so old schedules skip ahead. */
function firstIndexFrom(start: Date, type: RecurrenceType, interval: number, from: Date): number {
  if (from <= start) return 0;
  let steps: number;
  if (type === "daily") steps = differenceInCalendarDays(from, start) / interval;
  else if (type === "weekly") steps = differenceInCalendarDays(from, start) / (7 * interval);
  else {
    const months = type === "quarterly" ? 3 * interval : type === "annually" ? 12 * interval : interval;
    steps = differenceInCalendarMonths(from, start) / months;
  }
  return Math.max(0, Math.floor(steps) - 1);
}

/** Every occurrence date of the schedule in [from, through] (both 'YYYY-MM-DD'), in order. */
export function occurrencesBetween(rule: Recurrence, from: string, through: string): string[] {
  if (rule.rrule) return ruleOccurrencesBetween(rule.rrule, rule.startDate, from, through);
  const interval = Math.max(1, Math.trunc(rule.recurrenceInterval));
  const start = toDate(rule.startDate);
  const fromDate = toDate(from < rule.startDate ? rule.startDate : from);
  const last = toDate(through);
  const dates: string[] = [];
  for (let n = firstIndexFrom(start, rule.recurrenceType, interval, fromDate); ; n++) {
    const date = nth(start, rule.recurrenceType, interval, n);
    if (date > last) break;
    if (date >= fromDate) dates.push(toIso(date));
  }
  return dates;
}

/** The first `count` occurrences from the start date. */
export function firstOccurrences(rule: Recurrence, count: number): string[] {
  const start = toDate(rule.startDate);
  const interval = Math.max(1, Math.trunc(rule.recurrenceInterval));
  return Array.from({ length: count }, (_, n) => toIso(nth(start, rule.recurrenceType, interval, n)));
}

/** '10:00 AM' → [10, 0]; 24-hour '14:30' too. Anything else is 10:00 (staff-side §9's task default). */
export function clockOf(time: string | null | undefined): [number, number] {
  const m = /^(\d{1,2}):(\d{2})(?:\s*(AM|PM))?$/i.exec((time ?? "").trim());
  if (!m) return [10, 0];
  let hour = Number(m[1]);
  if (m[3]) hour = (hour % 12) + (m[3].toUpperCase() === "PM" ? 12 : 0);
  return hour > 23 || Number(m[2]) > 59 ? [10, 0] : [hour, Number(m[2])];
}

/** The instant at which the wall-clock `date time` happens in the zone (DST-aware, via @date-fns/tz). */
export function occurrenceInstant(date: string, time: string | null | undefined, timeZone: string): Date {
  const [hour, minute] = clockOf(time);
  const local = new TZDate(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
    hour,
    minute,
    timeZone,
  );
  return new Date(local.getTime());
}

// --- RFC 5545 rules (plan services) ---

const parsed = new Map<string, RRuleOptions>();
const floating = (date: string) =>
  new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))));
const floatingIso = (d: Date) => d.toISOString().slice(0, 10);

/** The rule with DTSTART = `start`; the parsed RRULE text is kept (schedules share a handful of rules). */
function ruleFrom(rrule: string, start: string) {
  let options = parsed.get(rrule);
  if (!options) {
    options = RRule.parseString(rrule);
    parsed.set(rrule, options);
  }
  // tzid stays unset: dates are floating (UTC parts), whatever the server's zone.
  return new RRule({ ...options, dtstart: floating(start), tzid: null });
}

/** Is this text an RRULE the `rrule` package reads (FREQ required)? */
export function isRRule(rrule: string): boolean {
  try {
    return RRule.parseString(rrule).freq !== undefined;
  } catch {
    return false;
  }
}

/**
 * Dates in [from, through] of the rule started on `start` (its DTSTART). As with RFC 5545 and the rrule
 * package, DTSTART itself counts only when it matches the rule (a start on Oct 31 is no window cleaning).
 */
export function ruleOccurrencesBetween(rrule: string, start: string, from: string, through: string): string[] {
  const lower = from < start ? start : from;
  if (through < lower) return [];
  return ruleFrom(rrule, start).between(floating(lower), floating(through), true).map(floatingIso);
}

/**
 * The rule's first date on or after `notBefore` when it starts then, looking at most `withinDays` ahead
 * (a rule that never matches ends the search): a plan service's first visit.
 */
export function firstRuleOccurrence(rrule: string, notBefore: string, withinDays = 800): string | null {
  const last = floatingIso(new Date(floating(notBefore).getTime() + withinDays * 86_400_000));
  return ruleOccurrencesBetween(rrule, notBefore, notBefore, last)[0] ?? null;
}

/** The rule's next date on or after `from`, for a schedule started on `start`. */
export function nextRuleOccurrence(rrule: string, start: string, from: string, withinDays = 800): string | null {
  const lower = from < start ? start : from;
  const last = floatingIso(new Date(floating(lower).getTime() + withinDays * 86_400_000));
  return ruleOccurrencesBetween(rrule, start, lower, last)[0] ?? null;
}

/** 'YYYY-MM-DD' a year later; Feb 29 becomes Feb 28. */
export const yearLater = (date: string): string => {
  const next = `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;
  return next.endsWith("-02-29") ? `${next.slice(0, 8)}28` : next;
};

/** The closest of the schedule's recurrence types (shown in lists; the rule decides the dates). */
export function recurrenceTypeOf(rrule: string | null): "weekly" | "monthly" | "annually" {
  if (rrule?.includes("FREQ=WEEKLY")) return "weekly";
  if (rrule?.includes("FREQ=MONTHLY")) return "monthly";
  return "annually";
}
