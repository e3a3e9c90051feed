import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import type { QuotePriority, QuoteRequest, QuoteSource, QuoteStatus } from "./quotes.constants.js";

/**
 * A request as stored: the service resolves its tax province (decisions.md#42) and adds its figures. `postalCode`
 * is the property's, for a quote made before the province was stored.
 */
export type QuoteRow = Omit<QuoteRequest, "taxProvince" | "totals"> & {
  taxProvince: string | null;
  postalCode: string | null;
};

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));
const cents = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const toQuote = (row: Row): QuoteRow => ({
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
  scope: (row.scope as string | null) ?? null,
  validUntil: (row.valid_until as string | null) ?? null,
  taxProvince: (row.tax_province as string | null) ?? null,
  postalCode: (row.postal_code as string | null) ?? null,
  quotedAt: iso(row.quoted_at),
  assigneeName: (row.assignee_name as string | null) ?? null,
  version: row.version as number,
  clientNotedAt: iso(row.client_noted_at)!,
  source: row.source === "portal" ? "portal" : "link",
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

/** The open statuses: a task holds at most one request in them (migration 20261102000200_quote_notes). */
const OPEN_STATUS_SQL = "status in ('pending','quoted','accepted')";

const escapeLike = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One line of the staff bell from clients: a quote request the client made or added to, or a report a client
 * answered. Everything else the office acts on is a notification (src/modules/notifications).
 */
export interface BellItem {
  kind: "quote" | "asked-again" | "response";
  id: number;
  at: string;
  propertyId: number;
  address: string;
  clientName: string;
  /** The task's title (quote lines; null for responses). */
  title: string | null;
  /** The answered report (response lines; null for quotes). */
  reportId: number | null;
  isNew: boolean;
}

/**
 * The bell's rows after `:from` (replaced by a SQL expression): quote requests by when the client last added to
 * them, and answered report links by when they were answered.
 */
const BELL_SQL = `
  select 'quote' as kind, q.id, q.client_noted_at as at, q.client_noted_at > q.created_at as again, p.id as property_id,
         p.address, p.client_name, t.title, null::int as report_id
    from quote_requests q join properties p on p.id = q.property_id join maintenance_tasks t on t.id = q.maintenance_task_id
   where q.client_noted_at > :from
  union all
  select 'response', s.id, s.responded_at, false, p.id, p.address, p.client_name, null, s.report_id
    from report_shares s join reports r on r.id = s.report_id join properties p on p.id = r.property_id
   where s.responded_at > :from`;

/** Until a staff user first opens the bell, the last 7 days count as new. */
const SEEN_SQL = "coalesce((select bell_seen_at from staff_users where id = :staffUserId), now() - interval '7 days')";

export class QuotesRepository {
  constructor(private readonly db: Knex) {}

  /** How many bell rows are new for this staff user, up to `cap`. */
  async bellCount(staffUserId: number, cap: number): Promise<number> {
    const result = await this.db.raw(
      `select count(*)::int as n from (${BELL_SQL.replaceAll(":from", SEEN_SQL)} limit :cap) x`,
      { staffUserId, cap },
    );
    return result.rows[0].n as number;
  }

  /** The latest bell rows of the last `days` days, newest first, each marked new or not for this staff user. */
  async bellItems(staffUserId: number, limit: number, days: number): Promise<BellItem[]> {
    const result = await this.db.raw(
      `select x.*, x.at > ${SEEN_SQL} as is_new from (${BELL_SQL.replaceAll(":from", "now() - make_interval(days => :days)")}) x order by x.at desc, x.kind, x.id desc limit :limit`,
      { staffUserId, limit, days },
    );
    return result.rows.map((row: Row) => ({
      kind: row.kind === "response" ? row.kind : row.again ? "asked-again" : "quote",
      id: row.id as number,
      at: iso(row.at)!,
      propertyId: row.property_id as number,
      address: row.address as string,
      clientName: row.client_name as string,
      title: (row.title as string | null) ?? null,
      reportId: (row.report_id as number | null) ?? null,
      isNew: Boolean(row.is_new),
    }));
  }

  /** Seen up to `until`, the newest row shown (to its whole millisecond: Postgres keeps microseconds, JS not). */
  async markBellSeen(staffUserId: number, until: Date): Promise<void> {
    const seen = this.db.raw("greatest(bell_seen_at, ?::timestamptz + interval '1 millisecond')", [until]);
    await this.db("staff_users").where({ id: staffUserId }).update({ bell_seen_at: seen });
  }

  private joined(tx: Tx | Knex = this.db) {
    return tx("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .leftJoin("staff_users as su", "su.id", "t.assigned_to")
      .select(
        "q.*",
        "p.postal_code",
        tx.raw("nullif(concat_ws(' ', su.first_name, su.last_name), '') as assignee_name"),
        tx.raw(
          "concat_ws(', ', p.address, p.city, nullif(concat_ws(' ', coalesce(p.province, p.state), p.postal_code), '')) as property_address",
        ),
        "p.client_name",
        "p.client_email",
        "t.title as task_title",
        "t.description as task_description",
      );
  }

  /**
   * A client's request_quote: a new request, or, when the task already has an open one (pending, quoted,
   * accepted), `appendNote` added to its client notes, so nothing the client wrote is lost. One statement
   * against the partial unique index, so concurrent submissions for one task never make two open requests.
   */
  async upsertForClient(
    row: {
      propertyId: number;
      maintenanceTaskId: number;
      shareId: number | null;
      priority: QuotePriority;
      clientNotes: string | null;
      appendNote: string;
      source?: QuoteSource;
    },
    tx: Tx,
  ): Promise<{ id: number; created: boolean }> {
    const result = await tx.raw(
      `insert into quote_requests (property_id, maintenance_task_id, share_id, priority, client_notes, source)
       values (?, ?, ?, ?, ?, ?)
       on conflict (maintenance_task_id) where ${OPEN_STATUS_SQL}
       do update set client_notes = concat_ws(E'\\n\\n', nullif(quote_requests.client_notes, ''), ?::text),
                     client_noted_at = now(), updated_at = now(), version = quote_requests.version + 1
       returning id, (xmax = 0) as created`,
      [
        row.propertyId,
        row.maintenanceTaskId,
        row.shareId,
        row.priority,
        row.clientNotes,
        row.source ?? "link",
        row.appendNote,
      ],
    );
    const out = result.rows[0] as { id: number; created: boolean };
    return { id: out.id, created: out.created };
  }

  /** The list's filter, on a query that joins q, p and t. */
  private filtered(
    query: Knex.QueryBuilder,
    options: { q?: string; status?: QuoteStatus; propertyId?: number },
  ): Knex.QueryBuilder {
    if (options.status) query.where("q.status", options.status);
    if (options.propertyId) query.where("q.property_id", options.propertyId);
    if (options.q) {
      const like = escapeLike(options.q);
      query.where((w) =>
        w
          .whereILike("p.address", like)
          .orWhereILike("t.title", like)
          .orWhereILike("p.client_name", like)
          .orWhereILike("p.client_email", like),
      );
    }
    return query;
  }

  /** Every request `list` would page through, in its order, a batch at a time (CSV export). */
  exportRows(options: { q?: string; status?: QuoteStatus; propertyId?: number }): AsyncGenerator<QuoteRow[]> {
    const rows = this.filtered(this.joined(), options).orderBy([
      { column: "q.created_at", order: "desc" },
      { column: "q.id", order: "desc" },
    ]);
    return cursorBatches(this.db, rows, toQuote);
  }

  async list(options: {
    limit: number;
    offset: number;
    q?: string;
    status?: QuoteStatus;
    propertyId?: number;
  }): Promise<{ rows: QuoteRow[]; total: number }> {
    const filter = (query: Knex.QueryBuilder) => this.filtered(query, options);
    const counted = await filter(
      this.db("quote_requests as q")
        .join("properties as p", "p.id", "q.property_id")
        .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id"),
    )
      .count({ n: "*" })
      .first();
    const rows = await filter(this.joined())
      .orderBy([
        { column: "q.created_at", order: "desc" },
        { column: "q.id", order: "desc" },
      ])
      .limit(options.limit)
      .offset(options.offset);
    return { total: Number(counted?.n ?? 0), rows: rows.map(toQuote) };
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<QuoteRow | null> {
    const row = await this.joined(tx).where("q.id", id).first();
    return row ? toQuote(row) : null;
  }

  /** Locks the request's row until the transaction ends: concurrent moves queue up here. */
  async lock(
    id: number,
    tx: Tx,
  ): Promise<{
    id: number;
    status: QuoteStatus;
    maintenanceTaskId: number;
    propertyId: number;
    version: number;
    validUntil: string | null;
  } | null> {
    const row = await tx("quote_requests").where({ id }).forUpdate().first();
    return row
      ? {
          id: row.id,
          status: row.status,
          maintenanceTaskId: row.maintenance_task_id,
          propertyId: row.property_id,
          version: row.version,
          validUntil: row.valid_until ?? null,
        }
      : null;
  }

  async update(
    id: number,
    patch: {
      status: QuoteStatus;
      quotedAmount?: string | null;
      quotedCents?: number | null;
      adminNotes?: string | null;
      scope?: string | null;
      validUntil?: string | null;
      taxProvince?: string | null;
      quoted?: boolean;
      decided?: boolean;
    },
    tx: Tx,
  ): Promise<void> {
    await tx("quote_requests")
      .where({ id })
      .update({
        status: patch.status,
        ...(patch.quotedAmount !== undefined && {
          quoted_amount: patch.quotedAmount,
          quoted_cents: patch.quotedCents ?? null,
        }),
        ...(patch.adminNotes !== undefined && { admin_notes: patch.adminNotes }),
        ...(patch.scope !== undefined && { scope: patch.scope }),
        ...(patch.validUntil !== undefined && { valid_until: patch.validUntil }),
        ...(patch.taxProvince !== undefined && { tax_province: patch.taxProvince }),
        ...(patch.quoted && { quoted_at: tx.fn.now() }),
        ...(patch.decided && { decided_at: tx.fn.now() }),
        version: tx.raw("version + 1"),
        updated_at: tx.fn.now(),
      });
  }

  async delete(id: number, tx: Tx | Knex = this.db): Promise<boolean> {
    return (await tx("quote_requests").where({ id }).delete()) > 0;
  }

  async byIds(ids: number[], tx: Tx | Knex = this.db): Promise<QuoteRow[]> {
    if (!ids.length) return [];
    const rows = await this.joined(tx).whereIn("q.id", ids);
    const byId = new Map(rows.map((r: Row) => [r.id as number, toQuote(r)]));
    return ids.map((id) => byId.get(id)).filter((q): q is QuoteRow => Boolean(q));
  }

  async quotedOfProperty(propertyId: number, tx: Tx): Promise<QuoteRow[]> {
    const rows = await this.joined(tx).where({ "q.property_id": propertyId, "q.status": "quoted" }).orderBy("q.id");
    return rows.map(toQuote);
  }

  async insertLink(
    link: {
      propertyId: number;
      tokenHash: string;
      clientEmail: string;
      quoteRequestIds: number[];
      totalCents: number | null;
      expiresAt: Date;
    },
    tx: Tx,
  ): Promise<QuoteLinkRow> {
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

  /** The quote report links not yet completed that list this request. */
  async openLinksWith(quoteRequestId: number, tx: Tx): Promise<QuoteLinkRow[]> {
    const rows = await tx("quote_report_links")
      .whereNull("completed_at")
      .whereRaw("? = any(quote_request_ids)", [quoteRequestId]);
    return rows.map(toLink);
  }
}
