import { describe, expect, it } from "vitest";
import { isNavVisible } from "./layout.js";

describe("isNavVisible", () => {
  it.each([
    "/checkout",
    "/payment-success",
    "/property-intake",
    "/free-report",
    "/book-inspection",
    "/booking-confirmation",
    "/onboarding",
    "/onboarding-flow",
    "/login",
    "/admin",
    "/admin/",
    "/admin/inspections/edit/4",
    "/client-report/abc",
  ])("hides the nav on %s", (path) => {
    expect(isNavVisible(path)).toBe(false);
  });

  it.each([
    "/",
    "/pricing",
    "/haven-health-report",
    "/contact",
    "/schedule-inspection",
    "/report-expired",
    "/administrator",
    "/checkouts",
  ])("shows the nav on %s", (path) => {
    expect(isNavVisible(path)).toBe(true);
  });
});
