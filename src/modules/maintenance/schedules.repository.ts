// Recurring schedules and their expansion into dated tasks (docs/decisions.md#12): the staff's schedules
// and a plan's services (plan-deliveries.ts) alike.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { MaintenanceSchedule, RecurrenceType, TaskCategory, TaskPriority } from "./maintenance.constants.js";
import { escapeLike } from "./task-sql.js";
import { iso } from "./task-rows.js";

type Row = Record<string, unknown>;

export class ScheduleRepository {
  constructor(private readonly db: Knex) {}

  async insertSchedule(schedule: NewScheduleRow, tx: Tx | Knex = this.db): Promise<MaintenanceSchedule> {
    const [row] = await tx("maintenance_schedules")
      .insert({
        property_id: schedule.propertyId,
        title: schedule.title,
        description: schedule.description,
        category: schedule.category,
        priority: schedule.priority,
        estimated_duration: schedule.estimatedDuration,
        recurrence_type: schedule.recurrenceType,
        recurrence_interval: schedule.recurrenceInterval,
        start_date: schedule.startDate,
        ...(schedule.scheduledTime && { scheduled_time: schedule.scheduledTime }),
        source_task_id: schedule.sourceTaskId,
        ...(schedule.planService && {
          subscription_id: schedule.planService.subscriptionId,
          plan_service: schedule.planService.key,
          rrule: schedule.planService.rrule,
          held: schedule.planService.held,
        }),
      })
      .returning("*");
    return toSchedule(row);
  }

  async listSchedules(filter: {
    limit: number;
    offset: number;
    q?: string;
    propertyId?: number;
  }): Promise<{ rows: MaintenanceSchedule[]; total: number }> {
    const base = this.db("maintenance_schedules as s").join("properties as p", "p.id", "s.property_id");
    if (filter.propertyId) base.where("s.property_id", filter.propertyId);
    if (filter.q) {
      const like = `%${escapeLike(filter.q)}%`;
      base.where((w) =>
        w
          .whereILike("s.title", like)
          .orWhereILike("s.description", like)
          .orWhereILike("p.address", like)
          .orWhereILike("p.client_name", like),
      );
    }
    const [{ n }] = (await base.clone().count({ n: "*" })) as [{ n: number }];
    const rows = await base
      .clone()
      .select("s.*", "p.address as property_address", "p.client_name")
      .orderBy([
        { column: "s.created_at", order: "desc" },
        { column: "s.id", order: "desc" },
      ])
      .limit(filter.limit)
      .offset(filter.offset);
    return { rows: rows.map(toSchedule), total: Number(n) };
  }

  /**
   * A batch of schedules, in id order after `afterId`, that are not yet expanded through `through`. An
   * ended plan-service schedule expands nothing more; an on-request one (no rule) never does.
   */
  async schedulesToExpand(
    through: string,
    afterId: number,
    batch: number,
    onlyIds?: number[],
  ): Promise<ExpandableSchedule[]> {
    const query = this.db("maintenance_schedules")
      .where("id", ">", afterId)
      .where("start_date", "<=", through)
      .where((w) => w.whereNull("expanded_through").orWhere("expanded_through", "<", through))
      .where(expandable)
      .select("id", "start_date", "recurrence_type", "recurrence_interval", "rrule", "expanded_through")
      .orderBy("id")
      .limit(batch);
    if (onlyIds) query.whereIn("id", onlyIds);
    return (await query).map((r) => ({
      id: r.id as number,
      startDate: r.start_date as string,
      recurrenceType: r.recurrence_type as RecurrenceType,
      recurrenceInterval: r.recurrence_interval as number,
      rrule: (r.rrule as string | null) ?? null,
      expandedThrough: (r.expanded_through as string | null) ?? null,
    }));
  }

  async countSchedulesToExpand(through: string, onlyIds?: number[]): Promise<number> {
    const query = this.db("maintenance_schedules")
      .where("start_date", "<=", through)
      .where((w) => w.whereNull("expanded_through").orWhere("expanded_through", "<", through))
      .where(expandable)
      .count({ n: "*" });
    if (onlyIds) query.whereIn("id", onlyIds);
    const [{ n }] = (await query) as [{ n: number }];
    return Number(n);
  }

  /**
   * One task per (schedule, date), copied from its schedule. The unique (schedule_id, scheduled_date) key
   * and ON CONFLICT DO NOTHING make a repeated or concurrent expansion add nothing twice; a date a moved visit
   * stands for (`series_date`, docs/decisions.md#44) is not made again.
   */
  async insertOccurrences(
    scheduleIds: number[],
    dates: string[],
    tx: Tx | Knex = this.db,
    returning = true,
  ): Promise<{ count: number; rows: CreatedOccurrence[] }> {
    if (!scheduleIds.length) return { count: 0, rows: [] };
    const result = await tx.raw(
      `insert into maintenance_tasks (property_id, schedule_id, title, description, category, priority, status, scheduled_date, scheduled_time, estimated_duration, held)
       select s.property_id, s.id, s.title, s.description, s.category, s.priority, 'scheduled', o.d, s.scheduled_time, s.estimated_duration, s.held
       from unnest(?::int[], ?::date[]) as o(sid, d) join maintenance_schedules s on s.id = o.sid
       where not exists (select 1 from maintenance_tasks m where m.schedule_id = o.sid and m.series_date = o.d)
       on conflict (schedule_id, scheduled_date) do nothing${returning ? " returning id, schedule_id, scheduled_date, title" : ""}`,
      [scheduleIds, dates],
    );
    const rows = ((result.rows ?? []) as Row[]).map((r) => ({
      id: r.id as number,
      scheduleId: r.schedule_id as number,
      scheduledDate: r.scheduled_date as string,
      title: r.title as string,
    }));
    return { count: result.rowCount ?? rows.length, rows };
  }

  /**
   * Of these schedules, those no other transaction holds, locked for this one; the others are skipped: another run
   * is writing their tasks and commits them, so runs at once never wait on each other's rows (docs/decisions.md#46).
   */
  async lockForExpansion(ids: number[], tx: Tx): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await tx("maintenance_schedules").whereIn("id", ids).forUpdate().skipLocked().select("id");
    return new Set(rows.map((row: Row) => row.id as number));
  }

  async markExpanded(ids: number[], through: string, tx: Tx | Knex = this.db): Promise<void> {
    if (!ids.length) return;
    await tx.raw(
      "update maintenance_schedules set expanded_through = greatest(coalesce(expanded_through, ?::date), ?::date), updated_at = now() where id = any(?::int[])",
      [through, through, ids],
    );
  }
}

/** Schedules the expansion reads: not ended, and with a cadence (staff schedules, or a plan service's rule). */
const expandable = (w: Knex.QueryBuilder) =>
  w.whereNull("ended_at").andWhere((c) => c.whereNull("plan_service").orWhereNotNull("rrule"));

const toSchedule = (row: Row): MaintenanceSchedule => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  title: row.title as string,
  description: (row.description as string | null) ?? null,
  category: row.category as TaskCategory,
  priority: row.priority as TaskPriority,
  estimatedDuration: (row.estimated_duration as number | null) ?? null,
  recurrenceType: row.recurrence_type as RecurrenceType,
  recurrenceInterval: row.recurrence_interval as number,
  startDate: row.start_date as string,
  scheduledTime: row.scheduled_time as string,
  sourceTaskId: (row.source_task_id as number | null) ?? null,
  expandedThrough: (row.expanded_through as string | null) ?? null,
  subscriptionId: (row.subscription_id as number | null) ?? null,
  planService: (row.plan_service as string | null) ?? null,
  rrule: (row.rrule as string | null) ?? null,
  held: Boolean(row.held),
  endedAt: iso(row.ended_at),
  createdAt: iso(row.created_at)!,
  ...(row.property_address !== undefined && {
    propertyAddress: row.property_address as string,
    clientName: row.client_name as string,
  }),
});

/** A new schedule row: the schedule's own fields, before the database gives it an id and a time. */
export type NewScheduleRow = Pick<
  MaintenanceSchedule,
  | "propertyId"
  | "title"
  | "description"
  | "category"
  | "priority"
  | "estimatedDuration"
  | "recurrenceType"
  | "recurrenceInterval"
  | "startDate"
  | "sourceTaskId"
> & {
  scheduledTime?: string;
  planService?: { subscriptionId: number; key: string; rrule: string | null; held: boolean };
};

export interface ExpandableSchedule {
  id: number;
  startDate: string;
  recurrenceType: RecurrenceType;
  recurrenceInterval: number;
  rrule: string | null;
  expandedThrough: string | null;
}

export interface CreatedOccurrence {
  id: number;
  scheduleId: number;
  scheduledDate: string;
  title: string;
}
