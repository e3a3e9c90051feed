// Inspectors' calendars (docs/decisions.md#37): pure functions of hours, time off and booked ranges, so the
// availability call, the booking's assignment and the tests share them. Times are instants (ms since epoch).
import {
  DAY_PARTS,
  DAY_PART_VALUES,
  type DayPart,
  TIME_SLOTS,
  addDays,
  dayOfWeek,
  slotTo24h,
  zonedInstant,
} from "../../shared/business-time.js";
import type { AvailableDay } from "./bookings.constants.js";

/**
 * How long an inspection takes, by the home's size (bookings README "durations"): 2 hours up to 2,000 sq ft,
 * 3 hours up to 3,500, 4 hours above; a home of unknown size is planned at 3 hours.
 */
export function inspectionMinutes(squareFootage: number | null | undefined): number {
  if (!squareFootage || squareFootage <= 0) return 180;
  if (squareFootage <= 2000) return 120;
  if (squareFootage <= 3500) return 180;
  return 240;
}

export interface Range {
  start: number;
  end: number;
}

/** One inspector's calendar as read for a span of dates. */
export interface InspectorCalendar {
  id: number;
  name: string;
  /** Working hours by weekday (0 = Sunday), 'HH:MM' wall-clock times in the business zone. */
  hours: Map<number, { starts: string; ends: string }>;
  /** Time off and live bookings: the ranges in which this inspector is not free. */
  busy: (Range & { bookingId?: number })[];
}

/** The instants a booking holds: a clock slot for the inspection's length, a part of the day for its window. */
export function bookingRange(date: string, slot: string, minutes: number, timeZone: string): Range | null {
  const part = DAY_PARTS[slot as DayPart];
  if (part)
    return {
      start: zonedInstant(date, part.start, timeZone).getTime(),
      end: zonedInstant(date, part.end, timeZone).getTime(),
    };
  const start = slotTo24h(slot);
  if (!start) return null;
  const from = zonedInstant(date, start, timeZone).getTime();
  return { start: from, end: from + minutes * 60_000 };
}

const overlaps = (a: Range, b: Range) => a.start < b.end && b.start < a.end;

/** The instants an inspector works on that date (their hours of its weekday); null on a day they do not work. */
function workingHours(inspector: InspectorCalendar, date: string, timeZone: string): Range | null {
  const hours = inspector.hours.get(dayOfWeek(date));
  if (!hours) return null;
  return {
    start: zonedInstant(date, hours.starts, timeZone).getTime(),
    end: zonedInstant(date, hours.ends, timeZone).getTime(),
  };
}

/** Whether the range lies within the working hours and nothing of the inspector's overlaps it. */
function freeWithin(inspector: InspectorCalendar, working: Range | null, range: Range, ignoreBooking?: number) {
  if (!working || range.start < working.start || range.end > working.end) return false;
  // Time off has no bookingId: it always counts.
  return !inspector.busy.some(
    (b) => (b.bookingId === undefined || b.bookingId !== ignoreBooking) && overlaps(b, range),
  );
}

/** Whether the inspector works the whole range on that date and nothing of theirs overlaps it. */
export function isFree(
  inspector: InspectorCalendar,
  date: string,
  range: Range,
  timeZone: string,
  ignoreBooking?: number,
): boolean {
  return freeWithin(inspector, workingHours(inspector, date, timeZone), range, ignoreBooking);
}

/** Booked minutes of an inspector on the instants of [from, to): the load that assignment balances. */
export function loadIn(inspector: InspectorCalendar, window: Range): number {
  let minutes = 0;
  for (const b of inspector.busy)
    if (b.bookingId !== undefined && overlaps(b, window))
      minutes += (Math.min(b.end, window.end) - Math.max(b.start, window.start)) / 60_000;
  return minutes;
}

/**
 * The inspectors free for that range, least loaded first: fewest booked minutes that day, then that week
 * (Monday to Sunday), then the lowest id, so the same state always gives the same choice.
 */
export function freeInspectors(
  inspectors: InspectorCalendar[],
  date: string,
  range: Range,
  timeZone: string,
  ignoreBooking?: number,
): InspectorCalendar[] {
  const day = { start: zonedInstant(date, "00:00", timeZone).getTime(), end: 0 };
  day.end = zonedInstant(addDays(date, 1), "00:00", timeZone).getTime();
  const monday = addDays(date, -((dayOfWeek(date) + 6) % 7));
  const week = {
    start: zonedInstant(monday, "00:00", timeZone).getTime(),
    end: zonedInstant(addDays(monday, 7), "00:00", timeZone).getTime(),
  };
  return inspectors
    .filter((i) => isFree(i, date, range, timeZone, ignoreBooking))
    .map((i) => ({ i, day: loadIn(i, day), week: loadIn(i, week) }))
    .sort((a, b) => a.day - b.day || a.week - b.week || a.i.id - b.i.id)
    .map((x) => x.i);
}

/** Every date of [from, to] with the times and parts of the day at which some inspector is free. */
export function availableDays(
  inspectors: InspectorCalendar[],
  dates: string[],
  minutes: number,
  timeZone: string,
): AvailableDay[] {
  return dates.map((date) => {
    // Each inspector's hours once per date, not once per slot: the zone's arithmetic is most of this call's time,
    // and a burst of lost times asks for it once each (docs/decisions.md#46).
    const working = inspectors.map((i) => ({ i, hours: workingHours(i, date, timeZone) }));
    const freeFor = (slot: string) => {
      const range = bookingRange(date, slot, minutes, timeZone);
      return range !== null && working.some(({ i, hours }) => freeWithin(i, hours, range));
    };
    return { date, slots: TIME_SLOTS.filter(freeFor), parts: DAY_PART_VALUES.filter(freeFor) };
  });
}

/** The dates of [from, to], both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}
