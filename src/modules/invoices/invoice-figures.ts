// The money figures an invoice row stores for a provider's invoice (docs/decisions.md#33, #50): the total, the
// subtotal, each tax, what the payment paid and the customer's balance applied, as Stripe gives them. Pure: the
// write path (invoices.repository.ts) stores them and reconciliation compares them with what is stored.
import { type Province, type TaxLine, taxFor } from "../tax/index.js";
import type { ProviderInvoiceState } from "./invoices.constants.js";

/** An invoice row's money columns. */
export interface InvoiceFigures {
  amount_cents: number;
  subtotal_cents: number;
  tax_cents: number;
  tax_lines: TaxLine[];
  /** Null on rows an older image wrote: read as the total less the balance applied once paid. */
  amount_paid_cents: number | null;
  balance_applied_cents: number;
}

/**
 * Stripe's tax amounts whose Tax Rates are not known, named by the rates of the home's province on the issue day:
 * each takes the kind, label and rate of the computed line closest to it (GST 5 % and QST 9.975 % of one price are
 * far apart), so the amount charged is kept and never replaced by Haven's own arithmetic.
 */
export function nameTaxes(amounts: number[], computed: TaxLine[]): TaxLine[] {
  const unused = [...computed];
  return amounts.map((amountCents) => {
    const pool = unused.length ? unused : computed;
    const closest = pool.reduce<TaxLine | undefined>(
      (best, line) =>
        !best || Math.abs(line.amountCents - amountCents) < Math.abs(best.amountCents - amountCents) ? line : best,
      undefined,
    );
    if (closest && unused.includes(closest)) unused.splice(unused.indexOf(closest), 1);
    const { kind, label, percent } = closest ?? { kind: "GST" as const, label: "Tax", percent: 0 };
    return { kind, label, percent, amountCents };
  });
}

/**
 * The figures of a provider's (Stripe's) invoice: its total, subtotal and taxes as given (tax lines, or amounts named
 * by `province`'s rates on `day`), what its payment paid, and the customer's balance applied.
 */
export function providerFigures(invoice: ProviderInvoiceState, province: Province, day: string): InvoiceFigures {
  const total = invoice.totalCents ?? invoice.amountCents;
  const amounts = invoice.taxAmountsCents ?? [];
  const subtotal = invoice.subtotalCents ?? total - amounts.reduce((sum, a) => sum + a, 0);
  const lines = invoice.taxLines ?? nameTaxes(amounts, taxFor(subtotal, province, day).lines);
  return {
    amount_cents: total,
    subtotal_cents: subtotal,
    tax_cents: lines.reduce((sum, line) => sum + line.amountCents, 0),
    tax_lines: lines,
    amount_paid_cents: invoice.status === "paid" ? invoice.amountCents : 0,
    balance_applied_cents: invoice.balanceAppliedCents ?? 0,
  };
}

/** The figures of a stored row, as `providerFigures` gives them. */
export function storedFigures(row: Record<string, unknown>): InvoiceFigures {
  const lines = (typeof row.tax_lines === "string" ? JSON.parse(row.tax_lines) : (row.tax_lines ?? [])) as TaxLine[];
  return {
    amount_cents: Number(row.amount_cents ?? 0),
    subtotal_cents: Number(row.subtotal_cents ?? row.amount_cents ?? 0),
    tax_cents: Number(row.tax_cents ?? 0),
    tax_lines: lines.map(({ kind, label, percent, amountCents }) => ({ kind, label, percent, amountCents })),
    amount_paid_cents: row.amount_paid_cents == null ? null : Number(row.amount_paid_cents),
    balance_applied_cents: Number(row.balance_applied_cents ?? 0),
  };
}

/** The names of the figures that differ (an unknown amount paid is not a difference). */
export function differingFigures(stored: InvoiceFigures, given: InvoiceFigures): (keyof InvoiceFigures)[] {
  const keys = Object.keys(given) as (keyof InvoiceFigures)[];
  return keys.filter((key) => {
    if (key === "amount_paid_cents" && (stored[key] === null || given[key] === null)) return false;
    return JSON.stringify(stored[key]) !== JSON.stringify(given[key]);
  });
}
