// The windows a homeowner may move a plan visit in (docs/decisions.md#44).
import { describe, expect, it } from "vitest";
import { changeableOn, moveWindow, skippable } from "./plan-visit-rules.js";

const SNOW = "FREQ=WEEKLY;BYMONTH=12,1,2,3";
const LAWN = "FREQ=WEEKLY;INTERVAL=2;BYMONTH=5,6,7,8,9,10";
const TODAY = "2027-01-01";

describe("moveWindow", () => {
  it("a weekly visit moves 3 days either side, never out of its season", () => {
    expect(moveWindow({ planService: "snow-removal", rrule: SNOW, seriesDate: "2027-01-20" }, TODAY)).toEqual({
      from: "2027-01-17",
      to: "2027-01-23",
    });
    expect(moveWindow({ planService: "snow-removal", rrule: SNOW, seriesDate: "2027-03-30" }, TODAY)).toEqual({
      from: "2027-03-27",
      to: "2027-03-31",
    });
  });

  it("the lawn, every two weeks, moves 6 days either side within May to October", () => {
    expect(moveWindow({ planService: "lawn-maintenance", rrule: LAWN, seriesDate: "2027-05-03" }, TODAY)).toEqual({
      from: "2027-05-01",
      to: "2027-05-09",
    });
  });

  it("a monthly or seasonal visit moves within its month; an on-request one within a year", () => {
    const windows = { planService: "window-cleaning", rrule: "FREQ=YEARLY;BYMONTH=5,10;BYMONTHDAY=15" };
    expect(moveWindow({ ...windows, seriesDate: "2027-10-15" }, TODAY)).toEqual({
      from: "2027-10-01",
      to: "2027-10-31",
    });
    expect(moveWindow({ planService: "vacation-prep", rrule: null, seriesDate: "2027-02-10" }, TODAY)).toEqual({
      from: "2027-01-03",
      to: "2028-01-01",
    });
  });

  it("the annual inspection moves 60 days either side of its due date, never sooner than 2 days from today", () => {
    expect(moveWindow({ planService: "health-report", rrule: "FREQ=YEARLY", seriesDate: "2027-01-20" }, TODAY)).toEqual(
      { from: "2027-01-03", to: "2027-03-21" },
    );
  });
});

describe("skipping and the lead", () => {
  it("everything but the annual inspection can be skipped, at least 2 days ahead", () => {
    expect(skippable("snow-removal")).toBe(true);
    expect(skippable("health-report")).toBe(false);
    expect(changeableOn("2027-01-03", TODAY)).toBe(true);
    expect(changeableOn("2027-01-02", TODAY)).toBe(false);
  });
});
