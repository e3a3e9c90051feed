// The SQL of accepted quotes' invoices (docs/decisions.md#43): numbered from the subscription invoices' counter
// (InvoicesRepository.numberIssued, no gap, in order of issue: docs/decisions.md#54), locked, paid or failed by the
// quotes module's pay path through its QuoteInvoices port (container.ts passes
// SubscriptionsRepository.quoteInvoiceRows).
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { TaxLine } from "../tax/index.js";
import { numberColumns } from "./invoice-numbers.js";
import { type InvoicesRepository, cents, toInvoice } from "./invoices.repository.js";
import type { Invoice } from "./invoices.constants.js";

type Db = Knex | Tx;

/** An accepted quote's invoice (docs/decisions.md#43): its figures were fixed at acceptance. */
export interface NewQuoteInvoice {
  quoteRequestId: number;
  provider: string;
  subtotalCents: number;
  taxLines: TaxLine[];
  taxCents: number;
  totalCents: number;
  province: string;
  issuedAt: Date;
  payTokenHash: string;
}

export class QuoteInvoicesRepository {
  constructor(
    private readonly db: Knex,
    /** The invoice write path: the gapless numbers in order of issue, and any invoice read by its id. */
    private readonly numbers: Pick<InvoicesRepository, "numberIssued" | "find">,
  ) {}

  /** An invoice by its id (InvoicesRepository.find), as the quotes module's port reads a paid one back. */
  async find(id: number, db: Db = this.db): Promise<Invoice | null> {
    return this.numbers.find(id, db);
  }

  /**
   * An accepted quote's open invoice, numbered from the same counter in the caller's transaction (no gap). One per
   * quote request (a unique index): a second call returns the first invoice's id and takes no number.
   */
  async insertQuoteInvoice(input: NewQuoteInvoice, tx: Tx): Promise<{ id: number; created: boolean }> {
    const existing = await tx("invoices").where({ quote_request_id: input.quoteRequestId }).first("id");
    if (existing) return { id: existing.id as number, created: false };
    // Issued at the yes: its date, set with its number (docs/decisions.md#54).
    const [issued] = await this.numbers.numberIssued([input.issuedAt], tx);
    const [row] = await tx("invoices")
      .insert({
        quote_request_id: input.quoteRequestId,
        provider: input.provider,
        provider_invoice_id: `quote_${input.quoteRequestId}`,
        ...numberColumns(issued!),
        amount_cents: input.totalCents,
        subtotal_cents: input.subtotalCents,
        tax_cents: input.taxCents,
        tax_lines: JSON.stringify(input.taxLines),
        tax_province: input.province,
        currency: "cad",
        period_start: input.issuedAt,
        period_end: input.issuedAt,
        status: "open",
        billing_reason: "quote",
        attempt_count: 0,
        pay_token_hash: input.payTokenHash,
      })
      .returning("id");
    return { id: row.id as number, created: true };
  }

  /** A quote invoice locked for paying (the first thing a pay does): by its id, its quote request or its pay link. */
  async lockQuoteInvoice(
    by: { id: number } | { quoteRequestId: number } | { payTokenHash: string },
    tx: Tx,
  ): Promise<(Invoice & { provider: string; totalCents: number; paymentIntentId: string | null }) | null> {
    const where =
      "id" in by
        ? { id: by.id }
        : "quoteRequestId" in by
          ? { quote_request_id: by.quoteRequestId }
          : { pay_token_hash: by.payTokenHash };
    const row = await tx("invoices").where(where).whereNotNull("quote_request_id").forUpdate().first();
    return row
      ? {
          ...toInvoice(row),
          provider: row.provider as string,
          totalCents: cents(row.amount_cents),
          paymentIntentId: (row.payment_intent_id as string | null) ?? null,
        }
      : null;
  }

  /** A quote invoice's PaymentIntent, stored once made (the caller holds the row). */
  async setPaymentIntent(id: number, paymentIntentId: string, tx: Tx): Promise<void> {
    await tx("invoices").where({ id }).update({ payment_intent_id: paymentIntentId, updated_at: tx.fn.now() });
  }

  /** A quote invoice paid (the caller holds the row and has checked it was open). */
  async markQuoteInvoicePaid(id: number, paidAt: Date, tx: Tx): Promise<void> {
    await tx("invoices")
      .where({ id })
      .update({ status: "paid", paid_at: paidAt, attempt_count: tx.raw("attempt_count + 1"), updated_at: tx.fn.now() });
  }

  /** A failed card on a quote invoice: it stays open, with the reason. */
  async markQuoteInvoiceFailed(id: number, reason: string, tx: Tx): Promise<void> {
    await tx("invoices")
      .where({ id })
      .update({ failure_reason: reason, attempt_count: tx.raw("attempt_count + 1"), updated_at: tx.fn.now() });
  }

  /** The invoices of quote requests (My Home lists a homeowner's beside their plan's). */
  async quoteInvoices(quoteRequestIds: number[], db: Db = this.db): Promise<Invoice[]> {
    if (!quoteRequestIds.length) return [];
    const rows = await db("invoices").whereIn("quote_request_id", quoteRequestIds).orderBy("id", "desc");
    return rows.map(toInvoice);
  }
}
