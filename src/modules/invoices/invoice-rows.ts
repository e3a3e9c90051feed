// An invoice row as the module reads it (docs/decisions.md#33, #50): the figures in dollars, the tax lines, and what
// the payment paid beside the total. The write path is invoices.repository.ts.
import type { TaxLine } from "../tax/index.js";
import type { Invoice } from "./invoices.constants.js";

export type Row = Record<string, unknown>;

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value == null ? null : new Date(value as string).toISOString();
export const cents = (value: unknown) => Number(value ?? 0);
const linesOf = (value: unknown): TaxLine[] =>
  (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as TaxLine[];

export const formatInvoiceNumber = (year: number, n: number) => `HAV-${year}-${String(n).padStart(6, "0")}`;

/** What the payment paid (docs/decisions.md#50): as stored, else (an older image's row) the total less the balance once paid. */
export const paidCents = (row: Row) =>
  row.amount_paid_cents != null
    ? cents(row.amount_paid_cents)
    : row.status === "paid"
      ? cents(row.amount_cents) - cents(row.balance_applied_cents)
      : 0;

/**
 * An invoice's date (docs/decisions.md#54): `issued_at`, set once with its number. A numbered row an older image wrote
 * has none: it reads as that image showed it (the payment's, else the period's start); a draft has no date yet.
 */
const issuedAtOf = (row: Row): string | null =>
  iso(row.issued_at) ?? (row.number ? iso(row.paid_at ?? row.period_start) : null);

export const toInvoice = (row: Row): Invoice => ({
  id: row.id as number,
  subscriptionId: row.subscription_id as number,
  quoteRequestId: (row.quote_request_id as number | null | undefined) ?? null,
  providerInvoiceId: row.provider_invoice_id as string,
  number: (row.number as string | null) ?? null,
  issuedAt: issuedAtOf(row),
  recordedLateAt: iso(row.recorded_late_at),
  amount: cents(row.amount_cents) / 100,
  amountPaid: paidCents(row) / 100,
  balanceApplied: cents(row.balance_applied_cents) / 100,
  subtotal: cents(row.subtotal_cents ?? row.amount_cents) / 100,
  tax: cents(row.tax_cents) / 100,
  taxLines: linesOf(row.tax_lines),
  taxProvince: (row.tax_province as string | null) ?? null,
  refunded: cents(row.refunded_cents) / 100,
  hostedInvoiceUrl: (row.hosted_invoice_url as string | null) ?? null,
  currency: row.currency as string,
  periodStart: iso(row.period_start)!,
  periodEnd: iso(row.period_end)!,
  status: row.status as string,
  billingReason: (row.billing_reason as string | null) ?? null,
  paidAt: iso(row.paid_at),
  failureReason: (row.failure_reason as string | null) ?? null,
});

/** An invoice locked for a refund (RefundsRepository.lockInvoice), with what the refund's rules need in cents. */
export type LockedInvoice = Invoice & {
  provider: string;
  totalCents: number;
  /** What the payment paid: a refund goes back to the card, so at most this (docs/decisions.md#50). */
  paidCents: number;
  refundedCents: number;
  subtotalCents: number;
};
