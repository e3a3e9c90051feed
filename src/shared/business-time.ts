// Business calendar (docs/decisions.md#10). Pure functions of a zone and an instant, so the
// server, the islands and the tests share them. Dates are 'YYYY-MM-DD' strings throughout.

/** Minimum lead time of an inspection (customer-side §9). */
export const LEAD_DAYS = 4;
/** How many weekdays the booking page offers (customer-side §5). */
export const BOOKING_WEEKDAYS = 14;
/** How far ahead the wizard and onboarding accept a date: a sanity bound, the spec sets none. */
export const MAX_DAYS_AHEAD = 365;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written 'YYYY-MM-DD'. */
export function isIsoDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

const toUtcDate = (date: string) => new Date(`${date}T00:00:00Z`);

export function addDays(date: string, days: number): string {
  const d = toUtcDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday. */
export const dayOfWeek = (date: string) => toUtcDate(date).getUTCDay();
export const isWeekday = (date: string) => dayOfWeek(date) >= 1 && dayOfWeek(date) <= 5;

// One formatter per zone: making an Intl.DateTimeFormat costs far more than using one (demo renewals and
// calendar pages ask thousands of times).
const partFormats = new Map<string, Intl.DateTimeFormat>();

type Parts = { year: number; month: number; day: number; hour: number; minute: number; second: number };
// The last instants asked, by zone: a demo renewal asks the same few instants (its periods' bounds) many times over,
// and formatToParts costs more than a renewal's other arithmetic (docs/decisions.md#77).
const recentParts = new Map<string, Parts>();
const RECENT_PARTS = 1000;

/** The wall-clock parts of an instant in a zone. */
function zonedParts(instant: Date, timeZone: string): Parts {
  const key = `${timeZone}|${instant.getTime()}`;
  const known = recentParts.get(key);
  if (known) return known;
  if (recentParts.size >= RECENT_PARTS) recentParts.clear();
  const parts = formatParts(instant, timeZone);
  recentParts.set(key, parts);
  return parts;
}

function formatParts(instant: Date, timeZone: string): Parts {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** Today's date in the business zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const p = zonedParts(now, timeZone);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

/** The earliest date an inspection may be booked for: today + 4 days. */
export const earliestInspectionDate = (timeZone: string, now: Date = new Date()) =>
  addDays(todayIn(timeZone, now), LEAD_DAYS);
export const latestInspectionDate = (timeZone: string, now: Date = new Date()) =>
  addDays(todayIn(timeZone, now), MAX_DAYS_AHEAD);

/** The next 14 weekdays, Monday to Friday, starting tomorrow. */
export function bookingDates(timeZone: string, now: Date = new Date()): string[] {
  const dates: string[] = [];
  let date = todayIn(timeZone, now);
  while (dates.length < BOOKING_WEEKDAYS) {
    date = addDays(date, 1);
    if (isWeekday(date)) dates.push(date);
  }
  return dates;
}

/** The wizard's slots: every 30 minutes from 8:00 AM to 8:00 PM inclusive (customer-side §3). */
export const TIME_SLOTS: readonly string[] = Array.from({ length: 25 }, (_, i) => {
  const minutes = 8 * 60 + i * 30;
  const hour24 = Math.floor(minutes / 60);
  const hour12 = hour24 > 12 ? hour24 - 12 : hour24;
  return `${hour12}:${String(minutes % 60).padStart(2, "0")} ${hour24 >= 12 ? "PM" : "AM"}`;
});

/** The booking page's and onboarding's parts of the day (customer-side §3 and §5). */
export const DAY_PARTS = {
  morning: { label: "Morning", range: "8:00 AM - 12:00 PM", start: "08:00", end: "12:00" },
  afternoon: { label: "Afternoon", range: "12:00 PM - 5:00 PM", start: "12:00", end: "17:00" },
  evening: { label: "Evening", range: "5:00 PM - 8:00 PM", start: "17:00", end: "20:00" },
} as const;
export type DayPart = keyof typeof DAY_PARTS;
export const DAY_PART_VALUES = Object.keys(DAY_PARTS) as [DayPart, ...DayPart[]];

/** '8:30 PM' → '20:30'; null when it is not a clock time. */
export function slotTo24h(slot: string): string | null {
  const m = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot);
  if (!m) return null;
  let hour = Number(m[1]) % 12;
  if (m[3] === "PM") hour += 12;
  return `${String(hour).padStart(2, "0")}:${m[2]}`;
}

/** A slot as people read it: '8:30 AM' as is, 'morning' as 'Morning (8:00 AM - 12:00 PM)'. */
export function slotLabel(slot: string): string {
  const part = DAY_PARTS[slot as DayPart];
  return part ? `${part.label} (${part.range})` : slot;
}

/** '08:00' → '8 AM', '12:30' → '12:30 PM': an hour on the hour without its minutes. */
function clockShort(hhmm: string): { text: string; meridiem: "AM" | "PM" } {
  const hour24 = Number(hhmm.slice(0, 2));
  const minutes = hhmm.slice(3, 5);
  const meridiem = hour24 >= 12 ? "PM" : "AM";
  const hour12 = hour24 % 12 || 12;
  return { text: minutes === "00" ? String(hour12) : `${hour12}:${minutes}`, meridiem };
}

/** A window as a calendar shows it: '08:00'–'12:00' → '8 AM–12 PM', '12:00'–'17:00' → '12–5 PM'. */
export function windowLabel(start: string, end: string): string {
  const a = clockShort(start);
  const b = clockShort(end);
  return a.meridiem === b.meridiem
    ? `${a.text}–${b.text} ${b.meridiem}`
    : `${a.text} ${a.meridiem}–${b.text} ${b.meridiem}`;
}

/**
 * A slot as the calendar shows it where room is short: a clock slot as its time ('09:30 AM' → '9:30 AM'), a part
 * of the day as its window ('afternoon' → '12–5 PM'), never as a time it does not hold. Anything else as it is.
 */
export function slotShortLabel(slot: string): string {
  const part = DAY_PARTS[slot as DayPart];
  if (part) return windowLabel(part.start, part.end);
  const clock = slotTo24h(slot.trim());
  return clock ? slot.trim().replace(/^0/, "") : slot;
}

/** Where a slot starts in the day, in minutes (a part of the day at its window's start); null when unknown. */
export function slotStartMinutes(slot: string): number | null {
  const part = DAY_PARTS[slot as DayPart];
  const start = part ? part.start : slotTo24h(slot.trim());
  return start ? Number(start.slice(0, 2)) * 60 + Number(start.slice(3, 5)) : null;
}

/**
 * The window a plan visit (window cleaning, lawn care…) is planned in until someone sets its time: the working
 * day. Plan visits are scheduled by the day, so the calendar shows this window rather than a made-up hour.
 */
export const PLAN_VISIT_WINDOW = { label: "Daytime", start: "08:00", end: "17:00" } as const;

/** Start and length of a booked slot: a clock slot lasts the 60-minute inspection, a day part its window. */
export function slotWindow(slot: string): { start: string; minutes: number } | null {
  const part = DAY_PARTS[slot as DayPart];
  if (part) {
    const toMin = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    return { start: part.start, minutes: toMin(part.end) - toMin(part.start) };
  }
  const start = slotTo24h(slot);
  return start ? { start, minutes: 60 } : null;
}

// The instants already worked out: a calendar asks for the same few thousand (every slot of the days it offers)
// again and again, and each costs two formatToParts. A pure function of its arguments; cleared when it grows large.
const instants = new Map<string, number>();

/** The instant at which the wall-clock time `date hh:mm` happens in the zone (DST-aware). */
export function zonedInstant(date: string, hhmm: string, timeZone: string): Date {
  const key = `${timeZone} ${date} ${hhmm}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  const instant = computeZonedInstant(date, hhmm, timeZone);
  if (instants.size >= 20_000) instants.clear();
  instants.set(key, instant);
  return new Date(instant);
}

/** Midnight of a business date, as an instant. */
export const startOfBusinessDay = (date: string, timeZone: string): Date => zonedInstant(date, "00:00", timeZone);

function computeZonedInstant(date: string, hhmm: string, timeZone: string): number {
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  const [h, mi] = hhmm.split(":").map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // Guess with the zone's offset at the wall time, then correct once across a DST change.
  const offsetAt = (instant: number) => {
    const p = zonedParts(new Date(instant), timeZone);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - instant;
  };
  const guess = wall - offsetAt(wall);
  return wall - offsetAt(guess);
}

/** 'Monday, January 12, 2026' for a 'YYYY-MM-DD' date (no zone: a date is a date). */
export function longDate(date: string): string {
  if (!isIsoDate(date)) return date;
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
  }).format(toUtcDate(date));
}

/** 'Mon, Jan 12' for the booking page's date buttons. */
export function shortDate(date: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric" }).format(
    toUtcDate(date),
  );
}

/** A calendar month ('YYYY-MM') in the zone, as the instants [from, to) it spans (DST-aware). */
export function monthSpan(month: string, timeZone: string): { from: Date; to: Date } {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const next = m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, "0")}`;
  return { from: zonedInstant(`${month}-01`, "00:00", timeZone), to: zonedInstant(`${next}-01`, "00:00", timeZone) };
}

/**
 * An en-CA date and time format that writes times in the one style every page uses, the spec's "2:00 PM"
 * (docs/decisions.md#60); Intl's en-CA writes "2:00 p.m.".
 */
export function clockFormat(options: Intl.DateTimeFormatOptions): { format(instant: Date): string } {
  const format = new Intl.DateTimeFormat("en-CA", options);
  return {
    format: (instant) => format.format(instant).replace(/\b([ap])\.m\./g, (_, l: string) => `${l.toUpperCase()}M`),
  };
}
