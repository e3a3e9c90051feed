import { isProvince, type TaxLine, taxFor } from "../tax/index.js";

/** A quote's figures as the homeowner sees them: the price before tax, each tax line, the total (decisions.md#42). */
export type QuoteTotals = { subtotalCents: number; taxLines: TaxLine[]; taxCents: number; totalCents: number };

/**
 * The tax of a quoted price for a home in `province` on `day` (YYYY-MM-DD, BUSINESS_TZ), by docs/decisions.md#32.
 * The province is the one stored on the quote when it was quoted; one that is not a province is a bug, not zero tax.
 */
export function quoteTotals(subtotalCents: number, province: string, day: string): QuoteTotals {
  if (!isProvince(province)) throw new Error(`Not a Canadian province or territory: ${province}`);
  const taxed = taxFor(subtotalCents, province, day);
  return { subtotalCents, taxLines: taxed.lines, taxCents: taxed.taxCents, totalCents: taxed.totalCents };
}
