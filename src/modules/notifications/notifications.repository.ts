import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { Notification } from "./notifications.schemas.js";

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : ((v as string | null) ?? null));

export interface NotificationRow {
  kind: string;
  recordType: string;
  recordId: string;
  link: string;
  text: string;
  onceKey?: string | null;
  createdAt?: Date;
}

export interface NotificationFilter {
  kind?: string;
  unread?: boolean;
  /** Business days (both included) in `timeZone`. */
  from?: string;
  to?: string;
}

/** The list shows the latest ones: older notifications stay in the table, reachable by the day filters. */
const LIST_LIMIT = 100;

export class NotificationsRepository {
  constructor(
    readonly knex: Knex,
    private readonly timeZone: string,
  ) {}

  /** One notification; a second with the same once key is nothing (returns false). */
  async insert(tx: Tx | Knex, row: NotificationRow): Promise<boolean> {
    const inserted = await tx("notifications")
      .insert({
        kind: row.kind,
        record_type: row.recordType,
        record_id: row.recordId,
        link: row.link,
        text: row.text,
        once_key: row.onceKey ?? null,
        ...(row.createdAt ? { created_at: row.createdAt } : {}),
      })
      .onConflict("once_key")
      .ignore()
      .returning("id");
    return inserted.length > 0;
  }

  private unreadBy(query: Knex.QueryBuilder, staffUserId: number) {
    return query.whereNotExists((q) =>
      q
        .select(this.knex.raw("1"))
        .from("notification_reads as r")
        .whereRaw("r.notification_id = n.id")
        .andWhere("r.staff_user_id", staffUserId),
    );
  }

  async unreadCount(staffUserId: number, cap: number): Promise<number> {
    const inner = this.unreadBy(this.knex("notifications as n").select("n.id"), staffUserId).limit(cap);
    const row = await this.knex.from(inner.as("x")).count<{ n: string }[]>("* as n").first();
    return Number(row?.n ?? 0);
  }

  async list(staffUserId: number, filter: NotificationFilter): Promise<Notification[]> {
    const query = this.knex("notifications as n")
      .leftJoin("notification_reads as r", (j) =>
        j.on("r.notification_id", "n.id").andOn("r.staff_user_id", this.knex.raw("?", [staffUserId])),
      )
      .select("n.*", "r.read_at")
      .orderBy([
        { column: "n.created_at", order: "desc" },
        { column: "n.id", order: "desc" },
      ])
      .limit(LIST_LIMIT);
    if (filter.kind) query.where("n.kind", filter.kind);
    if (filter.unread === true) query.whereNull("r.read_at");
    if (filter.unread === false) query.whereNotNull("r.read_at");
    if (filter.from) query.whereRaw("(n.created_at at time zone ?)::date >= ?::date", [this.timeZone, filter.from]);
    if (filter.to) query.whereRaw("(n.created_at at time zone ?)::date <= ?::date", [this.timeZone, filter.to]);
    return (await query).map((row: Row) => ({
      id: Number(row.id),
      kind: row.kind as string,
      recordType: row.record_type as string,
      recordId: row.record_id as string,
      link: row.link as string,
      text: row.text as string,
      createdAt: iso(row.created_at)!,
      readAt: iso(row.read_at),
    }));
  }

  /** Marks these (or every unread) notification read for the staff user; returns how many were newly marked. */
  async markRead(staffUserId: number, ids: number[] | "all"): Promise<number> {
    const source = this.unreadBy(
      this.knex("notifications as n").select("n.id", this.knex.raw("?::int", [staffUserId])),
      staffUserId,
    );
    if (ids !== "all") source.whereIn("n.id", ids);
    const result = await this.knex.raw(
      `insert into notification_reads (notification_id, staff_user_id) ${source.toQuery()} on conflict do nothing`,
    );
    return result.rowCount ?? 0;
  }

  /**
   * Customers whose plan was bought at least two days before `now`, still serving, and who have no inspection
   * booking: their oldest such subscription, by payer e-mail.
   */
  async paidNeverBooked(now: Date): Promise<{ subscriptionId: number; email: string; name: string | null }[]> {
    const result = await this.knex.raw(
      `select distinct on (lower(s.payer_email)) s.id, s.payer_email, s.payer_name
         from subscriptions s
        where s.payer_email is not null
          and s.status in ('active','trialing','past_due')
          and s.created_at <= ?::timestamptz - interval '2 days'
          and not exists (
            select 1 from inspection_bookings b
              left join customers c on c.id = b.customer_id
             where (s.property_id is not null and b.property_id = s.property_id)
                or (s.customer_id is not null and b.customer_id = s.customer_id)
                or lower(c.email) = lower(s.payer_email))
        order by lower(s.payer_email), s.created_at, s.id`,
      [now.toISOString()],
    );
    return result.rows.map((r: Row) => ({
      subscriptionId: r.id as number,
      email: r.payer_email as string,
      name: (r.payer_name as string | null) ?? null,
    }));
  }
}
