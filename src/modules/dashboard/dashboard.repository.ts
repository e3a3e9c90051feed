import type { Knex } from "knex";
import type { RecentInspection } from "./dashboard.schemas.js";

export interface StatsRow {
  totalProperties: number;
  pendingInspections: number;
  completedThisMonth: number;
  revenueCents: number;
}

/** Read-only aggregates over properties, bookings, inspections and payments (each an index scan). */
export class DashboardRepository {
  constructor(private readonly db: Knex) {}

  /** All four figures in one round trip; the month is the half-open instant range [from, to). */
  async stats(month: { from: Date; to: Date }): Promise<StatsRow> {
    const { rows } = await this.db.raw(
      `select
         (select count(*) from properties)::int as total_properties,
         ((select count(*) from inspection_bookings b
             where b.status = 'scheduled'
               and not exists (select 1 from inspections i where i.booking_id = b.id))
          + (select count(*) from inspections where status <> 'completed'))::int as pending_inspections,
         (select count(*) from inspections
             where status = 'completed' and completed_at >= ? and completed_at < ?)::int as completed_this_month,
         (select coalesce(sum(amount_cents), 0) from payments where status = 'succeeded')::bigint as revenue_cents`,
      [month.from, month.to],
    );
    const row = rows[0];
    return {
      totalProperties: row.total_properties,
      pendingInspections: row.pending_inspections,
      completedThisMonth: row.completed_this_month,
      revenueCents: Number(row.revenue_cents),
    };
  }

  /** The latest inspections, newest first, with their property's address and client. */
  async recentInspections(limit: number): Promise<RecentInspection[]> {
    const rows = await this.db("inspections as i")
      .join("properties as p", "p.id", "i.property_id")
      .select("i.id", "i.property_id", "i.inspection_date", "i.status", "i.overall_score", "i.created_at", "p.address", "p.city", "p.client_name")
      .orderBy([{ column: "i.created_at", order: "desc" }, { column: "i.id", order: "desc" }])
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
