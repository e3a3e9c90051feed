import { isProvince, type TaxLine, taxFor } from "../tax/index.js";

/** A quote's figures as the homeowner sees them: the price before tax, each tax line, the total (decisions.md#42). */
export type QuoteTotals = { subtotalCents: number; taxLines: TaxLine[]; taxCents: number; totalCents: number };

/**
 * The tax of a quoted price for a home in `province` on `day` (YYYY-MM-DD, BUSINESS_TZ), by docs/decisions.md#32.
 * The province is the one stored on the quote when it was quoted; one that is not a province is a bug, not zero tax.
 */
export function quoteTotals(subtotalCents: number, province: string, day: string, taxRegistered = true): QuoteTotals {
  if (!isProvince(province)) throw new Error(`Not a Canadian province or territory: ${province}`);
  // A business not registered for GST/HST (BUSINESS_TAX_REGISTERED=false) must not charge it (docs/tax.md).
  if (!taxRegistered) return { subtotalCents, taxLines: [], taxCents: 0, totalCents: subtotalCents };
  const taxed = taxFor(subtotalCents, province, day);
  return { subtotalCents, taxLines: taxed.lines, taxCents: taxed.taxCents, totalCents: taxed.totalCents };
}

/** How long a quote can be accepted, counted from the day it is quoted (BUSINESS_TZ), unless staff give a date. */
export const QUOTE_VALID_DAYS = 30;

/** "November 28, 2026": how a homeowner reads a day (YYYY-MM-DD). */
export const longDate = (day: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString("en-CA", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });

/** Past its last day: `today` and `validUntil` are YYYY-MM-DD in BUSINESS_TZ. A quote without a date never expires. */
export const isExpired = (validUntil: string | null, today: string) => validUntil !== null && today > validUntil;

/** The 409 of an answer to an expired quote, by link, My Home or staff (docs/decisions.md#42). */
export const expiredMessage = (validUntil: string) =>
  `This quote expired on ${longDate(validUntil)}; ask us for a new one`;

/** What happens after yes (docs/decisions.md#42): when it is booked, and who comes. */
export const afterYesText = (assigneeName: string | null) =>
  `When you accept, our office books the work with you within 2 business days; ${assigneeName ?? "one of our technicians"} comes at the time you agree.`;

/** What the homeowner is told when a quote has no single dollar figure (`$800-1,200`): no total, no online payment. */
export const NO_FIGURE_TEXT =
  "This quote is a range or an estimate, not a single price: we confirm the final price with you before the work, and it cannot be paid online.";
