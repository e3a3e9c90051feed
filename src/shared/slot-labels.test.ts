import { describe, expect, it } from "vitest";
import { PLAN_VISIT_WINDOW, slotLabel, slotShortLabel, slotStartMinutes, windowLabel } from "./business-time.js";

describe("slots as booked", () => {
  it("a part of the day shows as its window, never as a time it does not hold", () => {
    expect(slotShortLabel("morning")).toBe("8 AM–12 PM");
    expect(slotShortLabel("afternoon")).toBe("12–5 PM");
    expect(slotShortLabel("evening")).toBe("5–8 PM");
    expect(slotLabel("afternoon")).toBe("Afternoon (12:00 PM - 5:00 PM)");
  });

  it("an exact time shows as that time", () => {
    expect(slotShortLabel("10:30 AM")).toBe("10:30 AM");
    expect(slotShortLabel("09:00 AM")).toBe("9:00 AM");
    expect(slotLabel("2:00 PM")).toBe("2:00 PM");
  });

  it("orders a day by where each slot starts", () => {
    expect(slotStartMinutes("morning")).toBe(480);
    expect(slotStartMinutes("afternoon")).toBe(720);
    expect(slotStartMinutes("8:30 PM")).toBe(20 * 60 + 30);
    expect(slotStartMinutes("whenever")).toBeNull();
  });

  it("writes windows short, with minutes only when they are not on the hour", () => {
    expect(windowLabel(PLAN_VISIT_WINDOW.start, PLAN_VISIT_WINDOW.end)).toBe("8 AM–5 PM");
    expect(windowLabel("08:30", "11:00")).toBe("8:30–11 AM");
  });
});
