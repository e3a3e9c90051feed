// My Home's Visits and Account (docs/decisions.md#29 and #30): what is coming to the homeowner's
// homes (inspection bookings, plan visits, other maintenance), the changes they may make themselves, their
// private calendar feed and their e-mail preferences. Every read and action goes through HomeAccess first:
// anything not theirs is a 404, never a hint that it exists.
import { createHash, randomBytes } from "node:crypto";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import { addDays, earliestInspectionDate, longDate, slotLabel, todayIn } from "../../shared/business-time.js";
import { type BookingsService, SlotTakenError } from "../bookings/index.js";
import {
  type PlanDeliveries,
  type PlanVisitChangeResult,
  bookingEvent,
  calendarFile,
  taskEvent,
} from "../maintenance/index.js";
import type { SubscriptionsService } from "../subscriptions/index.js";
import type { HomeAccess } from "./home-access.js";
import { type PlanVisitOptions, PlanVisits, type Requestable } from "./plan-visits.js";
import {
  RESCHEDULE_DATES,
  RESCHEDULE_LOOK_AHEAD,
  type RescheduleOptions,
  RescheduleTakenError,
  type VisitItem,
  taskItem,
} from "./visit-items.js";
import type { VisitsRepository } from "./visits.repository.js";
import {
  type HomeBookingChange,
  PORTAL_RESCHEDULE_MESSAGE,
  PORTAL_SLOTS,
  type PlanVisitChangeInput,
  type ServiceRequestInput,
} from "./visits.schemas.js";

/** How far ahead the list of visits looks (weekly plan visits make a long list; the calendar goes further). */
export const LIST_DAYS_AHEAD = 90;
/** The feed: a month back, six months ahead. */
const FEED_DAYS_BACK = 31;
const FEED_DAYS_AHEAD = 186;
export const SAME_TIME_MESSAGE = "That is the time already booked: choose another date or time";
export const WITHIN_LEAD_MESSAGE = "This inspection is less than 4 days away: please call or e-mail us to change it";

export interface VisitsView {
  today: string;
  /** The upcoming visits, today on. */
  upcoming: VisitItem[];
  /** The calendar's month and its visits. */
  month: string;
  monthItems: VisitItem[];
  requestable: Requestable[];
  reschedule: RescheduleOptions;
  feed: { active: boolean; since: string | null };
}

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What Visits and Account use of other modules (their services), and their settings. */
export interface VisitsDeps {
  homeAccess: Pick<HomeAccess, "propertyIds" | "ownsProperty">;
  bookings: Pick<BookingsService, "byProperty" | "changeByStaff" | "availability" | "book">;
  subscriptions: Pick<SubscriptionsService, "forProperty">;
  /** A plan's on-request services and their requests (docs/decisions.md#26); its visits' changes (#44). */
  planDeliveries: Pick<PlanDeliveries, "forSubscription" | "requestService" | "changeVisit">;
  settings: {
    /** BUSINESS_TZ. */
    timeZone: string;
    /** The site's public URL: the calendar feed's address. */
    publicUrl: string;
  };
}

export class VisitsService {
  /** The plan visits and the plan's on-request services (plan-visits.ts). */
  private readonly planVisits: PlanVisits;

  constructor(
    private readonly repo: VisitsRepository,
    private readonly deps: VisitsDeps,
  ) {
    this.planVisits = new PlanVisits({
      repo,
      homeAccess: deps.homeAccess,
      bookings: deps.bookings,
      subscriptions: deps.subscriptions,
      planDeliveries: deps.planDeliveries,
      settings: deps.settings,
    });
  }

  private get tz() {
    return this.deps.settings.timeZone;
  }

  /**
   * Where a booking may move to (docs/decisions.md#37, one booking rule): the bookings module's availability, the
   * same the wizard offers. From the 4-day lead on, the first 14 dates at which an inspector is free, each with
   * its free parts of the day, and the booking's own clock slot when that is free too (planned for its home's
   * size). With no inspector set up every date and part is offered, as in the wizard.
   */
  async rescheduleOptions(
    now: Date = new Date(),
    booking?: { propertyId: number; timeSlot: string | null },
  ): Promise<RescheduleOptions> {
    const from = earliestInspectionDate(this.tz, now);
    const answer = await this.deps.bookings.availability({
      from,
      to: addDays(from, RESCHEDULE_LOOK_AHEAD - 1),
      ...(booking ? { propertyId: booking.propertyId } : {}),
    });
    const own = booking?.timeSlot && !PORTAL_SLOTS.includes(booking.timeSlot) ? booking.timeSlot : null;
    const days = answer.days
      .map((d) => ({ date: d.date, slots: [...d.parts, ...(own && d.slots.includes(own) ? [own] : [])] }))
      .filter((d) => d.slots.length > 0)
      .slice(0, RESCHEDULE_DATES);
    return { dates: days.map((d) => d.date), slots: PORTAL_SLOTS, days };
  }

  async view(email: string, options: { month?: string } = {}, now: Date = new Date()): Promise<VisitsView> {
    const today = todayIn(this.tz, now);
    const month = options.month ?? today.slice(0, 7);
    const propertyIds = await this.deps.homeAccess.propertyIds(email);
    const monthEnd = lastDayOf(month);
    // One read covers both the list (today on) and the calendar's month (which may be past or far ahead).
    const listEnd = addDays(today, LIST_DAYS_AHEAD);
    const from = [`${month}-01`, today].sort()[0]!;
    const to = [listEnd, monthEnd].sort()[1]!;
    const [items, since] = await Promise.all([this.items(propertyIds, from, to, now), this.repo.feedCreatedAt(email)]);
    return {
      today,
      // Inspections are booked up to a year ahead: all of them; tasks within the list's reach.
      upcoming: items.filter(
        (i) =>
          i.date >= today &&
          i.status !== "completed" &&
          (i.kind === "inspection" || i.date <= addDays(today, LIST_DAYS_AHEAD)),
      ),
      month,
      monthItems: items.filter((i) => i.date.startsWith(month)),
      requestable: await this.planVisits.requestable(propertyIds),
      reschedule: await this.rescheduleOptions(now),
      feed: { active: since !== null, since },
    };
  }

  /** Bookings (not cancelled) from `from` on and tasks of these properties dated in [from, to], by date. */
  private async items(propertyIds: number[], from: string, to: string, now: Date): Promise<VisitItem[]> {
    if (!propertyIds.length) return [];
    const minDate = earliestInspectionDate(this.tz, now);
    const today = todayIn(this.tz, now);
    const [bookings, tasks] = await Promise.all([this.bookingsOf(propertyIds), this.repo.tasks(propertyIds, from, to)]);
    const items: VisitItem[] = [
      ...bookings
        .filter((b) => b.status !== "cancelled" && b.scheduledDate >= from)
        .map((b) => ({
          kind: "inspection" as const,
          id: b.id,
          propertyId: b.propertyId,
          propertyAddress: b.address,
          date: b.scheduledDate,
          time: slotLabel(b.timeSlot),
          title: "Home inspection",
          status: b.status,
          held: false,
          service: null,
          changeable: b.status === "scheduled" && b.scheduledDate >= minDate,
          timeSlot: b.timeSlot,
          skipped: false,
          canMove: false,
          canSkip: false,
          canRestore: false,
        })),
      ...tasks.map((t) => taskItem(t, today)),
    ];
    return items.sort((a, b) => a.date.localeCompare(b.date) || a.kind.localeCompare(b.kind) || a.id - b.id);
  }

  /** One of the homeowner's plan visits with where it may move to (PlanVisits). */
  planVisitOptions(email: string, taskId: number, now: Date = new Date()): Promise<PlanVisitOptions> {
    return this.planVisits.planVisitOptions(email, taskId, now);
  }

  /** Move, skip or restore one of the homeowner's plan visits (docs/decisions.md#44; PlanVisits). */
  changePlanVisit(
    email: string,
    taskId: number,
    change: PlanVisitChangeInput,
    now: Date = new Date(),
  ): Promise<PlanVisitChangeResult> {
    return this.planVisits.changePlanVisit(email, taskId, change, now);
  }

  private async bookingsOf(propertyIds: number[]): Promise<Booking[]> {
    return [...(await this.deps.bookings.byProperty(propertyIds)).values()].flat();
  }

  /** The homeowner's booking, or 404 (someone else's looks exactly like a missing one). */
  private async ownBooking(email: string, id: number): Promise<Booking> {
    const propertyIds = await this.deps.homeAccess.propertyIds(email);
    const booking = (await this.bookingsOf(propertyIds)).find((b) => b.id === id);
    if (!booking) throw new NotFoundError("Booking not found");
    return booking;
  }

  /** The options to move this homeowner's booking to (its home's size, its own slot); 404 when not theirs. */
  async rescheduleOptionsFor(email: string, id: number, now: Date = new Date()): Promise<RescheduleOptions> {
    return this.rescheduleOptions(now, await this.ownBooking(email, id));
  }

  /**
   * Reschedule or cancel a booking: only a scheduled booking at least 4 days away; the new date one of the offered
   * dates, the slot a part of the day or the one it has, at a time an inspector is free (the one booking rule,
   * docs/decisions.md#37). A time taken meanwhile is a 409 with the times still free. Staff see the change in
   * the booking's notes, marked as made in My Home; a move mails the new date.
   */
  async changeBooking(email: string, id: number, change: HomeBookingChange, now: Date = new Date()): Promise<Booking> {
    const own = await this.ownBooking(email, id);
    const minDate = earliestInspectionDate(this.tz, now);
    if (own.scheduledDate < minDate) throw new ConflictError(WITHIN_LEAD_MESSAGE);
    // The time it already has: nothing to move, and "moved" would not be true.
    if (
      change.scheduledDate === own.scheduledDate &&
      (change.timeSlot ?? own.timeSlot) === own.timeSlot &&
      change.status === undefined
    )
      throw new ValidationError(SAME_TIME_MESSAGE, { scheduledDate: SAME_TIME_MESSAGE });
    if (change.scheduledDate) {
      const options = await this.rescheduleOptions(now, own);
      const day = options.days.find((d) => d.date === change.scheduledDate);
      const offeredRange = change.scheduledDate >= minDate && change.scheduledDate <= (options.dates.at(-1) ?? "");
      // A date of the range that is full now, or a free part of it taken meanwhile: the wizard's 409.
      if (!day && !offeredRange)
        throw new ValidationError(PORTAL_RESCHEDULE_MESSAGE, { scheduledDate: PORTAL_RESCHEDULE_MESSAGE });
      if (change.timeSlot && (PORTAL_SLOTS.includes(change.timeSlot) || change.timeSlot === own.timeSlot))
        if (!day?.slots.includes(change.timeSlot)) throw new RescheduleTakenError(options);
    }
    const today = todayIn(this.tz, now);
    const moving = this.deps.bookings.changeByStaff(id, change, {
      check: (current) => {
        if (current.scheduledDate < minDate) throw new ConflictError(WITHIN_LEAD_MESSAGE);
        if (change.timeSlot && !PORTAL_SLOTS.includes(change.timeSlot) && change.timeSlot !== current.timeSlot)
          throw new ValidationError("Time slot must be morning, afternoon or evening", {
            timeSlot: "Time slot must be morning, afternoon or evening",
          });
      },
      note: (current) =>
        change.status === "cancelled"
          ? `Cancelled by the homeowner in My Home on ${today}.`
          : `Rescheduled by the homeowner in My Home on ${today}: was ${longDate(current.scheduledDate)}, ${slotLabel(current.timeSlot)}.`,
    });
    try {
      return await moving;
    } catch (error) {
      if (error instanceof SlotTakenError) throw new RescheduleTakenError(await this.rescheduleOptions(now, own));
      throw error;
    }
  }

  /** An on-request plan service of the homeowner's home, for a date (PlanVisits). */
  requestService(email: string, input: ServiceRequestInput, now: Date = new Date()) {
    return this.planVisits.requestService(email, input, now);
  }

  // --- The private calendar feed ---

  /** A new feed URL for the homeowner; only its hash is kept, and the previous URL stops working. */
  async rotateFeed(email: string): Promise<{ url: string }> {
    const secret = randomBytes(32).toString("base64url");
    await this.repo.replaceFeed(email, hashSecret(secret));
    return { url: `${this.deps.settings.publicUrl.replace(/\/+$/, "")}/my-home/calendar/feed/${secret}.ics` };
  }

  /** The homeowner's bookings and tasks as ICS for the holder of the current secret; null for any other. */
  async feed(secret: string, now: Date = new Date()): Promise<string | null> {
    if (!SECRET_PATTERN.test(secret)) return null;
    const email = await this.repo.feedOwner(hashSecret(secret));
    if (!email) return null;
    const propertyIds = await this.deps.homeAccess.propertyIds(email);
    const today = todayIn(this.tz, now);
    const from = addDays(today, -FEED_DAYS_BACK);
    const to = addDays(today, FEED_DAYS_AHEAD);
    const [bookings, tasks] = await Promise.all([this.bookingsOf(propertyIds), this.repo.tasks(propertyIds, from, to)]);
    const events = [
      ...bookings
        .filter((b) => b.status === "scheduled" && b.scheduledDate >= from && b.scheduledDate <= to)
        .map((b) => bookingEvent(b, this.tz)),
      // Staff notes on a task stay with staff.
      ...tasks.filter((t) => t.status !== "completed").map((t) => taskEvent({ ...t, notes: null }, this.tz)),
    ];
    return calendarFile(events, "Haven: My Home", { subscription: true });
  }

  // --- Preferences ---

  async preferences(email: string): Promise<{ reminders: boolean }> {
    return { reminders: await this.repo.remindersOn(email) };
  }

  async setPreferences(email: string, input: { reminders: boolean }): Promise<{ reminders: boolean }> {
    await this.repo.setReminders(email, input.reminders);
    return this.preferences(email);
  }
}

/** 'YYYY-MM' → its last day 'YYYY-MM-DD'. */
export function lastDayOf(month: string): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The weeks (Monday first) covering a month: each day a date, or null outside the month. */
export function monthWeeks(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const last = lastDayOf(month);
  const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = first; d <= last; d = addDays(d, 1)) days.push(d);
  while (days.length % 7) days.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return weeks;
}

/** 'YYYY-MM' one month before or after. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}
