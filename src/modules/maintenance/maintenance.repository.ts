import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import type { PlanType } from "../plans/plans.schemas.js";
import type { MaintenanceSchedule, MaintenanceTask, NewTask, RecurrenceType, TaskCategory, TaskPriority, TaskStatus } from "./maintenance.constants.js";

import { type DatedTask, type ListedTask, iso, toTask } from "./task-rows.js";

export type { DatedTask, ListedTask };
export { toTask };

type Row = Record<string, unknown>;

/** A list row: the task with its property's address, client and assignee. */
const toListedTask = (r: Row): ListedTask => ({
  ...toTask(r),
  propertyAddress: r.property_address as string,
  clientName: r.client_name as string,
  assignedToName: (r.assigned_to_name as string | null) ?? null,
  planService: (r.plan_service as string | null) ?? null,
  planType: (r.plan_type as string | null) ?? null,
});

export class MaintenanceRepository {
  constructor(private readonly db: Knex) {}

  // --- Reads of other modules' tables for PlanDeliveries: documented exceptions (README "Plan deliveries") ---

  /**
   * The subscription a plan-service request names. An exception to "others call its service": the
   * subscriptions service calls PlanDeliveries in its own transactions, so PlanDeliveries cannot call it back.
   */
  planSubscription(id: number): Promise<{ id: number; property_id: number | null; plan_type: PlanType; status: string; billing_anchor: unknown } | undefined> {
    return this.db("subscriptions").where({ id }).first("id", "property_id", "plan_type", "status", "billing_anchor");
  }

  /**
   * When the property's last completed inspection ended, in the caller's transaction (the health report's due
   * date). An exception like planSubscription: it runs inside the subscription's transaction.
   */
  async lastCompletedInspectionAt(tx: Tx, propertyId: number): Promise<Date | null> {
    const row = await tx("inspections").where({ property_id: propertyId, status: "completed" }).whereNotNull("completed_at").max({ at: "completed_at" }).first();
    return row?.at ? new Date(row.at as Date) : null;
  }

  async insertTasks(tasks: NewTask[], tx: Tx | Knex = this.db): Promise<MaintenanceTask[]> {
    if (!tasks.length) return [];
    const rows = await tx("maintenance_tasks")
      .insert(
        tasks.map((t) => ({
          property_id: t.propertyId,
          report_id: t.reportId ?? null,
          schedule_id: t.scheduleId ?? null,
          title: t.title,
          description: t.description ?? null,
          category: t.category ?? "other",
          priority: t.priority ?? "medium",
          status: t.status ?? "pending",
          scheduled_date: t.scheduledDate ?? null,
          scheduled_time: t.scheduledTime ?? null,
          estimated_duration: t.estimatedDuration ?? null,
          notes: t.notes ?? null,
        })),
      )
      .returning("*");
    return rows.map(toTask);
  }

  async findTask(id: number, tx: Tx | Knex = this.db, lock = false): Promise<MaintenanceTask | null> {
    const query = tx("maintenance_tasks").where({ id }).first();
    const row = await (lock ? query.forUpdate() : query);
    return row ? toTask(row) : null;
  }

  /**
   * Deletes a report's recommendation tasks that nothing has acted on: never updated since the report made
   * them (every update sets updated_at), with no quote request and no schedule made from them.
   */
  async deleteUntouchedOfReport(reportId: number, tx: Tx | Knex = this.db): Promise<number> {
    const result = await tx.raw(
      `delete from maintenance_tasks t
        where t.report_id = ? and t.updated_at = t.created_at
          and not exists (select 1 from quote_requests q where q.maintenance_task_id = t.id)
          and not exists (select 1 from maintenance_schedules s where s.source_task_id = t.id)`,
      [reportId],
    );
    return result.rowCount ?? 0;
  }

  async setStatus(id: number, status: TaskStatus, tx: Tx | Knex = this.db): Promise<MaintenanceTask | null> {
    const [row] = await tx("maintenance_tasks")
      .where({ id })
      .update({ status, completed_at: status === "completed" ? tx.fn.now() : null, version: tx.raw("version + 1"), updated_at: tx.fn.now() })
      .returning("*");
    return row ? toTask(row) : null;
  }

  /** Any status, notes, and completedAt (now when completed without one; cleared otherwise); date, time, duration, assignee. */
  async updateTask(id: number, change: TaskChange, tx: Tx | Knex = this.db): Promise<MaintenanceTask | null> {
    const patch: Record<string, unknown> = { version: tx.raw("version + 1"), updated_at: tx.fn.now() };
    if (change.notes !== undefined) patch.notes = change.notes;
    if (change.scheduledDate !== undefined) patch.scheduled_date = change.scheduledDate;
    if (change.scheduledTime !== undefined) patch.scheduled_time = change.scheduledTime;
    if (change.estimatedDuration !== undefined) patch.estimated_duration = change.estimatedDuration;
    if (change.assignedTo !== undefined) patch.assigned_to = change.assignedTo;
    if (change.status !== undefined) {
      patch.status = change.status;
      patch.completed_at = change.status === "completed" ? (change.completedAt ?? tx.fn.now()) : null;
    }
    const [row] = await tx("maintenance_tasks").where({ id }).update(patch).returning("*");
    return row ? toTask(row) : null;
  }

  /** An active staff user with this id exists (a task's assignee). */
  async staffUserExists(id: number, tx: Tx | Knex = this.db): Promise<boolean> {
    return Boolean(await tx("staff_users").where({ id }).whereNull("disabled_at").first("id"));
  }

  /** Tasks with their property's address, client and assignee, newest first (or by date), and the full count. */
  async listTasks(filter: TaskFilter): Promise<{ rows: ListedTask[]; total: number }> {
    const { base, rows } = this.taskQuery(filter);
    const [{ n }] = (await base.clone().count({ n: "*" })) as [{ n: number }];
    return { rows: (await rows.limit(filter.limit).offset(filter.offset)).map(toListedTask), total: Number(n) };
  }

  /** Every task `listTasks` would page through, in its order, a batch at a time (CSV export). */
  exportTasks(filter: Omit<TaskFilter, "limit" | "offset">): AsyncGenerator<ListedTask[]> {
    return cursorBatches(this.db, this.taskQuery(filter).rows, toListedTask);
  }

  /** The list's filter (`base`, for the count) and its rows in the list's order, unpaged. */
  private taskQuery(filter: Omit<TaskFilter, "limit" | "offset">) {
    const base = this.db("maintenance_tasks as t").join("properties as p", "p.id", "t.property_id");
    if (filter.status) base.where("t.status", filter.status);
    if (filter.category) base.where("t.category", filter.category);
    if (filter.priority) base.where("t.priority", filter.priority);
    if (filter.assignedTo) base.where("t.assigned_to", filter.assignedTo);
    if (filter.propertyId) base.where("t.property_id", filter.propertyId);
    if (filter.from) base.where("t.scheduled_date", ">=", filter.from);
    if (filter.to) base.where("t.scheduled_date", "<=", filter.to);
    if (filter.q) {
      const like = `%${escapeLike(filter.q)}%`;
      base.where((w) => w.whereILike("t.title", like).orWhereILike("t.description", like).orWhereILike("p.address", like).orWhereILike("p.client_name", like));
    }
    const rows = base
      .clone()
      .leftJoin("staff_users as u", "u.id", "t.assigned_to")
      .select(
        "t.*",
        "p.address as property_address",
        "p.client_name",
        this.db.raw("nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') as assigned_to_name"),
        this.db.raw(`${PLAN_SERVICE_SQL("t.")} as plan_service`),
        this.db.raw(`${PLAN_TYPE_SQL("t.")} as plan_type`),
      );
    // Newest first: ids grow with creation, and the primary key serves the order (no index to keep up on
    // every one of the expansion's inserts). By date: the date-order index, the undated last.
    if (filter.sort === "date") rows.orderByRaw(`t.scheduled_date asc nulls last, ${CLOCK_SQL}, t.id`);
    else rows.orderBy("t.id", "desc");
    return { base, rows };
  }

  /**
   * The calendar's tasks in [from, to], without the completed ones, as JSON text built by Postgres (one
   * round trip, no per-row work in Node): `tasks` in date and time order, at most `perDay` a day when
   * given, and `counts`, every day's full number. A month of 10,000 tasks stays small and fast that way.
   */
  async calendarTasksJson(from: string, to: string, perDay?: number): Promise<{ tasks: string; counts: string }> {
    const task = `json_build_object(
        'id', x.id, 'propertyId', x.property_id, 'scheduleId', x.schedule_id, 'title', x.title, 'description', x.description,
        'category', x.category, 'priority', x.priority, 'status', x.status, 'scheduledDate', x.scheduled_date,
        'scheduledTime', coalesce(nullif(x.scheduled_time, ''), '${DEFAULT_TASK_TIME_SQL}'), 'estimatedDuration', x.estimated_duration, 'notes', x.notes, 'version', x.version,
        'assignedTo', x.assigned_to, 'assignedToName', (select nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') from staff_users u where u.id = x.assigned_to),
        'propertyAddress', p.address, 'clientName', p.client_name,
        'held', x.held, 'planService', ps.plan_service, 'planType', psub.plan_type)`;
    // A plan service's task: its schedule's service and its subscription's plan (two primary-key lookups).
    const planJoins = "left join maintenance_schedules ps on ps.id = x.schedule_id left join subscriptions psub on psub.id = ps.subscription_id";
    // With perDay: each day's first tasks through the scheduled_date index, one small sort a day.
    const tasks = perDay
      ? this.db.raw(
          `select coalesce(json_agg(${task} order by x.scheduled_date, x.clock, x.id)::text, '[]') as json
             from generate_series(?::date, ?::date, interval '1 day') d(day)
             cross join lateral (
               select t.*, ${CLOCK_SQL} as clock from maintenance_tasks t
                where t.scheduled_date = d.day::date and t.status <> 'completed'
                order by clock, t.id limit ?
             ) x
             join properties p on p.id = x.property_id ${planJoins}`,
          [from, to, perDay],
        )
      : this.db.raw(
          `select coalesce(json_agg(${task} order by x.scheduled_date, x.clock, x.id)::text, '[]') as json
             from (select t.*, ${CLOCK_SQL} as clock from maintenance_tasks t
                    where t.scheduled_date between ?::date and ?::date and t.status <> 'completed') x
             join properties p on p.id = x.property_id ${planJoins}`,
          [from, to],
        );
    const counts = this.db.raw(
      `select coalesce(json_object_agg(c.scheduled_date, c.n)::text, '{}') as json
         from (select scheduled_date, count(*)::int as n from maintenance_tasks
                where scheduled_date between ?::date and ?::date and status <> 'completed' group by scheduled_date) c`,
      [from, to],
    );
    const [t, c] = await Promise.all([tasks, counts]);
    return { tasks: t.rows[0].json as string, counts: c.rows[0].json as string };
  }

  /**
   * Dated tasks in [from, to] (not completed or cancelled) with their client, for reminders and the feed.
   * `withoutHeld` leaves out the tasks held while their subscription is past due (no reminder for those).
   */
  async datedTasks(from: string, to: string, limit = 50_000, withoutHeld = false): Promise<DatedTask[]> {
    const query = this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .whereBetween("t.scheduled_date", [from, to])
      .whereNotIn("t.status", ["completed", "cancelled"]);
    if (withoutHeld) query.where("t.held", false);
    const rows = await query
      .select("t.*", "p.address as property_address", "p.city", "p.province", "p.state", "p.postal_code", "p.client_name", "p.client_email")
      .orderBy([{ column: "t.scheduled_date" }, { column: "t.id" }])
      .limit(limit);
    return rows.map((r) => ({
      ...toTask(r),
      propertyAddress: r.property_address as string,
      location: [r.property_address, r.city, [r.province ?? r.state, r.postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", "),
      clientName: r.client_name as string,
      clientEmail: r.client_email as string,
    }));
  }

  async findDatedTask(id: number): Promise<DatedTask | null> {
    const row = await this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .where("t.id", id)
      .select("t.*", "p.address as property_address", "p.city", "p.province", "p.state", "p.postal_code", "p.client_name", "p.client_email")
      .first();
    if (!row) return null;
    return {
      ...toTask(row),
      propertyAddress: row.property_address as string,
      location: [row.property_address, row.city, [row.province ?? row.state, row.postal_code].filter(Boolean).join(" ")].filter(Boolean).join(", "),
      clientName: row.client_name as string,
      clientEmail: row.client_email as string,
    };
  }

  // --- Schedules ---

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

  async listSchedules(filter: { limit: number; offset: number; q?: string; propertyId?: number }): Promise<{ rows: MaintenanceSchedule[]; total: number }> {
    const base = this.db("maintenance_schedules as s").join("properties as p", "p.id", "s.property_id");
    if (filter.propertyId) base.where("s.property_id", filter.propertyId);
    if (filter.q) {
      const like = `%${escapeLike(filter.q)}%`;
      base.where((w) => w.whereILike("s.title", like).orWhereILike("s.description", like).orWhereILike("p.address", like).orWhereILike("p.client_name", like));
    }
    const [{ n }] = (await base.clone().count({ n: "*" })) as [{ n: number }];
    const rows = await base
      .clone()
      .select("s.*", "p.address as property_address", "p.client_name")
      .orderBy([{ column: "s.created_at", order: "desc" }, { column: "s.id", order: "desc" }])
      .limit(filter.limit)
      .offset(filter.offset);
    return { rows: rows.map(toSchedule), total: Number(n) };
  }

  /**
   * A batch of schedules, in id order after `afterId`, that are not yet expanded through `through`. An
   * ended plan-service schedule expands nothing more; an on-request one (no rule) never does.
   */
  async schedulesToExpand(through: string, afterId: number, batch: number, onlyIds?: number[]): Promise<ExpandableSchedule[]> {
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
   * and ON CONFLICT DO NOTHING make a repeated or concurrent expansion add nothing twice.
   */
  async insertOccurrences(scheduleIds: number[], dates: string[], tx: Tx | Knex = this.db, returning = true): Promise<{ count: number; rows: CreatedOccurrence[] }> {
    if (!scheduleIds.length) return { count: 0, rows: [] };
    const result = await tx.raw(
      `insert into maintenance_tasks (property_id, schedule_id, title, description, category, priority, status, scheduled_date, scheduled_time, estimated_duration, held)
       select s.property_id, s.id, s.title, s.description, s.category, s.priority, 'scheduled', o.d, s.scheduled_time, s.estimated_duration, s.held
       from unnest(?::int[], ?::date[]) as o(sid, d) join maintenance_schedules s on s.id = o.sid
       on conflict (schedule_id, scheduled_date) do nothing${returning ? " returning id, schedule_id, scheduled_date, title" : ""}`,
      [scheduleIds, dates],
    );
    const rows = ((result.rows ?? []) as Row[]).map((r) => ({ id: r.id as number, scheduleId: r.schedule_id as number, scheduledDate: r.scheduled_date as string, title: r.title as string }));
    return { count: result.rowCount ?? rows.length, rows };
  }

  async markExpanded(ids: number[], through: string, tx: Tx | Knex = this.db): Promise<void> {
    if (!ids.length) return;
    await tx.raw(
      "update maintenance_schedules set expanded_through = greatest(coalesce(expanded_through, ?::date), ?::date), updated_at = now() where id = any(?::int[])",
      [through, through, ids],
    );
  }

  // --- Reminders (sent once) ---

  /** The e-mails (lower case) whose owners turned the day-before reminders off in My Home. */
  async remindersOff(): Promise<Set<string>> {
    const rows = await this.db("home_preferences").where({ reminders: false }).select("email");
    return new Set(rows.map((r: Row) => r.email as string));
  }

  /** Claims reminders for these items; returns the item ids claimed now (those already sent are left out). */
  async claimReminders(kind: "task" | "booking", items: { id: number; dueDate: string; email: string }[], tx: Tx | Knex): Promise<Set<number>> {
    if (!items.length) return new Set();
    const { rows } = await tx.raw(
      `insert into maintenance_reminders (kind, item_id, due_date, email)
       select ?, i, d, e from unnest(?::int[], ?::date[], ?::text[]) as x(i, d, e)
       on conflict do nothing returning item_id`,
      [kind, items.map((i) => i.id), items.map((i) => i.dueDate), items.map((i) => i.email)],
    );
    return new Set((rows as Row[]).map((r) => r.item_id as number));
  }

  // --- The staff calendar feed ---

  async replaceFeedSecret(hash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx("calendar_feeds").del();
      await tx("calendar_feeds").insert({ secret_hash: hash });
    });
  }

  async feedSecretExists(hash: string): Promise<boolean> {
    return Boolean(await this.db("calendar_feeds").where({ secret_hash: hash }).first("id"));
  }
}

/** Postgres's default for a task's calendar time, kept in step with DEFAULT_TASK_TIME. */
const DEFAULT_TASK_TIME_SQL = "10:00 AM";
/**
 * A task's clock time in minutes for ordering a day: '2:30 PM' → 870; anything else sorts as 10:00 AM.
 * Immutable, so the calendar's partial index (migration 20260205000100) holds it: keep the two identical.
 */
const clockSql = (alias: string) =>
  `(case when ${alias}scheduled_time ~ '^[0-9]{1,2}:[0-9]{2} (AM|PM)$' then ((split_part(${alias}scheduled_time, ':', 1)::int % 12) + (right(${alias}scheduled_time, 2) = 'PM')::int * 12) * 60 + substr(split_part(${alias}scheduled_time, ':', 2), 1, 2)::int else 600 end)`;
const CLOCK_SQL = clockSql("t.");

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Schedules the expansion reads: not ended, and with a cadence (staff schedules, or a plan service's rule). */
const expandable = (w: Knex.QueryBuilder) => w.whereNull("ended_at").andWhere((c) => c.whereNull("plan_service").orWhereNotNull("rrule"));

/** A task's plan service and plan (through its schedule and subscription); null for other tasks. */
const PLAN_SERVICE_SQL = (alias: string) => `(select s.plan_service from maintenance_schedules s where s.id = ${alias}schedule_id)`;
const PLAN_TYPE_SQL = (alias: string) =>
  `(select sub.plan_type from maintenance_schedules s join subscriptions sub on sub.id = s.subscription_id where s.id = ${alias}schedule_id)`;

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
  ...(row.property_address !== undefined && { propertyAddress: row.property_address as string, clientName: row.client_name as string }),
});

export interface TaskFilter {
  limit: number;
  offset: number;
  q?: string;
  status?: TaskStatus;
  category?: TaskCategory;
  priority?: TaskPriority;
  assignedTo?: number;
  sort?: "newest" | "date";
  propertyId?: number;
  from?: string;
  to?: string;
}


/** What a PATCH may change; undefined leaves a field as it is, null clears it. */
export interface TaskChange {
  status?: TaskStatus;
  notes?: string | null;
  completedAt?: string;
  scheduledDate?: string | null;
  scheduledTime?: string | null;
  estimatedDuration?: number | null;
  assignedTo?: number | null;
}


/** A new schedule row: the schedule's own fields, before the database gives it an id and a time. */
export type NewScheduleRow = Pick<
  MaintenanceSchedule,
  "propertyId" | "title" | "description" | "category" | "priority" | "estimatedDuration" | "recurrenceType" | "recurrenceInterval" | "startDate" | "sourceTaskId"
> & { scheduledTime?: string; planService?: { subscriptionId: number; key: string; rrule: string | null; held: boolean } };

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
