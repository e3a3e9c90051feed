// Refunds and disputes as rows (docs/decisions.md#34). The invoice's refunded_cents is the sum of its refunds,
// written in the same transaction, under the invoice's row lock. Each refund is a credit note with its own number,
// HAV-CN-<year>-<6 digits>, gapless per business year (docs/decisions.md#52).
import { DEFAULT_LOCALE, type Locale, isLocale } from "../../i18n/index.js";
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { todayIn } from "../../shared/business-time.js";
import type { TaxLine } from "../tax/index.js";
import { type LockedInvoice, cents, paidCents, toInvoice } from "./invoice-rows.js";

type Db = Knex | Tx;

/** An invoice locked for a refund, with the PaymentIntent an accepted quote's was paid by. */
export type RefundableInvoice = LockedInvoice & { paymentIntentId: string | null };

export const formatCreditNoteNumber = (year: number, n: number) => `HAV-CN-${year}-${String(n).padStart(6, "0")}`;

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
  /** The credit note's number (docs/decisions.md#52); null only on a row an older image wrote. */
  number: string | null;
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
  number: (row.number as string | null) ?? null,
  createdAt: new Date(row.created_at as string).toISOString(),
});

/** Who a refunded invoice's payer is: the subscription's customer, or the quote's home's customer. */
export interface RefundPayer {
  name: string | null;
  email: string | null;
  address: string | null;
  /** A quote's invoice: what the work was (its task's title). */
  quoteTitle: string | null;
  /** The customer's language (customers.locale); their documents' follows it (document-locale.ts). */
  locale: Locale;
}

export class RefundsRepository {
  constructor(
    private readonly db: Knex,
    /** The business zone: a credit note's number takes the year of its day there. */
    private readonly timeZone = "America/Toronto",
  ) {}

  /**
   * An invoice locked for a refund, a subscription's or an accepted quote's (docs/decisions.md#52): its
   * subscription's row first, then the invoice, the order every subscription change takes (#35), so a refund and a
   * webhook never wait on each other in a circle.
   */
  async lockInvoice(id: number, tx: Tx): Promise<RefundableInvoice | null> {
    const head = await tx("invoices").where({ id }).first("subscription_id");
    if (!head) return null;
    if (head.subscription_id) await tx("subscriptions").where({ id: head.subscription_id }).forUpdate().first("id");
    return this.readInvoice(id, tx, true);
  }

  /** The invoice as a refund reads it, unlocked (what Stripe is called with, outside any transaction). */
  async readInvoice(id: number, db: Db = this.db, lock = false): Promise<RefundableInvoice | null> {
    const query = db("invoices").where({ id });
    const row = await (lock ? query.forUpdate() : query).first();
    return row
      ? {
          ...toInvoice(row),
          provider: row.provider as string,
          totalCents: cents(row.amount_cents),
          // docs/decisions.md#50: a refund goes back to the card, at most what the card paid.
          paidCents: paidCents(row),
          refundedCents: cents(row.refunded_cents),
          subtotalCents: cents(row.subtotal_cents ?? row.amount_cents),
          paymentIntentId: (row.payment_intent_id as string | null) ?? null,
        }
      : null;
  }

  async find(id: number, db: Db = this.db): Promise<Refund | null> {
    const row = await db("refunds").where({ id }).first();
    return row ? toRefund(row) : null;
  }

  /**
   * The next credit-note number of the business year of `at`, in the caller's transaction: the counter row stays
   * locked until it commits, so a rollback gives the number back (docs/decisions.md#52, as #33 numbers invoices).
   */
  async takeNumber(at: Date, tx: Tx): Promise<string> {
    const year = Number(todayIn(this.timeZone, at).slice(0, 4));
    const result = await tx.raw(
      `insert into credit_note_counters (year, last_number) values (?, 1)
       on conflict (year) do update set last_number = credit_note_counters.last_number + 1
       returning last_number`,
      [year],
    );
    return formatCreditNoteNumber(year, Number(result.rows[0].last_number));
  }

  /** Stripe's credit note of a refund, once made (the finishing job). */
  async setCreditNote(id: number, creditNoteId: string, db: Db = this.db): Promise<void> {
    await db("refunds").where({ id }).whereNull("credit_note_id").update({ credit_note_id: creditNoteId });
  }

  /** The payer of an invoice, a subscription's or a quote's (the credit note's PDF and the quote's e-mail). */
  async payerOf(invoiceId: number, db: Db = this.db): Promise<RefundPayer> {
    const row = await db("invoices as i")
      .leftJoin("subscriptions as s", "s.id", "i.subscription_id")
      .leftJoin("quote_requests as q", "q.id", "i.quote_request_id")
      .leftJoin("properties as p", "p.id", db.raw("coalesce(s.property_id, q.property_id)"))
      .leftJoin("customers as c", "c.id", db.raw("coalesce(s.customer_id, p.customer_id)"))
      .leftJoin("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .where("i.id", invoiceId)
      .first(
        db.raw("coalesce(c.name, s.payer_name) as name"),
        db.raw("coalesce(c.email, s.payer_email) as email"),
        // As Canada Post writes it: "1 Elgin Street, Ottawa, ON K1S 2B4".
        db.raw("concat_ws(', ', p.address, p.city, nullif(concat_ws(' ', p.province, p.postal_code), '')) as address"),
        "t.title as quote_title",
        "c.locale",
      );
    return {
      name: (row?.name as string | null) ?? null,
      email: (row?.email as string | null) ?? null,
      address: (row?.address as string | null) || null,
      quoteTitle: (row?.quote_title as string | null) ?? null,
      locale: isLocale(row?.locale) ? row.locale : DEFAULT_LOCALE,
    };
  }

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
   * Records a refund once (the provider's id is unique), numbered as a credit note, and moves the invoice's
   * refunded figure; null when it was already recorded. The caller holds the invoice's row lock.
   */
  async record(
    refund: Omit<Refund, "id" | "createdAt" | "number"> & { createdAt?: Date },
    tx: Tx,
  ): Promise<Refund | null> {
    if (await this.findByProviderId(refund.provider, refund.providerRefundId, tx)) return null;
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
    // The number of the year of the refund's own date (the database's clock unless the provider gave one).
    row.number = await this.takeNumber(new Date(row.created_at as string), tx);
    await tx("refunds").where({ id: row.id }).update({ number: row.number });
    await tx("invoices")
      .where({ id: refund.invoiceId })
      .update({ refunded_cents: tx.raw("refunded_cents + ?", [refund.amountCents]), updated_at: tx.fn.now() });
    return toRefund(row);
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
