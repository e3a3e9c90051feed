// The suite's one clock (docs/decisions.md#48). Every test that depends on today reads it here (suiteNow,
// suiteToday), and the app under test reads the same time: HAVEN_TEST_NOW fixes it for the run, and then
// `new Date()` and `Date.now()` in the test process (the app's services, routes and the test itself) start from
// that instant and run on at the real pace; browser contexts get it too (tests/support/browser.ts). Unset, it is
// the real now and nothing is replaced. Postgres keeps the real clock: tests/README.md says what that leaves out.
import { isIsoDate, todayIn, zonedInstant } from "../../src/shared/business-time.js";

/** The business zone the tests' apps run in unless a test sets BUSINESS_TZ (src/config/env.ts's default). */
export const SUITE_TZ = "America/Toronto";

// The real Date, kept on globalThis: a browser worker loads this module once per test file (isolate: false)
// and must never take a Date it replaced itself for the real one.
const NATIVE = Symbol.for("haven.tests.nativeDate");
const OFFSET = Symbol.for("haven.tests.clockOffset");
const held = globalThis as { [NATIVE]?: DateConstructor; [OFFSET]?: number };
const NativeDate: DateConstructor = held[NATIVE] ?? Date;
held[NATIVE] = NativeDate;

const offset = () => held[OFFSET] ?? 0;

const LOCAL = /^(\d{4}-\d{2}-\d{2})(?:[T ]([01]\d|2[0-3]):([0-5]\d))?$/;

/**
 * An instant from HAVEN_TEST_NOW's spelling: a date ('2026-11-28': noon in the business zone), a wall-clock time
 * in the business zone ('2026-11-01T01:30'), or an ISO instant with its zone ('2026-11-29T03:30:00Z').
 */
export function parseSuiteNow(value: string, timeZone = SUITE_TZ): Date {
  const text = value.trim();
  const local = LOCAL.exec(text);
  let instant: Date | null = null;
  if (local) {
    if (isIsoDate(local[1]!))
      instant = zonedInstant(local[1]!, local[2] ? `${local[2]}:${local[3]}` : "12:00", timeZone);
  } else if (/(?:Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    instant = new NativeDate(text);
  }
  if (!instant || Number.isNaN(instant.getTime())) {
    throw new Error(
      `HAVEN_TEST_NOW="${value}" is not a time: write 2026-11-28 (noon, ${timeZone}), 2026-11-28T22:30 (${timeZone}) or an ISO instant such as 2026-11-29T03:30:00Z`,
    );
  }
  return instant;
}

/** A Date whose now is the suite's: the real Date for everything given arguments, and for instanceof. */
function suiteDate(): DateConstructor {
  function SuiteDate(this: unknown, ...args: unknown[]) {
    const now = NativeDate.now() + offset();
    if (!new.target) return new NativeDate(now).toString();
    return Reflect.construct(NativeDate, args.length ? args : [now], new.target);
  }
  Object.setPrototypeOf(SuiteDate, NativeDate);
  SuiteDate.prototype = NativeDate.prototype;
  SuiteDate.now = () => NativeDate.now() + offset();
  return SuiteDate as unknown as DateConstructor;
}

/**
 * Moves the suite's clock to `instant` (it runs on from there), or back to the real now with null. Only
 * tests/support/clock-setup.ts (from HAVEN_TEST_NOW) and a file that runs its scenarios at several dates call it;
 * such a file puts the setting back after itself (restoreSuiteTime).
 */
export function setSuiteTime(instant: Date | null): void {
  if (!instant) {
    held[OFFSET] = 0;
    globalThis.Date = NativeDate;
    return;
  }
  held[OFFSET] = instant.getTime() - NativeDate.now();
  if (globalThis.Date === NativeDate) globalThis.Date = suiteDate();
}

/** The instant HAVEN_TEST_NOW sets, or null for the real now. */
function settingTime(): Date | null {
  const value = process.env.HAVEN_TEST_NOW;
  return value?.trim() ? parseSuiteNow(value) : null;
}

/** Back to what HAVEN_TEST_NOW says. */
export const restoreSuiteTime = () => setSuiteTime(settingTime());

/** True when the suite's clock is not the real one (HAVEN_TEST_NOW, or a file's own dates). */
export const suiteClockIsFixed = () => offset() !== 0;

/** Now, on the suite's clock. */
export const suiteNow = (): Date => new NativeDate(NativeDate.now() + offset());

/** Today (YYYY-MM-DD) in the business zone, on the suite's clock. */
export const suiteToday = (timeZone = SUITE_TZ): string => todayIn(timeZone, suiteNow());

/**
 * The dates the date-sensitive scenarios run at (tests/api/fixed-dates.test.ts), besides today: HAVEN_TEST_NOW
 * spellings, in the business zone. Haven keeps no holiday list, so the holiday is only the calendar's: New Year's.
 * One a day: the scenarios share one database and one inspector, so two on one day would take each other's times.
 */
export const SUITE_DATES = [
  { label: "a Saturday", at: "2026-11-28" },
  { label: "a Sunday", at: "2026-11-29" },
  { label: "a month's end, in the evening (the UTC date is already the 1st)", at: "2026-11-30T21:30" },
  { label: "the day before a holiday (New Year's Day), a year's end", at: "2026-12-31" },
  { label: "the Friday before clocks fall back (the offered dates span the change)", at: "2026-10-30" },
  { label: "the hour that repeats when clocks fall back", at: "2026-11-01T01:30" },
  { label: "the Friday before clocks spring forward (the offered dates span the change)", at: "2027-03-12" },
  { label: "the hour after clocks spring forward", at: "2027-03-14T03:30" },
] as const;
