import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLAN_SERVICES } from "../plans/index.js";
import {
  clockOf,
  firstOccurrences,
  firstRuleOccurrence,
  isRRule,
  nextRuleOccurrence,
  occurrenceInstant,
  occurrencesBetween,
} from "./recurrence.js";

describe("recurrence: always counted from the start date", () => {
  it("a monthly schedule on the 31st falls on each month's last day and comes back to the 31st", () => {
    expect(firstOccurrences({ startDate: "2026-01-31", recurrenceType: "monthly", recurrenceInterval: 1 }, 7)).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
      "2026-05-31",
      "2026-06-30",
      "2026-07-31",
    ]);
  });

  it("in a leap year February's last day is the 29th", () => {
    expect(firstOccurrences({ startDate: "2028-01-31", recurrenceType: "monthly", recurrenceInterval: 1 }, 3)).toEqual([
      "2028-01-31",
      "2028-02-29",
      "2028-03-31",
    ]);
  });

  it("a yearly schedule on Feb 29 falls on Feb 28 in common years and Feb 29 in leap years", () => {
    expect(firstOccurrences({ startDate: "2024-02-29", recurrenceType: "annually", recurrenceInterval: 1 }, 5)).toEqual(
      ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"],
    );
  });

  it("quarterly on Nov 30 keeps to the 30th, or the last day when the month is shorter", () => {
    expect(
      firstOccurrences({ startDate: "2025-11-30", recurrenceType: "quarterly", recurrenceInterval: 1 }, 4),
    ).toEqual(["2025-11-30", "2026-02-28", "2026-05-30", "2026-08-30"]);
  });

  it("daily and weekly steps honour the interval across month and year ends", () => {
    expect(firstOccurrences({ startDate: "2026-12-30", recurrenceType: "daily", recurrenceInterval: 2 }, 3)).toEqual([
      "2026-12-30",
      "2027-01-01",
      "2027-01-03",
    ]);
    expect(firstOccurrences({ startDate: "2026-12-24", recurrenceType: "weekly", recurrenceInterval: 1 }, 3)).toEqual([
      "2026-12-24",
      "2026-12-31",
      "2027-01-07",
    ]);
  });

  it("a window gives only the occurrences inside it, never before the start", () => {
    const rule = { startDate: "2026-01-31", recurrenceType: "monthly" as const, recurrenceInterval: 2 };
    expect(occurrencesBetween(rule, "2026-05-01", "2026-12-31")).toEqual([
      "2026-05-31",
      "2026-07-31",
      "2026-09-30",
      "2026-11-30",
    ]);
    expect(occurrencesBetween(rule, "2025-01-01", "2026-04-01")).toEqual(["2026-01-31", "2026-03-31"]);
    expect(occurrencesBetween(rule, "2026-12-01", "2026-11-01")).toEqual([]);
  });

  it("a window far from the start skips ahead to exactly the same dates as counting from the start", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date("2020-01-01T12:00:00Z"), max: new Date("2030-12-31T12:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("daily", "weekly", "monthly", "quarterly", "annually" as const),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 0, max: 2000 }),
        (start, type, interval, offset) => {
          const startDate = start.toISOString().slice(0, 10);
          const rule = { startDate, recurrenceType: type, recurrenceInterval: interval };
          const all = firstOccurrences(rule, 400);
          const from = all[Math.min(offset, 399)]!;
          const through = all[399]!;
          expect(occurrencesBetween(rule, from, through)).toEqual(all.slice(all.indexOf(from)));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("wall-clock times in America/Toronto across daylight-saving changes", () => {
  const tz = "America/Toronto";

  it("a weekly 10:00 AM task stays at 10:00 local when the clocks spring forward and fall back", () => {
    const spring = occurrencesBetween(
      { startDate: "2026-03-01", recurrenceType: "weekly", recurrenceInterval: 1 },
      "2026-03-01",
      "2026-03-15",
    );
    expect(spring).toEqual(["2026-03-01", "2026-03-08", "2026-03-15"]);
    // EST (UTC-5) before March 8, EDT (UTC-4) from it: the instant moves, the local time does not.
    expect(spring.map((d) => occurrenceInstant(d, "10:00 AM", tz).toISOString())).toEqual([
      "2026-03-01T15:00:00.000Z",
      "2026-03-08T14:00:00.000Z",
      "2026-03-15T14:00:00.000Z",
    ]);
    const fall = occurrencesBetween(
      { startDate: "2026-10-25", recurrenceType: "weekly", recurrenceInterval: 1 },
      "2026-10-25",
      "2026-11-08",
    );
    expect(fall.map((d) => occurrenceInstant(d, "10:00 AM", tz).toISOString())).toEqual([
      "2026-10-25T14:00:00.000Z",
      "2026-11-01T15:00:00.000Z",
      "2026-11-08T15:00:00.000Z",
    ]);
    for (const date of [...spring, ...fall]) {
      const local = new Intl.DateTimeFormat("en-CA", {
        timeZone: tz,
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(occurrenceInstant(date, "10:00 AM", tz));
      expect(local).toBe("10:00");
    }
  });

  it("a daily schedule gives one task per calendar day through both changes (no day lost or doubled)", () => {
    expect(
      occurrencesBetween(
        { startDate: "2026-03-07", recurrenceType: "daily", recurrenceInterval: 1 },
        "2026-03-07",
        "2026-03-09",
      ),
    ).toEqual(["2026-03-07", "2026-03-08", "2026-03-09"]);
    expect(
      occurrencesBetween(
        { startDate: "2026-10-31", recurrenceType: "daily", recurrenceInterval: 1 },
        "2026-10-31",
        "2026-11-02",
      ),
    ).toEqual(["2026-10-31", "2026-11-01", "2026-11-02"]);
  });

  it("reads the spec's clock times", () => {
    expect(clockOf("10:00 AM")).toEqual([10, 0]);
    expect(clockOf("09:00 AM")).toEqual([9, 0]);
    expect(clockOf("12:30 PM")).toEqual([12, 30]);
    expect(clockOf("12:15 AM")).toEqual([0, 15]);
    expect(clockOf("14:45")).toEqual([14, 45]);
    expect(clockOf("morning")).toEqual([10, 0]);
    expect(clockOf(null)).toEqual([10, 0]);
  });
});

describe("recurrence: RFC 5545 rules of the plan services (docs/decisions.md#26)", () => {
  const rule = (key: string) => PLAN_SERVICES.find((s) => s.key === key)!.rrule!;

  it("snow removal started on Dec 20 is weekly from that day through March, and nothing from April to November", () => {
    expect(firstRuleOccurrence(rule("snow-removal"), "2026-12-20")).toBe("2026-12-20");
    const season = occurrencesBetween(
      { startDate: "2026-12-20", recurrenceType: "weekly", recurrenceInterval: 1, rrule: rule("snow-removal") },
      "2026-12-01",
      "2027-12-31",
    );
    expect(season.slice(0, 3)).toEqual(["2026-12-20", "2026-12-27", "2027-01-03"]);
    expect(season.filter((d) => d.slice(5, 7) >= "04" && d.slice(5, 7) <= "11")).toEqual([]);
    expect(season.filter((d) => d < "2027-04-01").at(-1)).toBe("2027-03-28");
    // Every visit on a Sunday, the weekday of the first one, and the season comes back in December.
    expect(season.every((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(season.find((d) => d > "2027-04-01")).toBe("2027-12-05");
  });

  it("window cleaning started on Oct 31 waits for May 15, then Oct 15", () => {
    expect(firstRuleOccurrence(rule("window-cleaning"), "2026-10-31")).toBe("2027-05-15");
    expect(
      occurrencesBetween(
        { startDate: "2027-05-15", recurrenceType: "annually", recurrenceInterval: 1, rrule: rule("window-cleaning") },
        "2026-10-31",
        "2028-06-01",
      ),
    ).toEqual(["2027-05-15", "2027-10-15", "2028-05-15"]);
    // Started on the day itself, that day is the first visit.
    expect(firstRuleOccurrence(rule("window-cleaning"), "2026-10-15")).toBe("2026-10-15");
  });

  it("lawn care is every other week from May to October, on the weekday of the first visit", () => {
    const first = firstRuleOccurrence(rule("lawn-maintenance"), "2026-12-20")!; // a Sunday
    expect(first.slice(0, 7)).toBe("2027-05");
    const visits = occurrencesBetween(
      { startDate: first, recurrenceType: "weekly", recurrenceInterval: 2, rrule: rule("lawn-maintenance") },
      first,
      "2027-12-31",
    );
    expect(visits.every((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 0)).toBe(true);
    expect(visits.every((d) => d.slice(5, 7) >= "05" && d.slice(5, 7) <= "10")).toBe(true);
    for (let i = 1; i < visits.length; i++)
      expect((Date.parse(visits[i]!) - Date.parse(visits[i - 1]!)) / 86_400_000).toBe(14);
    expect(visits.length).toBeGreaterThanOrEqual(12);
  });

  it("HVAC has two schedules (May and September), gutters June and November, absentee care every month", () => {
    expect(firstRuleOccurrence(rule("hvac-maintenance/air-conditioning"), "2026-06-02")).toBe("2027-05-01");
    expect(firstRuleOccurrence(rule("hvac-maintenance/furnace"), "2026-06-02")).toBe("2026-09-01");
    expect(firstRuleOccurrence(rule("gutter-cleaning"), "2026-06-16")).toBe("2026-11-15");
    expect(
      occurrencesBetween(
        { startDate: "2026-12-01", recurrenceType: "monthly", recurrenceInterval: 1, rrule: rule("absentee-care") },
        "2026-11-01",
        "2027-03-31",
      ),
    ).toEqual(["2026-12-01", "2027-01-01", "2027-02-01", "2027-03-01"]);
    expect(nextRuleOccurrence(rule("window-cleaning"), "2027-05-15", "2027-05-16")).toBe("2027-10-15");
  });

  it("dates stay the same whatever the server's zone (floating dates)", () => {
    // The process zone is the test runner's; the rule is evaluated on UTC parts, so a date never shifts.
    const before = process.env.TZ;
    try {
      for (const zone of ["Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Toronto"]) {
        process.env.TZ = zone;
        expect(firstRuleOccurrence(rule("window-cleaning"), "2026-10-31")).toBe("2027-05-15");
        expect(firstRuleOccurrence(rule("snow-removal"), "2026-12-20")).toBe("2026-12-20");
      }
    } finally {
      process.env.TZ = before;
    }
  });

  it("every catalog rule is a rule the library reads, and on-request services have none", () => {
    for (const service of PLAN_SERVICES) {
      if (service.cadence === "on-request") expect(service.rrule).toBeNull();
      else expect(isRRule(service.rrule!)).toBe(true);
    }
  });
});
