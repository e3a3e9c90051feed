import type { Knex } from "knex";
import type { BookedNotStarted, RecentInspection } from "./dashboard.schemas.js";

/**
 * Scheduled bookings no inspection has taken up yet: counted in Pending Inspections and listed by bookedNotStarted.
 * `has_inspection` is kept by a trigger on inspections, under a partial index (docs/decisions.md#80).
 */
export const UNTAKEN = "b.status = 'scheduled' and not b.has_inspection";

/**
 * Total Properties and Total Revenue, each the sum of the delta rows that triggers append in every writer's own
 * transaction (migration 20261220000100, docs/decisions.md#83): exact in every snapshot, and a few rows to read
 * rather than 100,000. Revenue is paid invoices plus one-time payments, before tax, net of refunds and lost disputes.
 */
const ROLLUP_SQL = `select figure, (sum(delta) filter (where figure = any(?)))::text as total, count(*)::int as rows
  from rollup_deltas group by figure`;

/** Past this many delta rows for one figure, a read folds them into one (a few hundred rows still sum in well under 1 ms). */
export const COMPACT_AFTER = 200;

export interface StatsRow {
  totalProperties: number;
  pendingInspections: number;
  completedThisMonth: number;
  /** Null when not counted: the reader sees no revenue (docs/decisions.md#36). */
  revenueCents: number | null;
}

/** Aggregates over properties, bookings, inspections and the revenue rollup (each an index scan or a few rows). */
export class DashboardRepository {
  constructor(private readonly db: Knex) {}

  /**
   * The four figures. Total Properties and Total Revenue come from the rollup (a few rows); the two pending counts
   * and the month's completions each read a partial index, at the same time on separate connections.
   * The month is the half-open instant range [from, to). Revenue is summed only when `revenue` asks for it.
   */
  async stats(month: { from: Date; to: Date }, inspectorId?: number, revenue = true): Promise<StatsRow> {
    if (inspectorId !== undefined) return this.inspectorStats(month, inspectorId);
    const value = async (sql: string, bindings: Date[] = []) => Number((await this.db.raw(sql, bindings)).rows[0].n);
    const [rollup, scheduledUntaken, openInspections, completedThisMonth] = await Promise.all([
      // Before tax, invoices net of refunds (docs/decisions.md#34) and of lost disputes (docs/decisions.md#53): tax
      // collected is not revenue. A payment that started a subscription is counted by its invoice.
      this.rollup(revenue ? ["properties", "revenue"] : ["properties"]),
      // Scheduled bookings no inspection has taken up yet (an inspection under way counts once, below).
      value(`select count(*) as n from inspection_bookings b where ${UNTAKEN}`),
      value("select count(*) as n from inspections where status <> 'completed'"),
      value(
        "select count(*) as n from inspections where status = 'completed' and completed_at >= ? and completed_at < ?",
        [month.from, month.to],
      ),
    ]);
    return {
      totalProperties: rollup.get("properties") ?? 0,
      pendingInspections: scheduledUntaken + openInspections,
      completedThisMonth,
      revenueCents: revenue ? (rollup.get("revenue") ?? 0) : null,
    };
  }

  /** The rollup's figures by name; folds their delta rows first when they have grown past COMPACT_AFTER. */
  async rollup(figures: string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.raw(ROLLUP_SQL, [figures]);
    if (rows.some((row: { rows: number }) => row.rows > COMPACT_AFTER)) await this.compact();
    // Every figure's rows are counted (to fold them), only the asked ones summed.
    const asked = rows.filter((row: { total: string | null }) => row.total !== null);
    return new Map(asked.map((row: { figure: string; total: string }) => [row.figure, Number(row.total)]));
  }

  /**
   * Folds each figure's delta rows into one, in one statement. Beside writers: a row not yet committed is not
   * deleted, and counts once it is. Beside another compaction: a row is deleted by one of them only (the other
   * skips it once the first commits), and each inserts the sum of what it deleted.
   */
  async compact(): Promise<void> {
    await this.db.raw(
      `with gone as (delete from rollup_deltas returning figure, delta)
       insert into rollup_deltas (figure, delta) select figure, sum(delta) from gone group by figure`,
    );
  }

  /**
   * An inspector's own figures (docs/decisions.md#36): the homes of their bookings and inspections, their
   * bookings not yet taken up and open inspections, their inspections completed this month; no revenue.
   */
  private async inspectorStats(month: { from: Date; to: Date }, inspectorId: number): Promise<StatsRow> {
    const { rows } = await this.db.raw(
      `select
         (select count(*) from (select property_id from inspection_bookings where inspector_id = :id
                                union select property_id from inspections where inspector_id = :id) homes) as homes,
         (select count(*) from inspection_bookings b where b.inspector_id = :id and ${UNTAKEN}) as untaken,
         (select count(*) from inspections where inspector_id = :id and status <> 'completed') as open,
         (select count(*) from inspections where inspector_id = :id and status = 'completed'
             and completed_at >= :from and completed_at < :to) as completed`,
      { id: inspectorId, from: month.from, to: month.to },
    );
    const row = rows[0];
    return {
      totalProperties: Number(row.homes),
      pendingInspections: Number(row.untaken) + Number(row.open),
      completedThisMonth: Number(row.completed),
      revenueCents: null,
    };
  }

  /**
   * The bookings Pending Inspections counts beside the open inspections, soonest first: every one, or an
   * inspector's own (docs/decisions.md#55), so the list it links to holds exactly its count.
   */
  async bookedNotStarted(inspectorId?: number): Promise<BookedNotStarted[]> {
    const query = this.db("inspection_bookings as b")
      .join("properties as p", "p.id", "b.property_id")
      .leftJoin("staff_users as s", "s.id", "b.inspector_id")
      .whereRaw(UNTAKEN)
      .select(
        "b.id",
        "b.property_id",
        "b.scheduled_date",
        "b.time_slot",
        "p.address",
        "p.city",
        "p.client_name",
        this.db.raw("nullif(trim(s.first_name || ' ' || s.last_name), '') as inspector_name"),
      )
      .orderBy([{ column: "b.scheduled_date" }, { column: "b.id" }]);
    if (inspectorId !== undefined) query.where("b.inspector_id", inspectorId);
    return (await query).map((row: Record<string, unknown>) => ({
      bookingId: row.id as number,
      propertyId: row.property_id as number,
      scheduledDate: toDateString(row.scheduled_date),
      timeSlot: row.time_slot as string,
      address: row.address as string,
      city: row.city as string,
      clientName: row.client_name as string,
      inspectorName: (row.inspector_name as string | null) ?? null,
    }));
  }

  /**
   * The latest inspections, newest first, with their property's address and client; an inspector's own only
   * (docs/decisions.md#36).
   */
  async recentInspections(limit: number, inspectorId?: number): Promise<RecentInspection[]> {
    const query = this.db("inspections as i");
    if (inspectorId !== undefined) query.where("i.inspector_id", inspectorId);
    const rows = await query
      .join("properties as p", "p.id", "i.property_id")
      .select(
        "i.id",
        "i.property_id",
        "i.inspection_date",
        "i.status",
        "i.overall_score",
        "i.created_at",
        "p.address",
        "p.city",
        "p.client_name",
      )
      .orderBy([
        { column: "i.created_at", order: "desc" },
        { column: "i.id", order: "desc" },
      ])
      .limit(limit);
    return rows.map((row: Record<string, unknown>) => ({
      id: row.id as number,
      propertyId: row.property_id as number,
      inspectionDate: toDateString(row.inspection_date),
      status: row.status as string,
      overallScore: (row.overall_score as number | null) ?? null,
      createdAt: (row.created_at as Date).toISOString(),
      address: row.address as string,
      city: row.city as string,
      clientName: row.client_name as string,
    }));
  }
}

/** A date column as 'YYYY-MM-DD', whether the driver gave a string or a Date. */
const toDateString = (value: unknown) =>
  value instanceof Date
    ? `${value.getFullYear()}-${String(value.getMonth() + 1).padStart(2, "0")}-${String(value.getDate()).padStart(2, "0")}`
    : String(value);
