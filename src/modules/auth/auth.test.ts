import { describe, expect, it } from "vitest";
import { safeNext } from "./auth.routes.js";

describe("safeNext", () => {
  it("keeps same-site paths and refuses everything else", () => {
    expect(safeNext("/admin/reports")).toBe("/admin/reports");
    for (const bad of ["//evil.example", "/\\evil.example", "https://evil.example", "", undefined, ["/admin"]]) {
      expect(safeNext(bad)).toBe("/admin");
    }
  });
});
