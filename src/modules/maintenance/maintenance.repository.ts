import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { MaintenanceTask, NewTask, TaskStatus } from "./maintenance.constants.js";

type Row = Record<string, unknown>;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));

export const toTask = (row: Row): MaintenanceTask => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  reportId: (row.report_id as number | null) ?? null,
  scheduleId: (row.schedule_id as number | null) ?? null,
  title: row.title as string,
  description: (row.description as string | null) ?? null,
  category: row.category as MaintenanceTask["category"],
  priority: row.priority as MaintenanceTask["priority"],
  status: row.status as MaintenanceTask["status"],
  scheduledDate: (row.scheduled_date as string | null) ?? null,
  scheduledTime: (row.scheduled_time as string | null) ?? null,
  estimatedDuration: (row.estimated_duration as number | null) ?? null,
  assignedTo: (row.assigned_to as string | null) ?? null,
  notes: (row.notes as string | null) ?? null,
  completedAt: iso(row.completed_at),
  createdAt: iso(row.created_at)!,
});

export class MaintenanceRepository {
  constructor(private readonly db: Knex) {}

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

  async setStatus(id: number, status: TaskStatus, tx: Tx | Knex = this.db): Promise<MaintenanceTask | null> {
    const [row] = await tx("maintenance_tasks")
      .where({ id })
      .update({ status, completed_at: status === "completed" ? tx.fn.now() : null, updated_at: tx.fn.now() })
      .returning("*");
    return row ? toTask(row) : null;
  }
}
