// The SQL of a subscription's tax following its home (docs/decisions.md#57): the subscription and its home read
// under the subscription's row lock, the province it is taxed in, and the first invoice's tax settlement (a charge
// of its own, numbered from the invoices' counter, or a credit note through the refunds).
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { TaxLine } from "../tax/index.js";
import { numberColumns } from "../invoices/index.js";
import { type InvoicesRepository, cents } from "../invoices/index.js";

type Db = Knex | Tx;

/** The provider invoice id of the charge that settles an invoice's tax: one per invoice (a unique index). */
export const adjustmentInvoiceId = (invoiceId: number) => `tax_adj_${invoiceId}`;
/** The request key of the credit note that settles an invoice's tax: one per invoice. */
export const adjustmentRefundKey = (invoiceId: number) => `tax-home:${invoiceId}`;

export interface TaxedHome {
  id: number;
  provider: string;
  providerSubscriptionId: string;
  status: string;
  /** The province it is taxed in now (null: none was named, the business's). */
  taxProvince: string | null;
  taxPostalCode: string | null;
  /** The home's postal code and province, as intake or staff entered them. */
  homePostalCode: string | null;
  homeProvince: string | null;
}

/** The first invoice, paid, as its settlement reads it. */
export interface FirstInvoice {
  id: number;
  provider: string;
  subtotalCents: number;
  taxLines: TaxLine[];
  taxProvince: string | null;
  issuedAt: Date;
  periodStart: Date;
  periodEnd: Date;
}

export class HomeTaxRepository {
  constructor(
    private readonly db: Knex,
    private readonly numbers: Pick<InvoicesRepository, "numberIssued">,
  ) {}

  /** The subscription and its home, the subscription's row locked (before any invoice's, docs/decisions.md#52). */
  async lock(id: number, tx: Tx): Promise<TaxedHome | null> {
    const locked = await tx("subscriptions").where({ id }).forUpdate().first("id");
    return locked ? this.read(id, tx) : null;
  }

  async read(id: number, db: Db = this.db): Promise<TaxedHome | null> {
    const row = await db("subscriptions as s")
      .leftJoin("properties as p", "p.id", "s.property_id")
      .where("s.id", id)
      .first(
        "s.id",
        "s.provider",
        "s.provider_subscription_id",
        "s.status",
        "s.tax_province",
        "s.tax_postal_code",
        "p.postal_code",
        "p.province",
      );
    return row
      ? {
          id: row.id as number,
          provider: row.provider as string,
          providerSubscriptionId: row.provider_subscription_id as string,
          status: row.status as string,
          taxProvince: (row.tax_province as string | null) ?? null,
          taxPostalCode: (row.tax_postal_code as string | null) ?? null,
          homePostalCode: (row.postal_code as string | null) ?? null,
          homeProvince: (row.province as string | null) ?? null,
        }
      : null;
  }

  async setProvince(id: number, province: string, postalCode: string | null, tx: Tx): Promise<void> {
    await tx("subscriptions")
      .where({ id })
      .update({ tax_province: province, tax_postal_code: postalCode, updated_at: tx.fn.now() });
  }

  /** The live subscriptions of homes (a staff address change, or a day a rate changes). */
  async liveOf(filter: { propertyId?: number; provider?: string }, statuses: readonly string[]): Promise<number[]> {
    const query = this.db("subscriptions").whereIn("status", statuses).orderBy("id").select("id");
    if (filter.propertyId !== undefined) query.where({ property_id: filter.propertyId });
    if (filter.provider !== undefined) query.where({ provider: filter.provider });
    return (await query).map((r) => r.id as number);
  }

  /** The subscription's first invoice, paid, its row locked (the caller holds the subscription's). */
  async lockFirstInvoice(subscriptionId: number, tx: Tx): Promise<FirstInvoice | null> {
    const row = await tx("invoices")
      .where({ subscription_id: subscriptionId, billing_reason: "subscription_create", status: "paid" })
      .orderBy("id")
      .forUpdate()
      .first();
    return row
      ? {
          id: row.id as number,
          provider: row.provider as string,
          subtotalCents: cents(row.subtotal_cents ?? row.amount_cents),
          taxLines: (row.tax_lines as TaxLine[] | null) ?? [],
          taxProvince: (row.tax_province as string | null) ?? null,
          issuedAt: new Date((row.issued_at ?? row.period_start) as string),
          periodStart: new Date(row.period_start as string),
          periodEnd: new Date(row.period_end as string),
        }
      : null;
  }

  /** Whether an invoice's tax was settled already: its charge or its credit note exists. */
  async settled(invoiceId: number, tx: Tx): Promise<boolean> {
    const charge = await tx("invoices")
      .where({ provider_invoice_id: adjustmentInvoiceId(invoiceId) })
      .first("id");
    if (charge) return true;
    return Boolean(
      await tx("refunds")
        .where({ request_key: adjustmentRefundKey(invoiceId) })
        .first("id"),
    );
  }

  /** The charge of an invoice's tax owed, when it was written (Stripe's is written open, then charged). */
  async adjustmentOf(invoiceId: number, tx: Tx): Promise<number | null> {
    const row = await tx("invoices")
      .where({ provider_invoice_id: adjustmentInvoiceId(invoiceId) })
      .first("id");
    return row ? (row.id as number) : null;
  }

  /** A charge of tax owed still to be charged: open and never tried (a declined card is staff's to follow up). */
  async openAdjustment(id: number): Promise<{ number: string; amountCents: number } | null> {
    const row = await this.db("invoices")
      .where({ id, status: "open", billing_reason: "tax_adjustment", attempt_count: 0 })
      .first("number", "amount_cents");
    return row ? { number: row.number as string, amountCents: cents(row.amount_cents) } : null;
  }

  /**
   * Stripe's answer to the charge, under the invoice's lock (the caller holds the subscription's): paid, with its
   * PaymentIntent (refunds and disputes find it by that, as a quote invoice's), or declined with the card's message.
   * False when it was recorded already.
   */
  async recordAdjustmentPayment(
    id: number,
    answer: { paymentIntentId: string | null; declined: string | null; at: Date },
    tx: Tx,
  ): Promise<boolean> {
    const row = await tx("invoices").where({ id }).forUpdate().first("status", "attempt_count", "amount_cents");
    if (row?.status !== "open" || (row.attempt_count as number) > 0) return false;
    await tx("invoices")
      .where({ id })
      .update({
        payment_intent_id: answer.paymentIntentId,
        attempt_count: 1,
        ...(answer.declined
          ? { failure_reason: answer.declined }
          : { status: "paid", paid_at: answer.at, amount_paid_cents: row.amount_cents }),
        updated_at: tx.fn.now(),
      });
    return true;
  }

  /**
   * The charge of the tax an invoice owed (docs/decisions.md#57): an invoice of its own, numbered now from the same
   * counter (no gap), nothing before tax, the owed lines, for the same period; paid at once with the demo provider.
   */
  async insertAdjustment(
    input: { subscriptionId: number; first: FirstInvoice; lines: TaxLine[]; province: string; paidAt: Date | null },
    tx: Tx,
    now: Date,
  ): Promise<number> {
    const [issued] = await this.numbers.numberIssued([now], tx, now);
    const tax = input.lines.reduce((sum, l) => sum + l.amountCents, 0);
    const [row] = await tx("invoices")
      .insert({
        subscription_id: input.subscriptionId,
        provider: input.first.provider,
        provider_invoice_id: adjustmentInvoiceId(input.first.id),
        ...numberColumns(issued!),
        amount_cents: tax,
        amount_paid_cents: input.paidAt ? tax : 0,
        subtotal_cents: 0,
        tax_cents: tax,
        tax_lines: JSON.stringify(input.lines),
        tax_province: input.province,
        currency: "cad",
        period_start: input.first.periodStart,
        period_end: input.first.periodEnd,
        status: input.paidAt ? "paid" : "open",
        billing_reason: "tax_adjustment",
        paid_at: input.paidAt,
        attempt_count: input.paidAt ? 1 : 0,
      })
      .returning("id");
    return row.id as number;
  }
}
