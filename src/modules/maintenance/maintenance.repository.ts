import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import { CalendarRepository } from "./calendar.repository.js";
import type { MaintenanceTask, NewTask, TaskCategory, TaskPriority, TaskStatus } from "./maintenance.constants.js";
import { ScheduleRepository } from "./schedules.repository.js";
import { type ListedTask, toTask } from "./task-rows.js";
import { CLOCK_SQL, PLAN_SERVICE_SQL, PLAN_TYPE_SQL, escapeLike } from "./task-sql.js";

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

/** Maintenance tasks; `schedules` and `calendar` hold the schedules' and the calendar's queries. */
export class MaintenanceRepository {
  readonly schedules: ScheduleRepository;
  readonly calendar: CalendarRepository;

  constructor(private readonly db: Knex) {
    this.schedules = new ScheduleRepository(db);
    this.calendar = new CalendarRepository(db);
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
      .update({
        status,
        completed_at: status === "completed" ? tx.fn.now() : null,
        version: tx.raw("version + 1"),
        updated_at: tx.fn.now(),
      })
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
      base.where((w) =>
        w
          .whereILike("t.title", like)
          .orWhereILike("t.description", like)
          .orWhereILike("p.address", like)
          .orWhereILike("p.client_name", like),
      );
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

  // --- Reminders (sent once) ---

  /** The e-mails (lower case) whose owners turned the day-before reminders off in My Home. */
  /** The language of each customer with one of these e-mails (lower case): their reminders follow it. */
  async customerLocales(emails: string[]): Promise<Map<string, string>> {
    const locales = new Map<string, string>();
    const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
    for (let i = 0; i < lower.length; i += 5000) {
      const rows = await this.db("customers")
        .whereRaw("lower(email) = any(?)", [lower.slice(i, i + 5000)])
        .select("email", "locale");
      for (const row of rows as Row[]) locales.set(String(row.email).toLowerCase(), String(row.locale));
    }
    return locales;
  }

  async remindersOff(): Promise<Set<string>> {
    const rows = await this.db("home_preferences").where({ reminders: false }).select("email");
    return new Set(rows.map((r: Row) => r.email as string));
  }

  /** Claims reminders for these items; returns the item ids claimed now (those already sent are left out). */
  async claimReminders(
    kind: "task" | "booking",
    items: { id: number; dueDate: string; email: string }[],
    tx: Tx | Knex,
  ): Promise<Set<number>> {
    if (!items.length) return new Set();
    const { rows } = await tx.raw(
      `insert into maintenance_reminders (kind, item_id, due_date, email)
       select ?, i, d, e from unnest(?::int[], ?::date[], ?::text[]) as x(i, d, e)
       on conflict do nothing returning item_id`,
      [kind, items.map((i) => i.id), items.map((i) => i.dueDate), items.map((i) => i.email)],
    );
    return new Set((rows as Row[]).map((r) => r.item_id as number));
  }
}

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
