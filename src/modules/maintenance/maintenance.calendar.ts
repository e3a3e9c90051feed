// The staff calendar (staff-side §2): the month view's data, a task's ICS file and the secret staff feed.
import { createHash, randomBytes } from "node:crypto";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import { addDays, todayIn } from "../../shared/business-time.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import type { BookingsService } from "../bookings/index.js";
import type { CalendarRepository } from "./calendar.repository.js";
import type { CalendarBooking } from "./maintenance.constants.js";
import { bookingEvent, calendarFile, taskEvent } from "./maintenance.ics.js";

/**
 * The staff feed covers a month back and four months ahead (beyond the 90-day horizon few tasks exist), at
 * most FEED_MAX_TASKS tasks: building an event costs about a millisecond, and calendar apps poll the feed.
 */
const FEED_DAYS_BACK = 31;
const FEED_DAYS_AHEAD = 120;
const FEED_MAX_TASKS = 5000;
export const CLOSED = new Set(["completed", "cancelled"]);

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
export const lastDayOfMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};

export class MaintenanceCalendar {
  constructor(
    private readonly repo: CalendarRepository,
    private readonly bookings: BookingsService,
    private readonly settings: { timeZone: string; publicUrl: string },
  ) {}

  private get tz() {
    return this.settings.timeZone;
  }

  /**
   * The calendar of [from, to]: dated tasks and bookings, the completed ones left out (staff-side §2).
   * The tasks arrive as JSON text built by Postgres (fast at 10,000 tasks a month); bookings are few.
   */
  async calendar(range: {
    month?: string;
    from?: string;
    to?: string;
    perDay?: number;
    /** An inspector's calendar: their tasks and bookings only (docs/decisions.md#36). */
    inspectorId?: number;
  }): Promise<{ from: string; to: string; tasksJson: string; countsJson: string; bookings: CalendarBooking[] }> {
    const from = range.from && range.to ? range.from : `${range.month}-01`;
    const to = range.from && range.to ? range.to : lastDayOfMonth(range.month!);
    const [tasks, bookings] = await Promise.all([
      this.repo.calendarTasksJson(from, to, range.perDay, range.inspectorId),
      this.bookings.listBetween(from, to),
    ]);
    return {
      from,
      to,
      tasksJson: tasks.tasks,
      countsJson: tasks.counts,
      bookings: bookings
        .filter((b) => b.status !== "completed")
        .filter((b) => range.inspectorId === undefined || b.inspectorId === range.inspectorId)
        .map(toCalendarBooking),
    };
  }

  /** GET /api/maintenance-tasks/{id}/ics: one task as a calendar file. */
  async taskIcs(id: number): Promise<string> {
    const task = await this.repo.findDatedTask(id);
    if (!task) throw new NotFoundError("Maintenance task not found");
    if (!task.scheduledDate) throw new ConflictError("This task has no date yet: schedule it first");
    return calendarFile([taskEvent(task, this.tz)], "Haven maintenance");
  }

  /** A new secret for the staff feed; only its hash is kept, so the old URL stops working. */
  async rotateFeed(): Promise<{ secret: string; url: string }> {
    const secret = randomBytes(32).toString("base64url");
    await this.repo.replaceFeedSecret(hashSecret(secret));
    return { secret, url: `${this.settings.publicUrl.replace(/\/+$/, "")}/calendar/feed/${secret}.ics` };
  }

  /** The whole calendar as ICS for the holder of the current secret; null for any other secret. */
  async feed(secret: string, now: Date = new Date()): Promise<string | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(secret) || !(await this.repo.feedSecretExists(hashSecret(secret)))) return null;
    const today = todayIn(this.tz, now);
    const from = addDays(today, -FEED_DAYS_BACK);
    const to = addDays(today, FEED_DAYS_AHEAD);
    const [tasks, bookings] = await Promise.all([
      this.repo.datedTasks(from, to, FEED_MAX_TASKS),
      this.bookings.listBetween(from, to),
    ]);
    return calendarFile(
      [
        ...tasks.map((t) => taskEvent(t, this.tz)),
        ...bookings.filter((b) => !CLOSED.has(b.status)).map((b) => bookingEvent(b, this.tz)),
      ],
      "Haven maintenance calendar",
      { subscription: true },
    );
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
    inspectorId: b.inspectorId,
    inspectorName: b.inspectorName,
  };
}
