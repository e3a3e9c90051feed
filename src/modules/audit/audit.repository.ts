import type { Knex } from "knex";
import type { Json } from "./audit.diff.js";
import type { AuditEvent, AuditQuery } from "./audit.schemas.js";

interface AuditRow {
  id: string;
  created_at: Date;
  actor_id: number | null;
  actor_email: string | null;
  actor: string;
  action: string;
  record_type: string;
  record_id: string;
  before: Json;
  after: Json;
}

const toEvent = (row: AuditRow): AuditEvent => ({
  id: Number(row.id),
  createdAt: row.created_at.toISOString(),
  actorId: row.actor_id,
  actorEmail: row.actor_email,
  actor: row.actor,
  action: row.action,
  recordType: row.record_type,
  recordId: row.record_id,
  before: row.before,
  after: row.after,
});

/** audit_events' SQL (docs/decisions.md#39). */
export class AuditRepository {
  constructor(
    private readonly db: Knex,
    private readonly timeZone: string,
  ) {}

  /** One event in the caller's transaction; the actor's e-mail is read from staff_users as it is now. */
  async insert(
    tx: Knex | Knex.Transaction,
    event: {
      actor: string;
      actorId: number | null;
      action: string;
      recordType: string;
      recordId: string;
      before: Json;
      after: Json;
    },
  ): Promise<void> {
    await tx("audit_events").insert({
      actor: event.actor,
      actor_id: event.actorId,
      actor_email: event.actorId === null ? null : tx("staff_users").select("email").where({ id: event.actorId }),
      action: event.action,
      record_type: event.recordType,
      record_id: event.recordId,
      before: event.before === null ? null : JSON.stringify(event.before),
      after: event.after === null ? null : JSON.stringify(event.after),
    });
  }

  private filtered(query: Omit<AuditQuery, "limit" | "offset" | "before" | "format">): Knex.QueryBuilder {
    const q = this.db<AuditRow>("audit_events");
    if (query.actorId !== undefined) q.where("actor_id", query.actorId);
    if (query.recordType) q.where("record_type", query.recordType);
    if (query.recordId) q.where("record_id", query.recordId);
    // Dates are business days (BUSINESS_TZ), both ends included.
    if (query.from) q.whereRaw("created_at >= (?::date)::timestamp at time zone ?", [query.from, this.timeZone]);
    if (query.to) q.whereRaw("created_at < (?::date + 1)::timestamp at time zone ?", [query.to, this.timeZone]);
    return q;
  }

  /** A page, newest first, after the event id `before` (keyset: docs/decisions.md#15). */
  async list(query: AuditQuery): Promise<{ rows: AuditEvent[]; next: number | null; total: number }> {
    const q = this.filtered(query);
    if (query.before !== undefined) q.where("id", "<", query.before);
    const [rows, counted]: [AuditRow[], { n: string }[]] = await Promise.all([
      q
        .orderBy("id", "desc")
        .offset(query.offset)
        .limit(query.limit + 1),
      this.filtered(query).count("* as n"),
    ]);
    const page = rows.slice(0, query.limit).map(toEvent);
    return { rows: page, next: rows.length > query.limit ? page.at(-1)!.id : null, total: Number(counted[0]?.n ?? 0) };
  }

  /** Every matching event, newest first, a batch at a time (keyset, so memory stays flat). */
  async *batches(
    query: Omit<AuditQuery, "limit" | "offset" | "before" | "format">,
    size = 500,
  ): AsyncGenerator<AuditEvent[]> {
    let before: number | undefined;
    for (;;) {
      const q = this.filtered(query);
      if (before !== undefined) q.where("id", "<", before);
      const rows: AuditRow[] = await q.orderBy("id", "desc").limit(size);
      if (!rows.length) return;
      yield rows.map(toEvent);
      if (rows.length < size) return;
      before = Number(rows.at(-1)!.id);
    }
  }

  /** The staff who appear in the trail, for the person filter. */
  async actors(): Promise<{ id: number; email: string }[]> {
    return this.db("audit_events")
      .distinct("actor_id as id")
      .select(this.db.raw("max(actor_email) as email"))
      .whereNotNull("actor_id")
      .groupBy("actor_id")
      .orderBy("email");
  }

  /**
   * The events about these records, or whose before/after mention one of these strings, locked for update
   * (erasure runs in the caller's transaction).
   */
  async forErasure(
    tx: Knex.Transaction,
    records: { type: string; ids: (number | string)[] }[],
    strings: readonly string[],
  ): Promise<{ id: string; record_type: string; record_id: string; before: Json; after: Json }[]> {
    // A wide first cut (any mention); AuditLog keeps the events that name the person exactly.
    const q = tx("audit_events").select("id", "record_type", "record_id", "before", "after");
    q.where((w) => {
      w.whereRaw("false");
      for (const { type, ids } of records) {
        if (ids.length) w.orWhere((r) => r.where("record_type", type).whereIn("record_id", ids.map(String)));
      }
      for (const s of strings) {
        if (s.length < 3) continue;
        const like = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        w.orWhereRaw("before::text ilike ?", [like]).orWhereRaw("after::text ilike ?", [like]);
      }
    });
    return q.forUpdate();
  }

  async replaceChanges(tx: Knex.Transaction, id: string, before: Json, after: Json): Promise<void> {
    await tx("audit_events")
      .where({ id })
      .update({
        before: before === null ? null : JSON.stringify(before),
        after: after === null ? null : JSON.stringify(after),
      });
  }
}
