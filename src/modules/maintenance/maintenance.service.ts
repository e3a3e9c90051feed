import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import { StaleEditError } from "../../http/stale-edit.js";
import { addDays, todayIn } from "../../shared/business-time.js";
import type { BookingsService } from "../bookings/index.js";
import type { CustomersService } from "../customers/index.js";
import type { MailService } from "../mail/index.js";
import { MaintenanceCalendar, lastDayOfMonth } from "./maintenance.calendar.js";
import type {
  CalendarBooking,
  MaintenanceSchedule,
  MaintenanceTask,
  NewTask,
  TaskStatus,
} from "./maintenance.constants.js";
import { type ExpandOptions, type ExpandResult, expandSchedules, laterDate } from "./maintenance.expansion.js";
import { MaintenanceReminders } from "./maintenance.reminders.js";
import type { MaintenanceRepository, TaskFilter } from "./maintenance.repository.js";
import { DEFAULT_HORIZON_DAYS, type ScheduleCreateInput, type TaskUpdateInput } from "./maintenance.schemas.js";
import { occurrencesBetween } from "./recurrence.js";
import type { ListedTask } from "./task-rows.js";

export type { ExpandOptions, ExpandResult };

export const STALE_TASK_MESSAGE = "This task was changed by someone else since you opened it.";

export interface MaintenanceSettings {
  timeZone: string;
  supportEmail: string;
  supportPhone: string;
  /** The site's public origin, for the feed URL. */
  publicUrl: string;
}

export interface MaintenanceDeps {
  customers: CustomersService;
  bookings: BookingsService;
  mail: MailService;
  transaction: TransactionRunner;
  settings: MaintenanceSettings;
}

/** A parsed POST /api/maintenance-schedules body; services and seeds may leave the defaulted fields out. */
export type NewScheduleInput = Omit<
  ScheduleCreateInput,
  "estimatedDuration" | "recurrenceType" | "recurrenceInterval"
> &
  Partial<Pick<ScheduleCreateInput, "estimatedDuration" | "recurrenceType" | "recurrenceInterval">>;

export interface CreatedSchedule extends MaintenanceSchedule {
  tasksCreated: number;
}

/**
 * Maintenance tasks and recurring schedules (staff-side §3, §4; docs/decisions.md#12 and #22). The calendar,
 * its feed and the reminders live in maintenance.calendar.ts and maintenance.reminders.ts; this class keeps
 * their entry points so callers see one service.
 */
export class MaintenanceService {
  private readonly calendarFeed: MaintenanceCalendar;
  private readonly reminders: MaintenanceReminders;

  constructor(
    private readonly tasks: MaintenanceRepository,
    private readonly deps: MaintenanceDeps,
  ) {
    this.calendarFeed = new MaintenanceCalendar(tasks.calendar, deps.bookings, deps.settings);
    this.reminders = new MaintenanceReminders(tasks, deps);
  }

  private get tz() {
    return this.deps.settings.timeZone;
  }

  today(now: Date = new Date()): string {
    return todayIn(this.tz, now);
  }

  /** Creates tasks (a report's recommendations, an accepted quote, a schedule's dates), inside the caller's transaction when given. */
  createTasks(tasks: NewTask[], tx?: Tx): Promise<MaintenanceTask[]> {
    return this.tasks.insertTasks(tasks, tx);
  }

  /** When a report is deleted: its recommendation tasks that no one has acted on go with it (the rest stay, unlinked). */
  deleteUntouchedReportTasks(reportId: number, tx?: Tx): Promise<number> {
    return this.tasks.deleteUntouchedOfReport(reportId, tx);
  }

  findTask(id: number, tx?: Tx): Promise<MaintenanceTask | null> {
    return this.tasks.findTask(id, tx);
  }

  /** Moves a task to any status (staff-side §4); completed records completedAt. */
  async setTaskStatus(id: number, status: TaskStatus, tx?: Tx): Promise<MaintenanceTask> {
    const task = await this.tasks.setStatus(id, status, tx);
    if (!task) throw new NotFoundError("Maintenance task not found");
    return task;
  }

  /**
   * PATCH /api/maintenance-tasks/{id}: any status, notes; completed records completedAt (the one sent, or now);
   * the date, time, duration and assignee (an active staff user). 'scheduled' needs a date.
   * With `version` (the dialogs send the one they opened), a task changed since is a 409 carrying it as it
   * is now; the check and the write happen under the row's lock, so of concurrent edits from one version
   * exactly one lands. Without it, the last write wins (plain API calls).
   */
  async updateTask(id: number, input: TaskUpdateInput): Promise<MaintenanceTask> {
    return this.deps.transaction(async (tx) => {
      const current = await this.tasks.findTask(id, tx, true);
      if (!current) throw new NotFoundError("Maintenance task not found");
      if (input.version !== undefined && input.version !== current.version)
        throw new StaleEditError(STALE_TASK_MESSAGE, current);
      // 'scheduled' needs a date: the one sent, or the one the task keeps.
      const status = input.status ?? current.status;
      const date = input.scheduledDate !== undefined ? input.scheduledDate : current.scheduledDate;
      if (status === "scheduled" && !date)
        throw new ValidationError("Choose a date to schedule the task", {
          scheduledDate: "Choose a date to schedule the task",
        });
      if (input.assignedTo && !(await this.tasks.staffUserExists(input.assignedTo, tx)))
        throw new ValidationError("No staff user with this id", { assignedTo: "No staff user with this id" });
      const { notes, completedAt, scheduledDate, scheduledTime, estimatedDuration, assignedTo } = input;
      const task = await this.tasks.updateTask(
        id,
        { status: input.status, notes, completedAt, scheduledDate, scheduledTime, estimatedDuration, assignedTo },
        tx,
      );
      return task!;
    });
  }

  /** The list (staff-side §7), newest first; `month` ('YYYY-MM') is a shorthand for its date range. */
  listTasks(filter: TaskFilter & { month?: string }): Promise<{ rows: ListedTask[]; total: number }> {
    return this.tasks.listTasks(withMonth(filter));
  }

  /** Every task matching the list's filter, in the list's order, in batches (CSV export; no limit or offset). */
  exportTasks(filter: TaskFilter & { month?: string }): AsyncGenerator<ListedTask[]> {
    return this.tasks.exportTasks(withMonth(filter));
  }

  listSchedules(filter: { limit: number; offset: number; q?: string; propertyId?: number }) {
    return this.tasks.schedules.listSchedules(filter);
  }

  /** The calendar of [from, to] (maintenance.calendar.ts). */
  calendar(range: {
    month?: string;
    from?: string;
    to?: string;
    perDay?: number;
    inspectorId?: number;
  }): Promise<{ from: string; to: string; tasksJson: string; countsJson: string; bookings: CalendarBooking[] }> {
    return this.calendarFeed.calendar(range);
  }

  /**
   * A new schedule (staff-side §5 rules, checked by the schema) and its tasks up to the horizon, in one
   * transaction. With `fromTaskId`, the recommendation task fills in what the payload leaves out, and a
   * pending one becomes scheduled: its care is now planned.
   */
  async createSchedule(input: NewScheduleInput, now: Date = new Date()): Promise<CreatedSchedule> {
    const source = input.fromTaskId !== undefined ? await this.tasks.findTask(input.fromTaskId) : null;
    if (input.fromTaskId !== undefined && !source)
      throw new ValidationError("No maintenance task with this id", { fromTaskId: "No maintenance task with this id" });
    if (source && input.propertyId !== undefined && input.propertyId !== source.propertyId)
      throw new ValidationError("The task belongs to another property", {
        propertyId: "The task belongs to another property",
      });
    const propertyId = input.propertyId ?? source!.propertyId;
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    if (!property) throw new ValidationError("No property with this id", { propertyId: "No property with this id" });
    const today = this.today(now);
    const through = addDays(today, DEFAULT_HORIZON_DAYS);
    return this.deps.transaction(async (tx) => {
      const schedule = await this.tasks.schedules.insertSchedule(
        {
          propertyId,
          title: input.title ?? source!.title,
          description: input.description !== undefined ? input.description : (source?.description ?? null),
          category: input.category ?? source!.category,
          priority: input.priority ?? source?.priority ?? "medium",
          estimatedDuration: input.estimatedDuration ?? null,
          recurrenceType: input.recurrenceType ?? "monthly",
          recurrenceInterval: input.recurrenceInterval ?? 1,
          startDate: input.startDate ?? today,
          ...(input.scheduledTime && { scheduledTime: input.scheduledTime }),
          sourceTaskId: source?.id ?? null,
        },
        tx,
      );
      if (source?.status === "pending") await this.tasks.setStatus(source.id, "scheduled", tx);
      const dates = occurrencesBetween(schedule, laterDate(schedule.startDate, today), through);
      const created = await this.tasks.schedules.insertOccurrences(
        dates.map(() => schedule.id),
        dates,
        tx,
        false,
      );
      await this.tasks.schedules.markExpanded([schedule.id], through, tx);
      return { ...schedule, expandedThrough: through, tasksCreated: created.count };
    });
  }

  /** Expands every schedule up to the horizon (docs/decisions.md#12; maintenance.expansion.ts). */
  expand(options: ExpandOptions = {}): Promise<ExpandResult> {
    return expandSchedules(this.tasks.schedules, this.deps.transaction, options.today ?? this.today(), options);
  }

  /** GET /api/maintenance-tasks/{id}/ics: one task as a calendar file. */
  taskIcs(id: number): Promise<string> {
    return this.calendarFeed.taskIcs(id);
  }

  /** A new secret for the staff feed; only its hash is kept, so the old URL stops working. */
  rotateFeed(): Promise<{ secret: string; url: string }> {
    return this.calendarFeed.rotateFeed();
  }

  /** The whole calendar as ICS for the holder of the current secret; null for any other secret. */
  feed(secret: string, now: Date = new Date()): Promise<string | null> {
    return this.calendarFeed.feed(secret, now);
  }

  /** The day-before reminders, each sent once (maintenance.reminders.ts). */
  sendReminders(now: Date = new Date()): Promise<{ date: string; tasks: number; bookings: number }> {
    return this.reminders.sendReminders(now);
  }
}

/** `month` ('YYYY-MM') narrowed into the filter's from/to. */
function withMonth<F extends { from?: string; to?: string }>(filter: F & { month?: string }): F {
  const { month, ...rest } = filter;
  const narrowed = rest as unknown as F;
  if (month) {
    narrowed.from = narrowed.from && narrowed.from > `${month}-01` ? narrowed.from : `${month}-01`;
    narrowed.to = narrowed.to && narrowed.to < lastDayOfMonth(month) ? narrowed.to : lastDayOfMonth(month);
  }
  return narrowed;
}
