// Disputes as rows (docs/decisions.md#34, #53): one per Stripe dispute, its status and the funds Stripe moved kept
// current, and once it is lost the amount taken back with its tax. A dispute whose funds are out of Haven's hands
// holds its subscription's plan services (`holds_services`), as a failed payment does.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { TaxLine } from "../tax/index.js";
import { cents, paidCents } from "../invoices/index.js";

type Db = Knex | Tx;

/** What Stripe says a dispute is now (read back, never the event's copy). */
export interface DisputeFacts {
  providerDisputeId: string;
  amountCents: number;
  reason: string | null;
  status: string;
  fundsWithdrawnCents: number;
  fundsReinstatedCents: number;
}

export interface StoredDispute extends DisputeFacts {
  id: number;
  invoiceId: number | null;
  subscriptionId: number | null;
  lostAt: string | null;
  lostCents: number;
  lostTaxCents: number;
  lostTaxLines: TaxLine[];
  holdsServices: boolean;
  createdAt: string;
}

/** An invoice locked for a lost dispute's figures: what the card paid, what went back before, and its tax. */
export interface DisputedInvoice {
  id: number;
  totalCents: number;
  paidCents: number;
  refundedCents: number;
  taxLines: TaxLine[];
  /** Tax lines already given back: the refunds' and other lost disputes'. */
  earlier: TaxLine[];
  /** Cents other lost disputes took back. */
  lostBeforeCents: number;
}

const lines = (value: unknown): TaxLine[] =>
  (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as TaxLine[];
const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

const toDispute = (row: Record<string, unknown>): StoredDispute => ({
  id: row.id as number,
  invoiceId: (row.invoice_id as number | null) ?? null,
  subscriptionId: (row.subscription_id as number | null) ?? null,
  providerDisputeId: row.provider_dispute_id as string,
  amountCents: row.amount_cents as number,
  reason: (row.reason as string | null) ?? null,
  status: row.status as string,
  fundsWithdrawnCents: cents(row.funds_withdrawn_cents),
  fundsReinstatedCents: cents(row.funds_reinstated_cents),
  lostAt: iso(row.lost_at),
  lostCents: cents(row.lost_cents),
  lostTaxCents: cents(row.lost_tax_cents),
  lostTaxLines: lines(row.lost_tax_lines),
  holdsServices: Boolean(row.holds_services),
  createdAt: iso(row.created_at)!,
});

/** The statuses whose services run: a dispute's hold turns these to past_due (plan-deliveries' RUNNING_STATUSES). */
export const RUNNING_STATUSES: readonly string[] = ["active", "trialing"];

/**
 * Whether a provider's subscription has a dispute holding its services (ProviderState keeps such a plan past due
 * whatever status the provider reads, docs/decisions.md#53). One indexed look-up.
 */
export async function disputeHolds(tx: Tx, provider: string, providerSubscriptionId: string): Promise<boolean> {
  const row = await tx("disputes as d")
    .join("subscriptions as s", "s.id", "d.subscription_id")
    .where({ "s.provider": provider, "s.provider_subscription_id": providerSubscriptionId, "d.holds_services": true })
    .first("d.id");
  return Boolean(row);
}

export class DisputesRepository {
  constructor(private readonly db: Knex) {}

  /**
   * The dispute's row, made on first sight (its provider id is unique), locked for the caller's transaction.
   * `created` says whether this call made it.
   */
  async lockOrInsert(
    facts: DisputeFacts & { invoiceId: number | null; subscriptionId: number | null },
    tx: Tx,
  ): Promise<{ dispute: StoredDispute; created: boolean }> {
    const [inserted] = await tx("disputes")
      .insert({
        provider_dispute_id: facts.providerDisputeId,
        invoice_id: facts.invoiceId,
        subscription_id: facts.subscriptionId,
        amount_cents: facts.amountCents,
        reason: facts.reason,
        status: facts.status,
      })
      .onConflict("provider_dispute_id")
      .ignore()
      .returning("id");
    const row = await tx("disputes").where({ provider_dispute_id: facts.providerDisputeId }).forUpdate().first();
    return { dispute: toDispute(row), created: Boolean(inserted) };
  }

  /** Stores what Stripe says now, and whether it holds the plan's services. */
  async update(id: number, facts: DisputeFacts & { holdsServices: boolean }, tx: Tx): Promise<void> {
    await tx("disputes").where({ id }).update({
      amount_cents: facts.amountCents,
      reason: facts.reason,
      status: facts.status,
      funds_withdrawn_cents: facts.fundsWithdrawnCents,
      funds_reinstated_cents: facts.fundsReinstatedCents,
      holds_services: facts.holdsServices,
      updated_at: tx.fn.now(),
    });
  }

  /** A lost dispute's figures, set once (the caller holds the dispute's row). */
  async recordLoss(id: number, loss: { lostAt: Date; lostCents: number; taxLines: TaxLine[] }, tx: Tx): Promise<void> {
    await tx("disputes")
      .where({ id })
      .whereNull("lost_at")
      .update({
        lost_at: loss.lostAt,
        lost_cents: loss.lostCents,
        lost_tax_cents: loss.taxLines.reduce((sum, l) => sum + l.amountCents, 0),
        lost_tax_lines: JSON.stringify(loss.taxLines),
        updated_at: tx.fn.now(),
      });
  }

  /** The subscription flagged disputed (its staff page shows it). */
  async flagSubscription(subscriptionId: number, tx: Tx): Promise<void> {
    await tx("subscriptions")
      .where({ id: subscriptionId })
      .update({ disputed_at: tx.fn.now(), updated_at: tx.fn.now() });
  }

  /** Whether any dispute of the subscription still holds its services. */
  async holding(subscriptionId: number, db: Db = this.db): Promise<boolean> {
    return Boolean(await db("disputes").where({ subscription_id: subscriptionId, holds_services: true }).first("id"));
  }

  /** Whether the subscription has an unpaid invoice (Stripe's own reason for past due, which a release keeps). */
  async hasOpenInvoice(subscriptionId: number, tx: Tx): Promise<boolean> {
    return Boolean(
      await tx("invoices")
        .where({ subscription_id: subscriptionId, status: "open" })
        .whereRaw("billing_reason is distinct from 'subscription_update'")
        .first("id"),
    );
  }

  /**
   * The disputed invoice locked (after its subscription, docs/decisions.md#35's order), with what was given back
   * before: its refunds and other lost disputes, whose tax a loss's tax continues (tax/refundedTax).
   */
  async lockInvoice(invoiceId: number, exceptDisputeId: number, tx: Tx): Promise<DisputedInvoice | null> {
    const row = await tx("invoices").where({ id: invoiceId }).forUpdate().first();
    if (!row) return null;
    const [refunds, lost] = await Promise.all([
      tx("refunds").where({ invoice_id: invoiceId }).select("tax_lines"),
      tx("disputes")
        .where({ invoice_id: invoiceId })
        .whereNot({ id: exceptDisputeId })
        .whereNotNull("lost_at")
        .select("lost_cents", "lost_tax_lines"),
    ]);
    return {
      id: row.id as number,
      totalCents: cents(row.amount_cents),
      paidCents: paidCents(row),
      refundedCents: cents(row.refunded_cents),
      taxLines: lines(row.tax_lines),
      earlier: [...refunds.map((r) => lines(r.tax_lines)), ...lost.map((d) => lines(d.lost_tax_lines))].flat(),
      lostBeforeCents: lost.reduce((sum, d) => sum + cents(d.lost_cents), 0),
    };
  }

  /** A quote request's home address (a quote invoice's dispute links to its staff list, filtered to that home). */
  async quoteAddress(quoteRequestId: number, db: Db = this.db): Promise<string | null> {
    const row = await db("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .where("q.id", quoteRequestId)
      .first("p.address");
    return (row?.address as string | undefined) ?? null;
  }

  /** The quote invoice a PaymentIntent paid (its id is stored on the row when the intent is made). */
  async quoteInvoiceOfIntent(paymentIntentId: string, db: Db = this.db) {
    const row = await db("invoices")
      .where({ payment_intent_id: paymentIntentId })
      .whereNotNull("quote_request_id")
      .first("id", "number", "quote_request_id");
    return row
      ? {
          id: row.id as number,
          number: (row.number as string | null) ?? null,
          quoteRequestId: row.quote_request_id as number,
        }
      : null;
  }

  /** Open quote invoices whose PaymentIntent was made (reconciliation reads each back from Stripe). */
  async openQuoteIntents(db: Db = this.db): Promise<{ invoiceId: number; paymentIntentId: string }[]> {
    const rows = await db("invoices")
      .whereNotNull("quote_request_id")
      .whereNotNull("payment_intent_id")
      .where({ status: "open", provider: "stripe" })
      .orderBy("id")
      .select("id", "payment_intent_id");
    return rows.map((r) => ({ invoiceId: r.id as number, paymentIntentId: r.payment_intent_id as string }));
  }

  async findByProviderId(providerDisputeId: string, db: Db = this.db): Promise<StoredDispute | null> {
    const row = await db("disputes").where({ provider_dispute_id: providerDisputeId }).first();
    return row ? toDispute(row) : null;
  }
}
