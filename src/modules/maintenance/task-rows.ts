// A maintenance task row as the tasks' queries read it: shared by the repositories, PlanDeliveries and
// My Home's read model (docs/architecture.md "Modules and layers"), so a column is mapped in one place.
import type { MaintenanceTask } from "./maintenance.constants.js";

type Row = Record<string, unknown>;

export const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : ((value as string | null) ?? null);

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
  assignedTo: (row.assigned_to as number | null) ?? null,
  notes: (row.notes as string | null) ?? null,
  completedAt: iso(row.completed_at),
  version: row.version as number,
  held: Boolean(row.held),
  createdAt: iso(row.created_at)!,
});

export interface ListedTask extends MaintenanceTask {
  propertyAddress: string;
  clientName: string;
  /** The assignee's name; only the list reads it. */
  assignedToName?: string | null;
  /** The plan service ('window-cleaning') and plan ('standard') of a plan service's task; only the list reads them. */
  planService?: string | null;
  planType?: string | null;
}

export interface DatedTask extends ListedTask {
  location: string;
  clientEmail: string;
}

/** The columns toDatedTask reads: the task (`t`) and its property (`p`), joined by the caller. */
export const DATED_TASK_COLUMNS = [
  "t.*",
  "p.address as property_address",
  "p.city",
  "p.province",
  "p.state",
  "p.postal_code",
  "p.client_name",
  "p.client_email",
];

/** A dated row: the task with its property's address, location and client. */
export const toDatedTask = (r: Row): DatedTask => ({
  ...toTask(r),
  propertyAddress: r.property_address as string,
  location: [r.property_address, r.city, [r.province ?? r.state, r.postal_code].filter(Boolean).join(" ")]
    .filter(Boolean)
    .join(", "),
  clientName: r.client_name as string,
  clientEmail: r.client_email as string,
  // A plan visit's service, when the query joined its schedule (its .ics holds the plan-visit window).
  ...(r.plan_service !== undefined && { planService: (r.plan_service as string | null) ?? null }),
});
