import { describe, expect, it } from "vitest";
import {
  minutesOf,
  monthLabel,
  monthWeeks,
  shiftDate,
  shiftDateByMonths,
  shiftMonth,
  weekEnd,
  weekStart,
} from "./month-grid";

describe("the month grid", () => {
  it("covers whole weeks, Sunday first, from before the 1st to after the last day", () => {
    const weeks = monthWeeks("2026-11");
    expect(weeks[0]![0]).toBe("2026-11-01"); // Nov 1, 2026 is a Sunday
    expect(weeks.at(-1)!.at(-1)).toBe("2026-12-05");
    expect(weeks).toHaveLength(5);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    const feb = monthWeeks("2026-02"); // starts on a Sunday, 28 days: exactly four weeks
    expect(feb).toHaveLength(4);
    const march = monthWeeks("2026-03"); // the clocks change on March 8: no day lost or doubled
    expect(march.flat()).toContain("2026-03-08");
    expect(new Set(march.flat()).size).toBe(march.flat().length);
  });

  it("moves by days, weeks and months across year ends, and clamps to month ends", () => {
    expect(shiftDate("2026-12-31", 1)).toBe("2027-01-01");
    expect(shiftDate("2026-03-08", -7)).toBe("2026-03-01");
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
    expect(weekStart("2026-11-25")).toBe("2026-11-22");
    expect(weekEnd("2026-11-25")).toBe("2026-11-28");
    expect(monthLabel("2026-11")).toBe("November 2026");
    expect(shiftDateByMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(shiftDateByMonths("2026-03-31", -1)).toBe("2026-02-28");
    expect(shiftDateByMonths("2028-01-31", 1)).toBe("2028-02-29");
    expect(shiftDateByMonths("2026-01-31", -13)).toBe("2024-12-31");
    expect(shiftMonth("2026-03", -15)).toBe("2024-12");
    expect(monthWeeks("2028-02").at(-1)!.at(-1)).toBe("2028-03-04"); // a leap February ends on a Tuesday
  });

  it("orders clock times", () => {
    expect(minutesOf("10:00 AM")).toBe(600);
    expect(minutesOf("12:30 PM")).toBe(750);
    expect(minutesOf("12:00 AM")).toBe(0);
    expect(minutesOf("morning")).toBe(540);
  });
});
