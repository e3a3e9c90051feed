import { describe, expect, it } from "vitest";
import {
  type InspectorCalendar,
  availableDays,
  bookingRange,
  freeInspectors,
  inspectionMinutes,
} from "./availability.js";
import { parseWeekdays } from "./inspectors.service.js";

const TZ = "America/Toronto";
const at = (date: string, hhmm: string) => {
  const range = bookingRange(date, hhmm, 0, TZ);
  return range!.start;
};
const everyDay = (starts: string, ends: string) => new Map(Array.from({ length: 7 }, (_, d) => [d, { starts, ends }]));

describe("inspectors' availability (docs/decisions.md#37)", () => {
  it("plans an inspection by the home's size", () => {
    expect([100, 2000, 2001, 3500, 3501, 0, null].map(inspectionMinutes)).toEqual([120, 120, 180, 180, 240, 180, 180]);
  });

  it("holds a clock slot for its length and a part of the day for its window, across a DST change", () => {
    // 1 November 2026: clocks go back in Toronto at 2:00 AM; 8:00 AM is 13:00 UTC that day, 12:00 UTC the day before.
    expect(new Date(bookingRange("2026-11-01", "8:00 AM", 120, TZ)!.start).toISOString()).toBe(
      "2026-11-01T13:00:00.000Z",
    );
    expect(new Date(bookingRange("2026-10-31", "8:00 AM", 120, TZ)!.start).toISOString()).toBe(
      "2026-10-31T12:00:00.000Z",
    );
    const morning = bookingRange("2026-11-02", "morning", 120, TZ)!;
    expect((morning.end - morning.start) / 3_600_000).toBe(4);
    expect(bookingRange("2026-11-02", "noon-ish", 120, TZ)).toBeNull();
  });

  it("reads weekdays as lists and ranges, wrapping the week", () => {
    expect(parseWeekdays("mon-fri")).toEqual([1, 2, 3, 4, 5]);
    expect(parseWeekdays("sat,sun")).toEqual([0, 6]);
    expect(parseWeekdays("fri-mon")).toEqual([0, 1, 5, 6]);
    expect(() => parseWeekdays("funday")).toThrow(/Weekday must be/);
  });

  it("offers a time when some inspector works it whole and nothing overlaps, and picks the least loaded", () => {
    const date = "2026-12-01";
    const a: InspectorCalendar = {
      id: 1,
      name: "A",
      hours: everyDay("08:00", "12:00"),
      busy: [{ start: at(date, "8:00 AM"), end: at(date, "10:00 AM"), bookingId: 10 }],
    };
    const b: InspectorCalendar = { id: 2, name: "B", hours: everyDay("09:00", "13:00"), busy: [] };
    const [day] = availableDays([a, b], [date], 120, TZ);
    expect(day!.slots).toEqual(["9:00 AM", "9:30 AM", "10:00 AM", "10:30 AM", "11:00 AM"]);
    expect(day!.parts).toEqual([]);
    const ten = bookingRange(date, "10:00 AM", 120, TZ)!;
    // Both free at 10:00: B has nothing booked that day.
    expect(freeInspectors([a, b], date, ten, TZ).map((i) => i.id)).toEqual([2, 1]);
    // A's own booking does not stand in the way of moving it.
    const eight = bookingRange(date, "8:00 AM", 120, TZ)!;
    expect(freeInspectors([a, b], date, eight, TZ, 10).map((i) => i.id)).toEqual([1]);
    expect(freeInspectors([a, b], date, eight, TZ).map((i) => i.id)).toEqual([]);
  });
});
