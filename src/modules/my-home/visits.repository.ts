// SQL of My Home's Visits and Account, part of My Home's read model (README "Read model"): a homeowner's dated tasks, their e-mail preferences and the
// hash of their private calendar feed. Callers pass property ids already checked by HomeAccess.
import type { Knex } from "knex";
import { DATED_TASK_COLUMNS, type DatedTask, toDatedTask } from "../maintenance/index.js";

type Row = Record<string, unknown>;

/** A dated task of the homeowner's property, with its plan service when a subscription's schedule made it. */
export interface HomeTask extends DatedTask {
  /** The plans.catalog.ts key ('window-cleaning') of a plan visit; null for other maintenance. */
  planService: string | null;
  /** When the homeowner skipped it (docs/decisions.md#44); a skipped visit stays listed. */
  skippedAt: string | null;
  /** The series date a moved plan visit stands for. */
  seriesDate: string | null;
  /** The plan service's RFC 5545 rule (its move window), null for other tasks. */
  rrule: string | null;
}

export class VisitsRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Tasks dated in [from, to] of these properties, not cancelled (completed ones stay: they happened; skipped plan
   * visits stay: they can be restored), by date.
   */
  async tasks(propertyIds: number[], from: string, to: string, limit = 1000): Promise<HomeTask[]> {
    if (!propertyIds.length) return [];
    const rows = await this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .leftJoin("maintenance_schedules as s", "s.id", "t.schedule_id")
      .whereIn("t.property_id", propertyIds)
      .whereBetween("t.scheduled_date", [from, to])
      .where((w) => w.whereNot("t.status", "cancelled").orWhereNotNull("t.skipped_at"))
      .select(...DATED_TASK_COLUMNS, "s.plan_service", "s.rrule")
      .orderBy([{ column: "t.scheduled_date" }, { column: "t.id" }])
      .limit(limit);
    return rows.map(toHomeTask);
  }

  /** One dated task of these properties (any status), as the Visits list reads it; null when none. */
  async task(propertyIds: number[], id: number): Promise<HomeTask | null> {
    const row = await this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .leftJoin("maintenance_schedules as s", "s.id", "t.schedule_id")
      .whereIn("t.property_id", propertyIds)
      .where("t.id", id)
      .whereNotNull("t.scheduled_date")
      .first(...DATED_TASK_COLUMNS, "s.plan_service", "s.rrule");
    return row ? toHomeTask(row) : null;
  }

  // --- Preferences ---

  async remindersOn(email: string): Promise<boolean> {
    const row = await this.db("home_preferences").where({ email: email.toLowerCase() }).first("reminders");
    return row ? Boolean(row.reminders) : true;
  }

  async setReminders(email: string, on: boolean): Promise<void> {
    await this.db("home_preferences")
      .insert({ email: email.toLowerCase(), reminders: on, updated_at: this.db.fn.now() })
      .onConflict("email")
      .merge(["reminders", "updated_at"]);
  }

  // --- The private feed ---

  async replaceFeed(email: string, secretHash: string): Promise<void> {
    await this.db("home_calendar_feeds")
      .insert({ email: email.toLowerCase(), secret_hash: secretHash, created_at: this.db.fn.now() })
      .onConflict("email")
      .merge(["secret_hash", "created_at"]);
  }

  async feedOwner(secretHash: string): Promise<string | null> {
    const row = await this.db("home_calendar_feeds").where({ secret_hash: secretHash }).first("email");
    return (row?.email as string | undefined) ?? null;
  }

  async feedCreatedAt(email: string): Promise<string | null> {
    const row = await this.db("home_calendar_feeds").where({ email: email.toLowerCase() }).first("created_at");
    return row ? (row.created_at as Date).toISOString() : null;
  }
}

const toHomeTask = (r: Row): HomeTask => ({
  ...toDatedTask(r),
  planService: (r.plan_service as string | null) ?? null,
  skippedAt: r.skipped_at ? new Date(r.skipped_at as Date).toISOString() : null,
  seriesDate: (r.series_date as string | null) ?? null,
  rrule: (r.rrule as string | null) ?? null,
});
