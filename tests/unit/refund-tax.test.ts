// The tax of partial refunds (docs/decisions.md#34, #49): each tax line's running total is rounded, never a refund's
// share alone, so over any invoice and any sequence of partial refunds every refund's tax, line by line, is between 0
// and what is left of the line, and refunding the whole invoice refunds each line exactly. Ontario's HST, Nova
// Scotia's HST and Quebec's GST + QST; fast-check draws the invoices and the refunds.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refundTax } from "../../src/modules/invoices/refunds.js";
import { type TaxLine, taxFor } from "../../src/modules/tax/index.js";

/** An invoice as Haven stores it: its tax lines and its total, for a home in `province` on 1 March 2026. */
const invoiceOf = (subtotalCents: number, province: "ON" | "NS" | "QC") => {
  const taxed = taxFor(subtotalCents, province, "2026-03-01");
  return { taxLines: taxed.lines, totalCents: taxed.totalCents };
};

/** Refunds the invoice part by part as RefundsService does (each no more than is left): each refund's tax lines. */
function refundAll(invoice: ReturnType<typeof invoiceOf>, parts: number[], finish: boolean): TaxLine[][] {
  const earlier: { taxLines: TaxLine[] }[] = [];
  let refunded = 0;
  const amounts = parts.map((p) => Math.min(p, invoice.totalCents)).filter((p) => p > 0);
  if (finish) amounts.push(invoice.totalCents);
  for (const wanted of amounts) {
    const amount = Math.min(wanted, invoice.totalCents - refunded);
    if (amount <= 0) break;
    earlier.push({ taxLines: refundTax(invoice, earlier, amount, refunded) });
    refunded += amount;
  }
  return earlier.map((r) => r.taxLines);
}

const sumOf = (refunds: TaxLine[][], label: string) =>
  refunds.flat().reduce((sum, l) => sum + (l.label === label ? l.amountCents : 0), 0);

describe("the tax of partial refunds", () => {
  it("198 refunds of $0.57 against a $113.00 invoice, then the rest: no refund's HST is negative and the HST refunded is $13.00", () => {
    const invoice = invoiceOf(10_000, "ON");
    expect(invoice.totalCents).toBe(11_300);
    const refunds = refundAll(invoice, Array(198).fill(57), true);
    expect(refunds).toHaveLength(199);
    for (const lines of refunds) expect(lines[0]!.amountCents).toBeGreaterThanOrEqual(0);
    expect(sumOf(refunds, "HST 13%")).toBe(1_300);
  });

  for (const province of ["ON", "NS", "QC"] as const) {
    it(`${province}: any invoice, any partial refunds: each refund's tax per line is ≥ 0 and within what is left; refunded in full, each line exactly`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 500_000 }),
          fc.array(fc.integer({ min: 1, max: 60_000 }), { maxLength: 40 }),
          fc.boolean(),
          (subtotal, parts, finish) => {
            const invoice = invoiceOf(subtotal, province);
            const refunds = refundAll(invoice, parts, finish);
            for (const line of invoice.taxLines) {
              let left = line.amountCents;
              for (const lines of refunds) {
                const share = lines.find((l) => l.label === line.label)!.amountCents;
                expect(share).toBeGreaterThanOrEqual(0);
                expect(share).toBeLessThanOrEqual(left);
                left -= share;
              }
              const refundedCents = Math.min(
                invoice.totalCents,
                [...parts.map((p) => Math.min(p, invoice.totalCents)), ...(finish ? [invoice.totalCents] : [])].reduce(
                  (sum, p) => sum + p,
                  0,
                ),
              );
              // Each line's refunds add up to its share of what was refunded, rounded once: the whole line at the end.
              expect(sumOf(refunds, line.label)).toBe(
                Math.round((line.amountCents * refundedCents) / invoice.totalCents),
              );
              if (finish) expect(sumOf(refunds, line.label)).toBe(line.amountCents);
            }
          },
        ),
      );
    });
  }
});
