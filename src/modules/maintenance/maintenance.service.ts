import { createHash, randomBytes } from "node:crypto";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import type { BookingsService } from "../bookings/index.js";
import { addDays, longDate, slotLabel, slotWindow, todayIn } from "../../shared/business-time.js";
import type { CustomersService } from "../customers/index.js";
import type { MailService } from "../mail/index.js";
import {
  type CalendarBooking,
  type MaintenanceSchedule,
  type MaintenanceTask,
  type NewTask,
  type TaskStatus,
  bookingTime,
  formatDuration,
  taskTime,
} from "./maintenance.constants.js";
import { bookingEvent, calendarFile, taskEvent } from "./maintenance.ics.js";
import type { CreatedOccurrence, DatedTask, ExpandableSchedule, ListedTask, MaintenanceRepository, TaskFilter } from "./maintenance.repository.js";
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS, type ScheduleCreateInput, type TaskUpdateInput } from "./maintenance.schemas.js";
import { occurrencesBetween } from "./recurrence.js";
import { reminderEmail } from "./reminder-email.js";
import { StaleEditError } from "../../http/stale-edit.js";

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

export interface ExpandOptions {
  horizonDays?: number;
  /** 'YYYY-MM-DD'; today in the business zone by default. */
  today?: string;
  /** Only these schedules (a new schedule is expanded at once). */
  scheduleIds?: number[];
  /** Keep the created tasks in the result (the CLI prints them). */
  collect?: boolean;
  onStart?: (schedules: number) => void;
  onProgress?: (schedulesDone: number, tasksCreated: number) => void;
}

export interface ExpandResult {
  horizonDays: number;
  from: string;
  through: string;
  schedules: number;
  created: number;
  tasks: CreatedOccurrence[];
}

/** A parsed POST /api/maintenance-schedules body; services and seeds may leave the defaulted fields out. */
export type NewScheduleInput = Omit<ScheduleCreateInput, "estimatedDuration" | "recurrenceType" | "recurrenceInterval"> &
  Partial<Pick<ScheduleCreateInput, "estimatedDuration" | "recurrenceType" | "recurrenceInterval">>;

export interface CreatedSchedule extends MaintenanceSchedule {
  tasksCreated: number;
}

/** Schedules expanded per read; their tasks are written in chunks of INSERT_CHUNK rows. */
const EXPAND_BATCH = 1000;
const INSERT_CHUNK = 20_000;
/** Transactions writing batches at once: Postgres does the per-row work (indexes, FK checks), one backend each. */
const EXPAND_WRITERS = 3;
const REMINDER_CHUNK = 500;
/**
 * The staff feed covers a month back and four months ahead (beyond the 90-day horizon few tasks exist), at
 * most FEED_MAX_TASKS tasks: building an event costs about a millisecond, and calendar apps poll the feed.
 */
const FEED_DAYS_BACK = 31;
const FEED_DAYS_AHEAD = 120;
const FEED_MAX_TASKS = 5000;
const CLOSED = new Set(["completed", "cancelled"]);

/** The later of two 'YYYY-MM-DD' dates (they compare as text). */
const laterDate = (a: string, b: string) => (a.localeCompare(b) >= 0 ? a : b);
const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
const lastDayOfMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};

/** Maintenance tasks and recurring schedules (staff-side §3, §4; docs/decisions.md#12 and #22). */
export class MaintenanceService {
  constructor(
    private readonly tasks: MaintenanceRepository,
    private readonly deps: MaintenanceDeps,
  ) {}

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
      if (input.version !== undefined && input.version !== current.version) throw new StaleEditError(STALE_TASK_MESSAGE, current);
      // 'scheduled' needs a date: the one sent, or the one the task keeps.
      const status = input.status ?? current.status;
      const date = input.scheduledDate !== undefined ? input.scheduledDate : current.scheduledDate;
      if (status === "scheduled" && !date) throw new ValidationError("Choose a date to schedule the task", { scheduledDate: "Choose a date to schedule the task" });
      if (input.assignedTo && !(await this.tasks.staffUserExists(input.assignedTo, tx)))
        throw new ValidationError("No staff user with this id", { assignedTo: "No staff user with this id" });
      const { notes, completedAt, scheduledDate, scheduledTime, estimatedDuration, assignedTo } = input;
      const task = await this.tasks.updateTask(id, { status: input.status, notes, completedAt, scheduledDate, scheduledTime, estimatedDuration, assignedTo }, tx);
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
    return this.tasks.listSchedules(filter);
  }

  /**
   * The calendar of [from, to]: dated tasks and bookings, the completed ones left out (staff-side §2).
   * The tasks arrive as JSON text built by Postgres (fast at 10,000 tasks a month); bookings are few.
   */
  async calendar(range: { month?: string; from?: string; to?: string; perDay?: number }): Promise<{ from: string; to: string; tasksJson: string; countsJson: string; bookings: CalendarBooking[] }> {
    const from = range.from && range.to ? range.from : `${range.month}-01`;
    const to = range.from && range.to ? range.to : lastDayOfMonth(range.month!);
    const [tasks, bookings] = await Promise.all([this.tasks.calendarTasksJson(from, to, range.perDay), this.deps.bookings.listBetween(from, to)]);
    return { from, to, tasksJson: tasks.tasks, countsJson: tasks.counts, bookings: bookings.filter((b) => b.status !== "completed").map(toCalendarBooking) };
  }

  /**
   * A new schedule (staff-side §5 rules, checked by the schema) and its tasks up to the horizon, in one
   * transaction. With `fromTaskId`, the recommendation task fills in what the payload leaves out, and a
   * pending one becomes scheduled: its care is now planned.
   */
  async createSchedule(input: NewScheduleInput, now: Date = new Date()): Promise<CreatedSchedule> {
    const source = input.fromTaskId !== undefined ? await this.tasks.findTask(input.fromTaskId) : null;
    if (input.fromTaskId !== undefined && !source) throw new ValidationError("No maintenance task with this id", { fromTaskId: "No maintenance task with this id" });
    if (source && input.propertyId !== undefined && input.propertyId !== source.propertyId)
      throw new ValidationError("The task belongs to another property", { propertyId: "The task belongs to another property" });
    const propertyId = input.propertyId ?? source!.propertyId;
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    if (!property) throw new ValidationError("No property with this id", { propertyId: "No property with this id" });
    const today = this.today(now);
    const through = addDays(today, DEFAULT_HORIZON_DAYS);
    return this.deps.transaction(async (tx) => {
      const schedule = await this.tasks.insertSchedule(
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
      const created = await this.tasks.insertOccurrences(
        dates.map(() => schedule.id),
        dates,
        tx,
        false,
      );
      await this.tasks.markExpanded([schedule.id], through, tx);
      return { ...schedule, expandedThrough: through, tasksCreated: created.count };
    });
  }

  /**
   * Expands every schedule into dated tasks from today up to the horizon (docs/decisions.md#12). Safe to
   * repeat and to run concurrently: the unique (schedule, date) key drops what exists already, and a
   * schedule expanded through the horizon is skipped.
   */
  async expand(options: ExpandOptions = {}): Promise<ExpandResult> {
    const horizonDays = options.horizonDays ?? DEFAULT_HORIZON_DAYS;
    if (!Number.isInteger(horizonDays) || horizonDays < 0 || horizonDays > MAX_HORIZON_DAYS)
      throw new ValidationError(`Horizon must be a whole number of days from 0 to ${MAX_HORIZON_DAYS}`, { horizon: `Horizon must be a whole number of days from 0 to ${MAX_HORIZON_DAYS}` });
    const today = options.today ?? this.today();
    const through = addDays(today, horizonDays);
    const total = await this.tasks.countSchedulesToExpand(through, options.scheduleIds);
    options.onStart?.(total);
    const result: ExpandResult = { horizonDays, from: today, through, schedules: 0, created: 0, tasks: [] };
    // Batches are written by EXPAND_WRITERS transactions at once (Postgres does the work, one backend each)
    // while the next batch is read and computed. Each batch is its own transaction: an interrupted run
    // keeps what it wrote, and the next run carries on.
    const writing = new Set<Promise<void>>();
    const write = (batch: ExpandableSchedule[], scheduleIds: number[], dates: string[]) =>
      this.deps.transaction(async (tx) => {
        for (let i = 0; i < scheduleIds.length; i += INSERT_CHUNK) {
          const created = await this.tasks.insertOccurrences(scheduleIds.slice(i, i + INSERT_CHUNK), dates.slice(i, i + INSERT_CHUNK), tx, Boolean(options.collect));
          result.created += created.count;
          if (options.collect) result.tasks.push(...created.rows);
        }
        await this.tasks.markExpanded(
          batch.map((s) => s.id),
          through,
          tx,
        );
        result.schedules += batch.length;
        options.onProgress?.(result.schedules, result.created);
      });
    let afterId = 0;
    let failure: unknown = null;
    for (;;) {
      const batch = await this.tasks.schedulesToExpand(through, afterId, EXPAND_BATCH, options.scheduleIds);
      if (!batch.length) break;
      afterId = batch.at(-1)!.id;
      const scheduleIds: number[] = [];
      const dates: string[] = [];
      for (const schedule of batch) {
        let from = laterDate(schedule.startDate, today);
        if (schedule.expandedThrough && schedule.expandedThrough >= from) from = addDays(schedule.expandedThrough, 1);
        for (const date of occurrencesBetween(schedule, from, through)) {
          scheduleIds.push(schedule.id);
          dates.push(date);
        }
      }
      const job: Promise<void> = write(batch, scheduleIds, dates).then(
        () => void writing.delete(job),
        (error: unknown) => {
          writing.delete(job);
          failure ??= error;
        },
      );
      writing.add(job);
      if (writing.size >= EXPAND_WRITERS) await Promise.race(writing);
      if (failure) break;
    }
    await Promise.all(writing);
    if (failure) throw failure;
    return result;
  }

  /** GET /api/maintenance-tasks/{id}/ics: one task as a calendar file. */
  async taskIcs(id: number): Promise<string> {
    const task = await this.tasks.findDatedTask(id);
    if (!task) throw new NotFoundError("Maintenance task not found");
    if (!task.scheduledDate) throw new ConflictError("This task has no date yet: schedule it first");
    return calendarFile([taskEvent(task, this.tz)], "Haven maintenance");
  }

  /** A new secret for the staff feed; only its hash is kept, so the old URL stops working. */
  async rotateFeed(): Promise<{ secret: string; url: string }> {
    const secret = randomBytes(32).toString("base64url");
    await this.tasks.replaceFeedSecret(hashSecret(secret));
    return { secret, url: `${this.deps.settings.publicUrl.replace(/\/+$/, "")}/calendar/feed/${secret}.ics` };
  }

  /** The whole calendar as ICS for the holder of the current secret; null for any other secret. */
  async feed(secret: string, now: Date = new Date()): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret) || !(await this.tasks.feedSecretExists(hashSecret(secret)))) return null;
    const today = this.today(now);
    const from = addDays(today, -FEED_DAYS_BACK);
    const to = addDays(today, FEED_DAYS_AHEAD);
    const [tasks, bookings] = await Promise.all([this.tasks.datedTasks(from, to, FEED_MAX_TASKS), this.deps.bookings.listBetween(from, to)]);
    return calendarFile(
      [...tasks.map((t) => taskEvent(t, this.tz)), ...bookings.filter((b) => !CLOSED.has(b.status)).map((b) => bookingEvent(b, this.tz))],
      "Haven maintenance calendar",
      { subscription: true },
    );
  }

  /**
   * The day-before reminders: every task and booking dated tomorrow (business zone) that is neither
   * completed nor cancelled. Each is claimed in maintenance_reminders and its e-mail queued in the same
   * transaction, so it goes out once however often this runs.
   */
  async sendReminders(now: Date = new Date()): Promise<{ date: string; tasks: number; bookings: number }> {
    const date = addDays(this.today(now), 1);
    // A task held while its subscription is past due gets no reminder.
    // A homeowner who turned reminders off in My Home (home_preferences) gets none.
    const muted = await this.tasks.remindersOff();
    const tasks = (await this.tasks.datedTasks(date, date, undefined, true)).filter((t) => !muted.has(t.clientEmail.toLowerCase()));
    const bookings = (await this.deps.bookings.listBetween(date, date)).filter((b) => !CLOSED.has(b.status) && !muted.has(b.clientEmail.toLowerCase()));
    const sent = { date, tasks: 0, bookings: 0 };
    for (let i = 0; i < tasks.length; i += REMINDER_CHUNK) {
      const chunk = tasks.slice(i, i + REMINDER_CHUNK);
      sent.tasks += await this.deps.transaction(async (tx) => {
        const claimed = await this.tasks.claimReminders("task", chunk.map((t) => ({ id: t.id, dueDate: date, email: t.clientEmail })), tx);
        for (const task of chunk) if (claimed.has(task.id)) await this.deps.mail.enqueue(tx, this.taskReminder(task));
        return claimed.size;
      });
    }
    for (let i = 0; i < bookings.length; i += REMINDER_CHUNK) {
      const chunk = bookings.slice(i, i + REMINDER_CHUNK);
      sent.bookings += await this.deps.transaction(async (tx) => {
        const claimed = await this.tasks.claimReminders("booking", chunk.map((b) => ({ id: b.id, dueDate: date, email: b.clientEmail })), tx);
        for (const booking of chunk) if (claimed.has(booking.id)) await this.deps.mail.enqueue(tx, this.bookingReminder(booking));
        return claimed.size;
      });
    }
    return sent;
  }

  private taskReminder(task: DatedTask) {
    const { supportEmail, supportPhone } = this.deps.settings;
    return reminderEmail({
      to: task.clientEmail,
      name: task.clientName,
      dateLabel: longDate(task.scheduledDate!),
      timeLabel: taskTime(task.scheduledTime),
      what: `your Haven maintenance visit (${task.title})`,
      location: task.location,
      durationLabel: task.estimatedDuration ? formatDuration(task.estimatedDuration) : null,
      ics: calendarFile([taskEvent(task, this.tz)], "Haven maintenance"),
      supportEmail,
      supportPhone,
      publicUrl: this.deps.settings.publicUrl,
    });
  }

  private bookingReminder(booking: Booking) {
    const { supportEmail, supportPhone } = this.deps.settings;
    const region = [booking.state ?? booking.province, booking.postalCode].filter(Boolean).join(" ");
    const window = slotWindow(booking.timeSlot);
    return reminderEmail({
      to: booking.clientEmail,
      name: booking.clientName,
      dateLabel: longDate(booking.scheduledDate),
      timeLabel: window ? slotLabel(booking.timeSlot) : bookingTime(booking.timeSlot),
      what: "your Haven home inspection",
      location: [booking.address, booking.city, region].filter(Boolean).join(", "),
      durationLabel: window ? formatDuration(window.minutes) : null,
      ics: calendarFile([bookingEvent(booking, this.tz)], "Haven inspection"),
      supportEmail,
      supportPhone,
      publicUrl: this.deps.settings.publicUrl,
    });
  }
}

function toCalendarBooking(b: Booking): CalendarBooking {
  return {
    id: b.id,
    propertyId: b.propertyId,
    scheduledDate: b.scheduledDate,
    timeSlot: b.timeSlot,
    status: b.status,
    notes: b.notes,
    accessMethod: b.accessMethod,
    specialRequests: b.specialRequests,
    propertyAddress: b.address,
    city: b.city,
    clientName: b.clientName,
    clientEmail: b.clientEmail,
    clientPhone: b.clientPhone,
  };
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
