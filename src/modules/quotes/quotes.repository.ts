import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { QuotePriority, QuoteRequest, QuoteStatus } from "./quotes.constants.js";

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));
const cents = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const toQuote = (row: Row): QuoteRequest => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  maintenanceTaskId: row.maintenance_task_id as number,
  propertyAddress: row.property_address as string,
  clientName: row.client_name as string,
  clientEmail: row.client_email as string,
  taskTitle: row.task_title as string,
  taskDescription: (row.task_description as string | null) ?? null,
  status: row.status as QuoteStatus,
  priority: row.priority as QuotePriority,
  quotedAmount: (row.quoted_amount as string | null) ?? null,
  quotedCents: cents(row.quoted_cents),
  adminNotes: (row.admin_notes as string | null) ?? null,
  clientNotes: (row.client_notes as string | null) ?? null,
  version: row.version as number,
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
});

export interface QuoteLinkRow {
  id: number;
  propertyId: number;
  clientEmail: string;
  quoteRequestIds: number[];
  totalCents: number | null;
  expiresAt: string;
  revoked: boolean;
  claimedAt: string | null;
  browserBinding: string | null;
  completedAt: string | null;
  createdAt: string;
}

const toLink = (row: Row): QuoteLinkRow => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  clientEmail: row.client_email as string,
  quoteRequestIds: row.quote_request_ids as number[],
  totalCents: cents(row.total_cents),
  expiresAt: iso(row.expires_at)!,
  revoked: row.revoked as boolean,
  claimedAt: iso(row.claimed_at),
  browserBinding: (row.browser_binding as string | null) ?? null,
  completedAt: iso(row.completed_at),
  createdAt: iso(row.created_at)!,
});

const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class QuotesRepository {
  constructor(private readonly db: Knex) {}

  private joined(tx: Tx | Knex = this.db) {
    return tx("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .select(
        "q.*",
        tx.raw("concat_ws(', ', p.address, p.city, nullif(concat_ws(' ', coalesce(p.province, p.state), p.postal_code), '')) as property_address"),
        "p.client_name",
        "p.client_email",
        "t.title as task_title",
        "t.description as task_description",
      );
  }

  /** One request per task: a task that already has one keeps it. */
  async insertMany(
    rows: { propertyId: number; maintenanceTaskId: number; shareId: number | null; priority: QuotePriority; clientNotes: string | null }[],
    tx: Tx,
  ): Promise<number[]> {
    if (!rows.length) return [];
    const inserted = await tx("quote_requests")
      .insert(rows.map((r) => ({ property_id: r.propertyId, maintenance_task_id: r.maintenanceTaskId, share_id: r.shareId, priority: r.priority, client_notes: r.clientNotes })))
      .onConflict("maintenance_task_id")
      .ignore()
      .returning("id");
    return inserted.map((r: Row) => r.id as number);
  }

  async list(options: { limit: number; offset: number; q?: string; status?: QuoteStatus; propertyId?: number }): Promise<{ rows: QuoteRequest[]; total: number }> {
    const filter = (query: Knex.QueryBuilder) => {
      if (options.status) query.where("q.status", options.status);
      if (options.propertyId) query.where("q.property_id", options.propertyId);
      if (options.q) {
        const like = escapeLike(options.q);
        query.where((w) => w.whereILike("p.address", like).orWhereILike("t.title", like).orWhereILike("p.client_name", like).orWhereILike("p.client_email", like));
      }
      return query;
    };
    const counted = await filter(this.db("quote_requests as q").join("properties as p", "p.id", "q.property_id").join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")).count({ n: "*" }).first();
    const rows = await filter(this.joined())
      .orderBy([
        { column: "q.created_at", order: "desc" },
        { column: "q.id", order: "desc" },
      ])
      .limit(options.limit)
      .offset(options.offset);
    return { total: Number(counted?.n ?? 0), rows: rows.map(toQuote) };
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<QuoteRequest | null> {
    const row = await this.joined(tx).where("q.id", id).first();
    return row ? toQuote(row) : null;
  }

  /** Locks the request's row until the transaction ends: concurrent moves queue up here. */
  async lock(id: number, tx: Tx): Promise<{ id: number; status: QuoteStatus; maintenanceTaskId: number; propertyId: number; version: number } | null> {
    const row = await tx("quote_requests").where({ id }).forUpdate().first();
    return row ? { id: row.id, status: row.status, maintenanceTaskId: row.maintenance_task_id, propertyId: row.property_id, version: row.version } : null;
  }

  async update(
    id: number,
    patch: { status: QuoteStatus; quotedAmount?: string | null; quotedCents?: number | null; adminNotes?: string | null; quoted?: boolean; decided?: boolean },
    tx: Tx,
  ): Promise<void> {
    await tx("quote_requests")
      .where({ id })
      .update({
        status: patch.status,
        ...(patch.quotedAmount !== undefined && { quoted_amount: patch.quotedAmount, quoted_cents: patch.quotedCents ?? null }),
        ...(patch.adminNotes !== undefined && { admin_notes: patch.adminNotes }),
        ...(patch.quoted && { quoted_at: tx.fn.now() }),
        ...(patch.decided && { decided_at: tx.fn.now() }),
        version: tx.raw("version + 1"),
        updated_at: tx.fn.now(),
      });
  }

  async delete(id: number): Promise<boolean> {
    return (await this.db("quote_requests").where({ id }).delete()) > 0;
  }

  async byIds(ids: number[], tx: Tx | Knex = this.db): Promise<QuoteRequest[]> {
    if (!ids.length) return [];
    const rows = await this.joined(tx).whereIn("q.id", ids);
    const byId = new Map(rows.map((r: Row) => [r.id as number, toQuote(r)]));
    return ids.map((id) => byId.get(id)).filter((q): q is QuoteRequest => Boolean(q));
  }

  async quotedOfProperty(propertyId: number, tx: Tx): Promise<QuoteRequest[]> {
    const rows = await this.joined(tx).where({ "q.property_id": propertyId, "q.status": "quoted" }).orderBy("q.id");
    return rows.map(toQuote);
  }

  async insertLink(link: { propertyId: number; tokenHash: string; clientEmail: string; quoteRequestIds: number[]; totalCents: number | null; expiresAt: Date }, tx: Tx): Promise<QuoteLinkRow> {
    const [row] = await tx("quote_report_links")
      .insert({
        property_id: link.propertyId,
        token_hash: link.tokenHash,
        client_email: link.clientEmail,
        quote_request_ids: link.quoteRequestIds,
        total_cents: link.totalCents,
        expires_at: link.expiresAt,
      })
      .returning("*");
    return toLink(row);
  }

  async findLinkById(id: number): Promise<QuoteLinkRow | null> {
    const row = await this.db("quote_report_links").where({ id }).first();
    return row ? toLink(row) : null;
  }

  async findLinkByHash(tokenHash: string, tx: Tx | Knex = this.db, lock = false): Promise<QuoteLinkRow | null> {
    const query = tx("quote_report_links").where({ token_hash: tokenHash }).first();
    const row = await (lock ? query.forUpdate() : query);
    return row ? toLink(row) : null;
  }

  async claimLink(tokenHash: string, bindingHash: string): Promise<QuoteLinkRow | null> {
    const [row] = await this.db("quote_report_links")
      .where({ token_hash: tokenHash, revoked: false })
      .whereNull("claimed_at")
      .whereNull("completed_at")
      .where("expires_at", ">", this.db.fn.now())
      .update({ claimed_at: this.db.fn.now(), browser_binding: bindingHash })
      .returning("*");
    return row ? toLink(row) : null;
  }

  async completeLink(id: number, tx: Tx): Promise<void> {
    await tx("quote_report_links").where({ id }).update({ completed_at: tx.fn.now() });
  }
}
