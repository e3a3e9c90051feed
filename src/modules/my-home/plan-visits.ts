// My Home's plan visits (docs/decisions.md#26 and #44): where one may move to, the homeowner's move, skip or
// restore (the rules and the writes are maintenance's PlanDeliveries.changeVisit), and the on-request services a
// home's plan includes with their requests. VisitsService (visits.service.ts) hands these calls here.
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { Booking } from "../bookings/bookings.schemas.js";
import { earliestInspectionDate, todayIn } from "../../shared/business-time.js";
import { type BookingsService, SlotTakenError } from "../bookings/index.js";
import {
  ANNUAL_INSPECTION_SERVICE,
  type InspectionBooker,
  type PlanDeliveries,
  type PlanVisitChangeResult,
  VISIT_RULE_MESSAGES,
  moveWindow,
} from "../maintenance/index.js";
import { SERVING_STATUSES } from "../subscriptions/subscriptions.constants.js";
import type { SubscriptionsService } from "../subscriptions/index.js";
import type { HomeAccess } from "./home-access.js";
import { RESCHEDULE_DATES, RescheduleTakenError, type VisitItem, taskItem } from "./visit-items.js";
import type { VisitsRepository } from "./visits.repository.js";
import { PORTAL_SLOTS, type PlanVisitChangeInput, type ServiceRequestInput } from "./visits.schemas.js";

/** Where a plan visit may move to (docs/decisions.md#44): its window, and for the annual inspection the free times. */
export interface PlanVisitOptions {
  visit: VisitItem;
  /** The window's first and last date ('YYYY-MM-DD'). */
  from: string;
  to: string;
  /** The annual inspection: the dates and times an inspector is free in the window (one booking rule, #37). */
  days: { date: string; slots: string[] }[] | null;
  /** Of those, the 14 dates nearest the due date: what the page offers. */
  shownDays: { date: string; slots: string[] }[] | null;
  /** Why the visit cannot be changed now, when it cannot. */
  reason: string | null;
}

/** The on-request services a home's plan includes, which the homeowner may ask for. */
export interface Requestable {
  propertyId: number;
  propertyAddress: string;
  subscriptionId: number;
  services: { service: string; title: string }[];
}

/** What PlanVisits uses; VisitsService builds it from its own deps. */
export interface PlanVisitsDeps {
  repo: Pick<VisitsRepository, "task">;
  homeAccess: Pick<HomeAccess, "propertyIds" | "ownsProperty">;
  bookings: Pick<BookingsService, "byProperty" | "availability" | "book">;
  subscriptions: Pick<SubscriptionsService, "forProperty">;
  planDeliveries: Pick<PlanDeliveries, "forSubscription" | "requestService" | "changeVisit">;
  settings: { timeZone: string };
}

export class PlanVisits {
  constructor(private readonly deps: PlanVisitsDeps) {}

  private get tz() {
    return this.deps.settings.timeZone;
  }

  private get planServices() {
    return this.deps.planDeliveries;
  }

  /** One of the homeowner's plan visits with where it may move to; 404 when not theirs or not a plan visit. */
  async planVisitOptions(email: string, taskId: number, now: Date = new Date()): Promise<PlanVisitOptions> {
    const today = todayIn(this.tz, now);
    const propertyIds = await this.deps.homeAccess.propertyIds(email);
    const task = propertyIds.length ? await this.deps.repo.task(propertyIds, taskId) : null;
    if (!task?.planService || !task.scheduledDate) throw new NotFoundError("Visit not found");
    const visit = taskItem(task, today);
    const window = moveWindow(
      { planService: task.planService, rrule: task.rrule, seriesDate: task.seriesDate ?? task.scheduledDate },
      today,
    );
    let days: PlanVisitOptions["days"] = null;
    if (task.planService === ANNUAL_INSPECTION_SERVICE && visit.canMove) {
      // The one booking rule (docs/decisions.md#37): from the 4-day lead, the times an inspector is free.
      const from = [window.from, earliestInspectionDate(this.tz, now)].sort()[1]!;
      const answer =
        from <= window.to
          ? await this.deps.bookings.availability({ from, to: window.to, propertyId: task.propertyId })
          : { days: [] };
      days = answer.days.map((d) => ({ date: d.date, slots: d.parts })).filter((d) => d.slots.length > 0);
    }
    // The page offers the 14 free dates nearest the due date; a move may take any free date of the window.
    const due = task.seriesDate ?? task.scheduledDate;
    const distance = (d: string) => Math.abs(Date.parse(d) - Date.parse(due));
    const shown = days
      ? [...days]
          .sort((a, b) => distance(a.date) - distance(b.date) || a.date.localeCompare(b.date))
          .slice(0, RESCHEDULE_DATES)
          .sort((a, b) => a.date.localeCompare(b.date))
      : null;
    const M = VISIT_RULE_MESSAGES;
    const reason = visit.canMove
      ? null
      : visit.skipped
        ? visit.canRestore
          ? null
          : M.unskipTooLate
        : visit.held
          ? M.held
          : task.status !== "scheduled" && task.status !== "pending"
            ? M.notOpen
            : M.tooClose;
    return { visit, from: window.from, to: window.to, days, shownDays: shown, reason };
  }

  /**
   * Move, skip or restore one of the homeowner's plan visits (docs/decisions.md#44; the rules and the writes are
   * PlanDeliveries.changeVisit's). Moving the annual inspection books it at a time an inspector is free: the time
   * must be one the calendars offer (else the wizard's 409 with the times still free).
   */
  async changePlanVisit(
    email: string,
    taskId: number,
    change: PlanVisitChangeInput,
    now: Date = new Date(),
  ): Promise<PlanVisitChangeResult> {
    const propertyIds = await this.deps.homeAccess.propertyIds(email);
    const booker: InspectionBooker = {
      book: async (tx, at) => {
        const options = await this.planVisitOptions(email, taskId, now);
        const day = options.days?.find((d) => d.date === at.date);
        if (!day?.slots.includes(at.timeSlot))
          throw new RescheduleTakenError({
            dates: (options.days ?? []).map((d) => d.date),
            slots: PORTAL_SLOTS,
            days: options.days ?? [],
          });
        if (at.customerId === null) throw new ConflictError("This home has no customer on file: please call us");
        const booking = await this.deps.bookings.book(
          tx,
          {
            propertyId: at.propertyId,
            customerId: at.customerId,
            scheduledDate: at.date,
            timeSlot: at.timeSlot,
            notes: at.note,
            source: "booking-page",
          },
          { email, name: at.clientName },
        );
        return { id: booking.id, scheduledDate: booking.scheduledDate, timeSlot: booking.timeSlot };
      },
      booked: async (id) => {
        const booking = (await this.bookingsOf(propertyIds)).find((b) => b.id === id);
        return booking
          ? { scheduledDate: booking.scheduledDate, timeSlot: booking.timeSlot, status: booking.status }
          : null;
      },
    };
    try {
      return await this.planServices.changeVisit({ taskId, propertyIds, ...change }, booker, now);
    } catch (error) {
      if (error instanceof SlotTakenError) {
        const options = await this.planVisitOptions(email, taskId, now);
        throw new RescheduleTakenError({
          dates: (options.days ?? []).map((d) => d.date),
          slots: PORTAL_SLOTS,
          days: options.days ?? [],
        });
      }
      throw error;
    }
  }

  private async bookingsOf(propertyIds: number[]): Promise<Booking[]> {
    return [...(await this.deps.bookings.byProperty(propertyIds)).values()].flat();
  }

  /** The on-request services of each home whose plan serves now. */
  async requestable(propertyIds: number[]): Promise<Requestable[]> {
    const out: Requestable[] = [];
    for (const propertyId of propertyIds) {
      const found = await this.deps.subscriptions.forProperty(propertyId);
      if (!found || !SERVING_STATUSES.includes(found.subscription.status)) continue;
      const services = (await this.planServices.forSubscription(found.subscription.id)).filter(
        (s) => s.onRequest && !s.endedAt,
      );
      if (!services.length) continue;
      out.push({
        propertyId,
        propertyAddress: found.subscription.propertyAddress ?? "",
        subscriptionId: found.subscription.id,
        services: services.map((s) => ({ service: s.service, title: s.title })),
      });
    }
    return out;
  }

  /** An on-request plan service of the homeowner's home, for a date: a task staff see, marked as asked for by the homeowner. */
  async requestService(email: string, input: ServiceRequestInput, now: Date = new Date()) {
    if (!(await this.deps.homeAccess.ownsProperty(email, input.propertyId)))
      throw new NotFoundError("Property not found");
    const found = await this.deps.subscriptions.forProperty(input.propertyId);
    if (!found || !SERVING_STATUSES.includes(found.subscription.status))
      throw new ConflictError("This home has no plan with services to request");
    return this.planServices.requestService(
      {
        subscriptionId: found.subscription.id,
        service: input.service,
        date: input.date,
        notes: input.notes ?? null,
        source: "portal",
      },
      now,
    );
  }
}
