import { describe, expect, it } from "vitest";
import { proportionalTax, provinceOfPostalCode, ratesOn, taxDifference, taxFor } from "./tax.service.js";

describe("sales tax on a home service (docs/decisions.md#32)", () => {
  it("finds the province from the postal code's first letters", () => {
    expect(provinceOfPostalCode("K1S 2B4")).toBe("ON");
    expect(provinceOfPostalCode("k1s2b4")).toBe("ON");
    expect(provinceOfPostalCode("H2X-1Y4")).toBe("QC");
    expect(provinceOfPostalCode("B3H 1A1")).toBe("NS");
    expect(provinceOfPostalCode("X0A 0H0")).toBe("NU");
    expect(provinceOfPostalCode("X1A 2P7")).toBe("NT");
    expect(provinceOfPostalCode("D1A 1A1")).toBeNull();
    expect(provinceOfPostalCode("12345")).toBeNull();
  });

  it("charges Ontario's 13 % HST: $412.00 + $53.56 = $465.56", () => {
    const taxed = taxFor(41_200, "ON", "2026-11-25");
    expect(taxed.lines).toEqual([{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 5356 }]);
    expect(taxed.totalCents).toBe(46_556);
  });

  it("charges Quebec's GST and QST as two lines", () => {
    const taxed = taxFor(10_000, "QC", "2026-11-25");
    expect(taxed.lines.map((l) => [l.label, l.amountCents])).toEqual([
      ["GST 5%", 500],
      ["QST 9.975%", 998],
    ]);
    expect(taxed.totalCents).toBe(11_498);
  });

  it("follows Nova Scotia's HST from 15 % to 14 % on 1 April 2025", () => {
    expect(ratesOn("NS", "2025-03-31").map((r) => r.percent)).toEqual([15]);
    expect(ratesOn("NS", "2025-04-01").map((r) => r.percent)).toEqual([14]);
  });

  it("gives every province exactly one federal part on any day", () => {
    for (const province of ["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"] as const) {
      const federal = ratesOn(province, "2026-01-01").filter((r) => r.kind !== "QST");
      expect(federal, province).toHaveLength(1);
    }
  });

  it("refunds tax in proportion, line by line", () => {
    const taxed = taxFor(41_200, "ON", "2026-11-25");
    expect(proportionalTax(taxed.lines, 41_200, 20_600)[0]!.amountCents).toBe(2678);
    expect(proportionalTax(taxed.lines, 41_200, 41_200)[0]!.amountCents).toBe(5356);
  });

  it("a home in another province than the one taxed: what is owed and what goes back, line by line (docs/decisions.md#57)", () => {
    const day = "2026-11-25";
    // Ottawa home taxed as Alberta: the GST goes back, the HST is owed.
    expect(taxDifference(taxFor(41_200, "AB", day).lines, taxFor(41_200, "ON", day).lines)).toEqual({
      owed: [{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 5356 }],
      back: [{ kind: "GST", label: "GST 5%", percent: 5, amountCents: 2060 }],
    });
    // Gatineau home taxed as Alberta: the GST was right, only the QST is owed.
    expect(taxDifference(taxFor(41_200, "AB", day).lines, taxFor(41_200, "QC", day).lines)).toEqual({
      owed: [{ kind: "QST", label: "QST 9.975%", percent: 9.975, amountCents: 4110 }],
      back: [],
    });
    // The same province: nothing either way.
    expect(taxDifference(taxFor(41_200, "ON", day).lines, taxFor(41_200, "ON", day).lines)).toEqual({
      owed: [],
      back: [],
    });
  });
});
