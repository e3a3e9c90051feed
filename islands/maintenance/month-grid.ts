// The calendar's month grid in plain Date arithmetic (date-fns cost its page about 0.6 KB gzip; docs/decisions.md#79).
// Dates are 'YYYY-MM-DD' strings, handled as local noon so no daylight-saving change can move a day.

const toDate = (date: string) =>
  new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10) || "1"), 12);
const pad = (n: number) => String(n).padStart(2, "0");
export const isoOf = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** Day 0 of a month is the last day of the month before; Date rolls days and months over into the next ones. */
const dayOf = (year: number, month: number, day: number) => new Date(year, month, day, 12);
const addDays = (d: Date, days: number) => dayOf(d.getFullYear(), d.getMonth(), d.getDate() + days);
const addMonths = (d: Date, months: number) =>
  dayOf(
    d.getFullYear(),
    d.getMonth() + months,
    Math.min(d.getDate(), dayOf(d.getFullYear(), d.getMonth() + months + 1, 0).getDate()),
  );
const startOfWeek = (d: Date) => addDays(d, -d.getDay());
const endOfWeek = (d: Date) => addDays(d, 6 - d.getDay());

export const monthOf = (date: string) => date.slice(0, 7);
export const shiftDate = (date: string, days: number) => isoOf(addDays(toDate(date), days));
/** The same day n months away; the 31st lands on a shorter month's last day. */
export const shiftDateByMonths = (date: string, months: number) => isoOf(addMonths(toDate(date), months));
export const shiftMonth = (month: string, months: number) => monthOf(isoOf(addMonths(toDate(`${month}-01`), months)));

/** The weeks shown for a month, Sunday first: every day from the Sunday before the 1st to the Saturday after the last. */
export function monthWeeks(month: string): string[][] {
  const start = toDate(`${month}-01`);
  const first = startOfWeek(start);
  const last = endOfWeek(dayOf(start.getFullYear(), start.getMonth() + 1, 0));
  const weeks: string[][] = [];
  for (let day = first; day <= last; day = addDays(day, 7))
    weeks.push(Array.from({ length: 7 }, (_, i) => isoOf(addDays(day, i))));
  return weeks;
}

/** The same day of the week in the week's first (Sunday) or last (Saturday) position. */
export const weekStart = (date: string) => isoOf(startOfWeek(toDate(date)));
export const weekEnd = (date: string) => isoOf(endOfWeek(toDate(date)));

const format = (date: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat("en-US", options).format(toDate(date));
export const monthLabel = (month: string) => format(`${month}-01`, { month: "long", year: "numeric" });
export const longDateLabel = (date: string) =>
  format(date, { weekday: "long", month: "long", day: "numeric", year: "numeric" });
export const shortDateLabel = (date: string) => format(date, { weekday: "short", month: "short", day: "numeric" });
export const WEEKDAYS = [
  ["Sun", "Sunday"],
  ["Mon", "Monday"],
  ["Tue", "Tuesday"],
  ["Wed", "Wednesday"],
  ["Thu", "Thursday"],
  ["Fri", "Friday"],
  ["Sat", "Saturday"],
] as const;

/** Minutes after midnight of '10:00 AM' (for ordering a day's items); unknown times sort at 09:00. */
export function minutesOf(time: string): number {
  const m = /^(\d{1,2}):(\d{2})\s*(AM|PM)?$/i.exec(time.trim());
  if (!m) return 9 * 60;
  let hour = Number(m[1]);
  if (m[3]) hour = (hour % 12) + (m[3].toUpperCase() === "PM" ? 12 : 0);
  return hour * 60 + Number(m[2]);
}
