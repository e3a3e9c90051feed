// Refunds and disputes as rows (docs/decisions.md#34). The invoice's refunded_cents is the sum of its refunds,
// written in the same transaction, under the invoice's row lock.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { TaxLine } from "../tax/index.js";

type Db = Knex | Tx;

export interface Refund {
  id: number;
  invoiceId: number;
  provider: string;
  providerRefundId: string;
  amountCents: number;
  taxCents: number;
  taxLines: TaxLine[];
  reason: string | null;
  actor: string;
  creditNoteId: string | null;
  requestKey: string | null;
  createdAt: string;
}

const toRefund = (row: Record<string, unknown>): Refund => ({
  id: row.id as number,
  invoiceId: row.invoice_id as number,
  provider: row.provider as string,
  providerRefundId: row.provider_refund_id as string,
  amountCents: row.amount_cents as number,
  taxCents: row.tax_cents as number,
  taxLines: (typeof row.tax_lines === "string" ? JSON.parse(row.tax_lines) : row.tax_lines) as TaxLine[],
  reason: (row.reason as string | null) ?? null,
  actor: row.actor as string,
  creditNoteId: (row.credit_note_id as string | null) ?? null,
  requestKey: (row.request_key as string | null) ?? null,
  createdAt: new Date(row.created_at as string).toISOString(),
});

export class RefundsRepository {
  constructor(private readonly db: Knex) {}

  async forInvoice(invoiceId: number, db: Db = this.db): Promise<Refund[]> {
    const rows = await db("refunds").where({ invoice_id: invoiceId }).orderBy("id");
    return rows.map(toRefund);
  }

  async findByKey(requestKey: string, db: Db = this.db): Promise<Refund | null> {
    const row = await db("refunds").where({ request_key: requestKey }).first();
    return row ? toRefund(row) : null;
  }

  async findByProviderId(provider: string, providerRefundId: string, db: Db = this.db): Promise<Refund | null> {
    const row = await db("refunds").where({ provider, provider_refund_id: providerRefundId }).first();
    return row ? toRefund(row) : null;
  }

  /**
   * Records a refund once (the provider's id is unique) and moves the invoice's refunded figure; null when it was
   * already recorded. The caller holds the invoice's row lock.
   */
  async record(refund: Omit<Refund, "id" | "createdAt"> & { createdAt?: Date }, tx: Tx): Promise<Refund | null> {
    const [row] = await tx("refunds")
      .insert({
        invoice_id: refund.invoiceId,
        provider: refund.provider,
        provider_refund_id: refund.providerRefundId,
        amount_cents: refund.amountCents,
        tax_cents: refund.taxCents,
        tax_lines: JSON.stringify(refund.taxLines),
        reason: refund.reason,
        actor: refund.actor,
        credit_note_id: refund.creditNoteId,
        request_key: refund.requestKey,
        ...(refund.createdAt ? { created_at: refund.createdAt } : {}),
      })
      .onConflict(["provider", "provider_refund_id"])
      .ignore()
      .returning("*");
    if (!row) return null;
    await tx("invoices")
      .where({ id: refund.invoiceId })
      .update({ refunded_cents: tx.raw("refunded_cents + ?", [refund.amountCents]), updated_at: tx.fn.now() });
    return toRefund(row);
  }

  /** A dispute recorded once by its provider id; false when it was already there. */
  async recordDispute(
    dispute: {
      providerDisputeId: string;
      invoiceId: number | null;
      subscriptionId: number | null;
      amountCents: number;
      reason: string | null;
      status: string;
    },
    tx: Tx,
  ): Promise<boolean> {
    const rows = await tx("disputes")
      .insert({
        provider_dispute_id: dispute.providerDisputeId,
        invoice_id: dispute.invoiceId,
        subscription_id: dispute.subscriptionId,
        amount_cents: dispute.amountCents,
        reason: dispute.reason,
        status: dispute.status,
      })
      .onConflict("provider_dispute_id")
      .ignore()
      .returning("id");
    if (rows.length && dispute.subscriptionId)
      await tx("subscriptions")
        .where({ id: dispute.subscriptionId })
        .update({ disputed_at: tx.fn.now(), updated_at: tx.fn.now() });
    return rows.length > 0;
  }

  async disputesOf(subscriptionId: number, db: Db = this.db) {
    const rows = await db("disputes").where({ subscription_id: subscriptionId }).orderBy("id", "desc");
    return rows.map((r) => ({
      id: r.id as number,
      invoiceId: (r.invoice_id as number | null) ?? null,
      providerDisputeId: r.provider_dispute_id as string,
      amountCents: r.amount_cents as number,
      reason: (r.reason as string | null) ?? null,
      status: r.status as string,
      createdAt: new Date(r.created_at as string).toISOString(),
    }));
  }
}
