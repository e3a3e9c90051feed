// The staff's invoice list and its CSV (docs/decisions.md#33): invoices with their payer and plan, each tax kind in a
// column of its own, and the refunds' tax. The write path is invoices.repository.ts.
import type { Knex } from "knex";
import { searchPattern } from "../../db/property-search.js";
import { type Row, toInvoice } from "./invoices.repository.js";
import type { Invoice } from "./invoices.constants.js";

const cents = (value: unknown) => Number(value ?? 0);

export interface InvoiceFilter {
  subscriptionId?: number;
  /** Exactly this subtotal or total (cents): "why was I charged $412" finds $412 + tax as well as $412. */
  amountCents?: number;
  /** Issue dates (paid, else period start) from and before these instants. */
  from?: Date;
  to?: Date;
  status?: string;
  /** Who or what it is for: the invoice's number, or its home's address or client's name or e-mail. */
  q?: string;
  /** `q` looked up (`found`): the list's query reads these, each through an index of invoices. */
  matches?: InvoiceMatches;
  limit: number;
  offset: number;
}

/** An invoice in the staff list and its CSV: the payer and home beside it, each tax kind in a column of its own. */
export type InvoiceListRow = Invoice & {
  customerName: string | null;
  customerEmail: string | null;
  planType: string;
  /** The price list the subscription was sold from (docs/decisions.md#23); null for a quote's invoice. */
  priceList: "pricing" | "checkout" | null;
  /** What a quote's invoice is for (its task's title); null for a subscription's. */
  quoteTitle: string | null;
  taxes: { GST: number; HST: number; QST: number };
  refundedTax: number;
};

export const toListRow = (row: Row): InvoiceListRow => {
  const invoice = toInvoice(row);
  const kind = (k: string) =>
    invoice.taxLines.filter((l) => l.kind === k).reduce((sum, l) => sum + l.amountCents, 0) / 100;
  return {
    ...invoice,
    customerName: ((row.customer_name ?? row.payer_name) as string | null) ?? null,
    customerEmail: ((row.customer_email ?? row.payer_email) as string | null) ?? null,
    planType: (row.plan_type as string | null) ?? "quote",
    priceList: invoice.quoteRequestId ? null : row.price_list === "checkout" ? "checkout" : "pricing",
    quoteTitle: (row.quote_title as string | null) ?? null,
    taxes: { GST: kind("GST"), HST: kind("HST"), QST: kind("QST") },
    refundedTax: cents(row.refunded_tax_cents) / 100,
  };
};

/**
 * The filter's conditions on `invoices as i`. Each is an index range (migrations/20261206000300_billing_answers.ts):
 * the issue day is `coalesce(paid_at, period_start)` written exactly as the indexes are, and an amount is an OR of
 * the total's and the subtotal's index, each with the issue day second (invoices.md, "Searching").
 */
function filtered(query: Knex.QueryBuilder, filter: Omit<InvoiceFilter, "limit" | "offset">): Knex.QueryBuilder {
  const matches = filter.matches;
  if (matches)
    query.where((q) =>
      q
        .whereRaw("i.subscription_id = any(?::int[])", [matches.subscriptionIds])
        .orWhereRaw("i.quote_request_id = any(?::int[])", [matches.quoteRequestIds])
        .orWhere("i.number", matches.number),
    );
  if (filter.subscriptionId) query.where("i.subscription_id", filter.subscriptionId);
  if (filter.status) query.where("i.status", filter.status);
  if (filter.amountCents !== undefined) {
    const cents = filter.amountCents;
    query.where((q) =>
      q.where("i.amount_cents", cents).orWhereRaw("coalesce(i.subtotal_cents, i.amount_cents) = ?", [cents]),
    );
  }
  if (filter.from) query.whereRaw("coalesce(i.paid_at, i.period_start) >= ?", [filter.from]);
  if (filter.to) query.whereRaw("coalesce(i.paid_at, i.period_start) < ?", [filter.to]);
  return query;
}

/** "HAV-2026-000123", "hav-2026-123" or "2026-123": the invoice number it names, else null. */
export function invoiceNumberOf(q: string): string | null {
  const match = /^(?:hav-)?(\d{4})-(\d{1,6})$/i.exec(q.trim());
  return match ? `HAV-${match[1]}-${match[2]!.padStart(6, "0")}` : null;
}

/** What a search names, found first (InvoiceListRepository.found): the plans and quotes of the homes and customers. */
export interface InvoiceMatches {
  subscriptionIds: number[];
  quoteRequestIds: number[];
  number: string;
}

export class InvoiceListRepository {
  constructor(private readonly db: Knex) {}

  /**
   * The filter with its search looked up: the plans of the homes whose address or client matches `q` (the homes'
   * trigram index, src/db/property-search.ts, then `subscriptions_property_idx`), the plans of the customer whose
   * e-mail it is (`customers_email_idx`), the quote requests of those homes (`quote_requests_property_idx`) and the
   * number it names. Looked up first, so that the list reads invoices by their own indexes, never through an OR
   * across joined tables that no index serves (invoices.md, "Searching").
   */
  async found<F extends Omit<InvoiceFilter, "limit" | "offset">>(filter: F): Promise<F> {
    if (!filter.q) return filter;
    const homes = this.db("properties")
      .select("id")
      .whereRaw("search_text like ?", [searchPattern(filter.q)]);
    const customers = this.db("customers").select("id").whereRaw("lower(email) = ?", [filter.q.trim().toLowerCase()]);
    const [plans, quotes] = await Promise.all([
      this.db("subscriptions")
        .whereIn("property_id", homes)
        .union((u) => u.select("id").from("subscriptions").whereIn("customer_id", customers))
        .pluck("id"),
      this.db("quote_requests").whereIn("property_id", homes).pluck("id"),
    ]);
    const number = invoiceNumberOf(filter.q) ?? filter.q.trim().toUpperCase();
    return { ...filter, matches: { subscriptionIds: plans, quoteRequestIds: quotes, number } };
  }

  /** The staff list's query, newest first (also the CSV export's, through a cursor); a search is `found` first. */
  listQuery(filter: Omit<InvoiceFilter, "limit" | "offset">): Knex.QueryBuilder {
    if (filter.q && !filter.matches) throw new Error("An invoice search is looked up first: found()");
    const query = this.db("invoices as i")
      // A quote's invoice has no subscription: its payer is its home's customer (docs/decisions.md#43).
      .leftJoin("subscriptions as s", "s.id", "i.subscription_id")
      .leftJoin("quote_requests as q", "q.id", "i.quote_request_id")
      .leftJoin("properties as qp", "qp.id", "q.property_id")
      .leftJoin("maintenance_tasks as qt", "qt.id", "q.maintenance_task_id")
      .leftJoin("customers as c", "c.id", this.db.raw("coalesce(s.customer_id, qp.customer_id)"))
      .select(
        "i.*",
        "s.plan_type",
        "s.price_list",
        "s.payer_name",
        "s.payer_email",
        "c.name as customer_name",
        "c.email as customer_email",
        "qt.title as quote_title",
        this.db.raw(
          "(select coalesce(sum(r.tax_cents), 0) from refunds r where r.invoice_id = i.id) as refunded_tax_cents",
        ),
      );
    return filtered(query, filter).orderBy([
      { column: "i.period_start", order: "desc" },
      { column: "i.id", order: "desc" },
    ]);
  }

  /** The filter's conditions on a query of `invoices as i` (its count, an EXPLAIN). */
  filterOf(query: Knex.QueryBuilder, filter: Omit<InvoiceFilter, "limit" | "offset">): Knex.QueryBuilder {
    return filtered(query, filter);
  }

  async list(search: InvoiceFilter): Promise<{ rows: InvoiceListRow[]; total: number }> {
    const filter = await this.found(search);
    const rows = await this.listQuery(filter).limit(filter.limit).offset(filter.offset);
    const count = filtered(this.db("invoices as i"), filter);
    const [counted] = await count.count({ n: "*" });
    return { rows: rows.map(toListRow), total: Number(counted?.n ?? 0) };
  }

  /** The subscription and the payer's e-mail of an invoice (My Home checks the homeowner's). */
  async owner(id: number): Promise<{ subscriptionId: number; propertyId: number | null } | null> {
    const row = await this.db("invoices as i")
      .join("subscriptions as s", "s.id", "i.subscription_id")
      .where("i.id", id)
      .first("i.subscription_id", "s.property_id");
    return row
      ? { subscriptionId: row.subscription_id as number, propertyId: (row.property_id as number | null) ?? null }
      : null;
  }
}
