import { describe, expect, it } from "vitest";
import { safeNext } from "./auth.routes.js";
import { LoginRateLimiter } from "./rate-limit.js";

describe("safeNext", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeNext("/admin/reports")).toBe("/admin/reports");
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "", undefined, ["/admin"]]) {
      expect(safeNext(bad)).toBe("/admin");
    }
  });
});

describe("LoginRateLimiter", () => {
  it("blocks after the limit until the window passes, and a success resets", () => {
    const limiter = new LoginRateLimiter(3, 1000);
    for (let i = 0; i < 3; i++) limiter.recordFailure("k", 0);
    expect(limiter.isBlocked("k", 10)).toBe(true);
    expect(limiter.isBlocked("other", 10)).toBe(false);
    expect(limiter.isBlocked("k", 1001)).toBe(false);
    limiter.recordFailure("k", 2000);
    limiter.reset("k");
    expect(limiter.isBlocked("k", 2001)).toBe(false);
  });
});
