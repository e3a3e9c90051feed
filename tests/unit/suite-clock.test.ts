import { afterEach, describe, expect, it } from "vitest";
import { todayIn } from "../../src/shared/business-time.js";
import {
  SUITE_TZ,
  parseSuiteNow,
  restoreSuiteTime,
  setSuiteTime,
  suiteClockIsFixed,
  suiteNow,
  suiteToday,
} from "../support/clock.js";

// The suite's clock (tests/support/clock.ts, docs/decisions.md#48): one setting moves "now" for the tests and for
// the app they run in the same process.
describe("the suite's clock", () => {
  afterEach(() => restoreSuiteTime());

  it("reads HAVEN_TEST_NOW as a date (noon in the business zone), a wall-clock time there, or an instant", () => {
    expect(parseSuiteNow("2026-11-28").toISOString()).toBe("2026-11-28T17:00:00.000Z");
    // 1:30 AM on the morning clocks fall back happens twice; zonedInstant takes the first (daylight) one.
    expect(parseSuiteNow("2026-11-01T01:30").toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(parseSuiteNow("2027-03-14T03:30").toISOString()).toBe("2027-03-14T07:30:00.000Z");
    expect(parseSuiteNow("2026-11-30T21:30").toISOString()).toBe("2026-12-01T02:30:00.000Z");
    expect(parseSuiteNow("2026-11-29T03:30:00Z").toISOString()).toBe("2026-11-29T03:30:00.000Z");
    expect(parseSuiteNow("2026-11-29T03:30:00-05:00").toISOString()).toBe("2026-11-29T08:30:00.000Z");
    for (const wrong of ["tomorrow", "2026-13-01", "2026-11-28T25:00", "1764350000000"]) {
      expect(() => parseSuiteNow(wrong), wrong).toThrow(/HAVEN_TEST_NOW=.* is not a time/);
    }
  });

  it("moves new Date() and Date.now() everywhere in the process, and lets them run on from there", () => {
    const at = parseSuiteNow("2026-12-31T23:58");
    setSuiteTime(at);
    expect(suiteClockIsFixed()).toBe(true);
    const now = new Date();
    expect(now.getTime() - at.getTime()).toBeGreaterThanOrEqual(0);
    expect(now.getTime() - at.getTime()).toBeLessThan(5_000);
    expect(Math.abs(Date.now() - now.getTime())).toBeLessThan(5_000);
    expect(Math.abs(suiteNow().getTime() - now.getTime())).toBeLessThan(5_000);
    // What reads "today" by default (the app's business-time helpers) and the suite agree.
    expect(todayIn(SUITE_TZ)).toBe("2026-12-31");
    expect(suiteToday()).toBe("2026-12-31");
    expect(suiteToday("UTC")).toBe("2027-01-01");
    // Dates given a value, and the checks libraries make, are the real Date's.
    const given = new Date("2027-03-14T07:00:00Z");
    expect(given.toISOString()).toBe("2027-03-14T07:00:00.000Z");
    expect(given).toBeInstanceOf(Date);
    expect(new Date(2027, 0, 1).getFullYear()).toBe(2027);
    expect(Object.prototype.toString.call(now)).toBe("[object Date]");
    expect(Date.UTC(2027, 0, 1)).toBe(1798761600000);
    expect(Date.parse("2027-01-01T00:00:00Z")).toBe(1798761600000);
    expect(Math.abs(Date.parse(Date()) - Date.now())).toBeLessThan(5_000);
  });

  it("goes back to the real clock", () => {
    setSuiteTime(parseSuiteNow("2027-03-14"));
    setSuiteTime(null);
    expect(suiteClockIsFixed()).toBe(false);
    expect(Math.abs(Date.now() - performance.timeOrigin - performance.now())).toBeLessThan(60_000);
  });
});
