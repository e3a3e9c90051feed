import { describe, expect, it } from "vitest";
import { afterYesText, expiredMessage, isExpired, quoteTotals } from "./quote-document.js";

describe("a quote's figures (docs/decisions.md#42)", () => {
  it("adds Ontario's HST to $650.00: $84.50, $734.50", () => {
    const totals = quoteTotals(65_000, "ON", "2026-11-25");
    expect(totals).toEqual({
      subtotalCents: 65_000,
      taxLines: [{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 8450 }],
      taxCents: 8450,
      totalCents: 73_450,
    });
  });

  it("adds Quebec's GST and QST as two lines", () => {
    const totals = quoteTotals(65_000, "QC", "2026-11-25");
    expect(totals.taxLines.map((l) => [l.label, l.amountCents])).toEqual([
      ["GST 5%", 3250],
      ["QST 9.975%", 6484],
    ]);
    expect(totals.totalCents).toBe(74_734);
  });

  it("refuses a province that is none", () => {
    expect(() => quoteTotals(100, "XX", "2026-11-25")).toThrow(/province/);
  });
});

describe("a quote's validity and what happens after yes (docs/decisions.md#42)", () => {
  it("expires the day after its last day; a quote without a date never does", () => {
    expect(isExpired("2026-12-25", "2026-12-25")).toBe(false);
    expect(isExpired("2026-12-25", "2026-12-26")).toBe(true);
    expect(isExpired(null, "2099-01-01")).toBe(false);
    expect(expiredMessage("2026-12-25")).toBe("This quote expired on December 25, 2026; ask us for a new one");
  });

  it("names the assigned person, else one of our technicians", () => {
    expect(afterYesText("Sam Inspector")).toBe(
      "When you accept, our office books the work with you within 2 business days; Sam Inspector comes at the time you agree.",
    );
    expect(afterYesText(null)).toContain("; one of our technicians comes at the time you agree.");
  });
});

describe("a quote of a business not registered for GST/HST", () => {
  it("charges no tax: the total is the price (docs/tax.md)", () => {
    expect(quoteTotals(64000, "ON", "2026-11-26", false)).toEqual({
      subtotalCents: 64000,
      taxLines: [],
      taxCents: 0,
      totalCents: 64000,
    });
    expect(quoteTotals(64000, "ON", "2026-11-26").totalCents).toBe(72320);
  });
});
