import { describe, expect, it } from "vitest";
import {
  TIME_SLOTS,
  addDays,
  bookingDates,
  earliestInspectionDate,
  isIsoDate,
  isWeekday,
  longDate,
  slotLabel,
  slotTo24h,
  slotWindow,
  todayIn,
  zonedInstant,
} from "./business-time.js";

const TZ = "America/Toronto";
// Thursday 2026-01-08, 22:30 in Toronto, but already Friday in UTC.
const LATE_THURSDAY = new Date("2026-01-09T03:30:00Z");

describe("today in the business zone", () => {
  it("is the zone's date, not UTC's", () => {
    expect(todayIn(TZ, LATE_THURSDAY)).toBe("2026-01-08");
    expect(todayIn("UTC", LATE_THURSDAY)).toBe("2026-01-09");
    expect(todayIn("Asia/Tokyo", new Date("2026-01-08T16:00:00Z"))).toBe("2026-01-09");
  });

  it("puts the 4-day lead on the zone's today", () => {
    expect(earliestInspectionDate(TZ, LATE_THURSDAY)).toBe("2026-01-12");
    expect(earliestInspectionDate("UTC", LATE_THURSDAY)).toBe("2026-01-13");
  });
});

describe("the booking page's dates", () => {
  it("are the next 14 weekdays starting tomorrow", () => {
    const dates = bookingDates(TZ, LATE_THURSDAY);
    expect(dates).toEqual([
      "2026-01-09",
      "2026-01-12",
      "2026-01-13",
      "2026-01-14",
      "2026-01-15",
      "2026-01-16",
      "2026-01-19",
      "2026-01-20",
      "2026-01-21",
      "2026-01-22",
      "2026-01-23",
      "2026-01-26",
      "2026-01-27",
      "2026-01-28",
    ]);
    expect(dates.every(isWeekday)).toBe(true);
  });

  it("skip the weekend when today is Friday", () => {
    const friday = new Date("2026-01-09T15:00:00Z");
    expect(bookingDates(TZ, friday)[0]).toBe("2026-01-12");
  });
});

describe("slots", () => {
  it("run every 30 minutes from 8:00 AM to 8:00 PM inclusive", () => {
    expect(TIME_SLOTS).toHaveLength(25);
    expect(TIME_SLOTS[0]).toBe("8:00 AM");
    expect(TIME_SLOTS.slice(7, 10)).toEqual(["11:30 AM", "12:00 PM", "12:30 PM"]);
    expect(TIME_SLOTS.at(-1)).toBe("8:00 PM");
    expect(TIME_SLOTS.map(slotTo24h)).toEqual(
      Array.from({ length: 25 }, (_, i) => `${String(8 + Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`),
    );
  });

  it("give day parts their windows and labels", () => {
    expect(slotWindow("morning")).toEqual({ start: "08:00", minutes: 240 });
    expect(slotWindow("afternoon")).toEqual({ start: "12:00", minutes: 300 });
    expect(slotWindow("evening")).toEqual({ start: "17:00", minutes: 180 });
    expect(slotWindow("2:30 PM")).toEqual({ start: "14:30", minutes: 60 });
    expect(slotWindow("noon")).toBeNull();
    expect(slotLabel("evening")).toBe("Evening (5:00 PM - 8:00 PM)");
    expect(slotLabel("9:00 AM")).toBe("9:00 AM");
  });
});

describe("dates", () => {
  it("validates real calendar dates only", () => {
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2026-1-05")).toBe(false);
    expect(isIsoDate("tomorrow")).toBe(false);
  });

  it("adds days across months and years", () => {
    expect(addDays("2026-12-30", 4)).toBe("2027-01-03");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("turns business wall-clock time into the right instant across DST", () => {
    expect(zonedInstant("2026-03-07", "08:00", TZ).toISOString()).toBe("2026-03-07T13:00:00.000Z");
    expect(zonedInstant("2026-03-08", "08:00", TZ).toISOString()).toBe("2026-03-08T12:00:00.000Z");
    expect(zonedInstant("2026-07-01", "20:00", TZ).toISOString()).toBe("2026-07-02T00:00:00.000Z");
  });

  it("reads a date the long way", () => {
    expect(longDate("2026-01-12")).toBe("Monday, January 12, 2026");
  });
});
