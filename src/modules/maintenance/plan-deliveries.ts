// What each plan delivers (docs/decisions.md#26 and #27): every service a subscription's
// plan includes is a schedule of its property (`maintenance_schedules.subscription_id`, `plan_service`),
// made, held, released and ended by `sync`, which the subscriptions service calls in the transaction of every
// state change. Cadences are RFC 5545 rules from plans.catalog.ts, expanded like any other schedule.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { fieldsFromZod, NotFoundError, ConflictError, ValidationError } from "../../http/errors.js";
import { addDays, longDate, todayIn } from "../../shared/business-time.js";
import { type PlanServiceDefinition, planServiceByKey, planServicesOf } from "../plans/index.js";
import type { Notifications } from "../notifications/index.js";
import type { PlanType } from "../plans/plans.schemas.js";
import { ENDED_STATUSES, SERVING_STATUSES } from "../subscriptions/subscriptions.constants.js";
import type { MaintenanceTask } from "./maintenance.constants.js";
import type { PlanDeliveriesRepository, PlanScheduleRow, PlanVisitRow } from "./plan-deliveries.repository.js";
import type { MailService } from "../mail/index.js";
import { calendarFile, taskEvent, taskWindow } from "./maintenance.ics.js";
import { planVisitChangeEmail } from "./plan-visit-email.js";
import {
  ANNUAL_INSPECTION_SERVICE,
  VISIT_RULE_MESSAGES,
  changeableOn,
  moveWindow,
  skippable,
} from "./plan-visit-rules.js";
import type { DatedTask } from "./task-rows.js";
import { DEFAULT_HORIZON_DAYS, type PlanServiceRequestInput, planServiceRequestSchema } from "./maintenance.schemas.js";
import { firstRuleOccurrence, nextRuleOccurrence, occurrencesBetween } from "./recurrence.js";

/** A plan service of a subscription, as staff pages and the API show it. */
export interface PlanServiceSchedule {
  scheduleId: number;
  /** 'window-cleaning', 'hvac-maintenance/furnace' (plans.catalog.ts PLAN_SERVICES keys). */
  service: string;
  title: string;
  rrule: string | null;
  /** The next visit on or after today (a task's date, else the rule's); null when ended or on request. */
  nextDate: string | null;
  held: boolean;
  endedAt: string | null;
  onRequest: boolean;
}

export interface PlanServiceSubscription {
  id: number;
  propertyId: number | null;
  planType: PlanType;
  status: string;
  /** The subscription's start date in the business zone, 'YYYY-MM-DD'. */
  anchor: string;
}

export interface SyncResult {
  /** Schedules made, or reopened (a service added back after a downgrade). */
  added: number;
  /** Schedules ended (a downgrade, or the subscription ended). */
  ended: number;
  /** Future tasks held now (past due), and tasks released (paid again). */
  held: number;
  released: number;
}

export interface PlanDeliveriesSettings {
  timeZone: string;
  /** The expansion horizon of a new schedule, in days (the daily expansion's default). */
  horizonDays?: number;
  /** What the homeowner's confirmation of a changed visit names (docs/decisions.md#44). */
  supportEmail?: string;
  supportPhone?: string;
  publicUrl?: string;
}

/** A homeowner's change to a plan visit (docs/decisions.md#44). */
export interface PlanVisitChange {
  taskId: number;
  /** The homeowner's properties (HomeAccess): a visit of any other is a 404. */
  propertyIds: number[];
  action: "move" | "skip" | "unskip";
  /** The new date of a move. */
  date?: string;
  /** The annual inspection's time: a part of the day or a clock slot the inspectors' calendars offer. */
  timeSlot?: string;
}

/** What a change of the annual inspection asks of the bookings module (My Home passes it; maintenance sits above). */
export interface InspectionBooker {
  /** Books the inspection in the change's transaction (a 409 when the time was just taken). */
  book(
    tx: Tx,
    at: {
      propertyId: number;
      customerId: number | null;
      clientName: string;
      date: string;
      timeSlot: string;
      note: string;
    },
  ): Promise<{ id: number; scheduledDate: string; timeSlot: string }>;
  /** The booking a moved inspection became, as it is now. */
  booked(id: number): Promise<{ scheduledDate: string; timeSlot: string; status: string } | null>;
}

export interface PlanVisitChangeResult {
  task: MaintenanceTask;
  /** False when the visit already was as asked (a repeat): nothing written, nobody told again. */
  changed: boolean;
  /** The inspection booking a moved annual inspection became. */
  bookingId: number | null;
}

/** What PlanDeliveries uses; src/container.ts builds them. */
export interface PlanDeliveriesDeps {
  repo: PlanDeliveriesRepository;
  transaction: TransactionRunner;
  settings: PlanDeliveriesSettings;
  /** The staff bell: a plan visit the homeowner requested, moved, skipped or restored (notifications README). */
  notifications?: Pick<Notifications, "raise"> | null;
  /** The homeowner's confirmation of a changed visit, in the change's transaction. */
  mail?: Pick<MailService, "enqueue"> | null;
}

/** Statuses whose tasks run unheld; any other status still serving or not yet ended holds them. */
const RUNNING_STATUSES: readonly string[] = ["active", "trialing"];

/**
 * Plan services of subscriptions (`container.planServices`). SubscriptionsService calls it through a listener port
 * of its own (subscriptions sits below maintenance), so its method names and signatures are that port's.
 */
export class PlanDeliveries {
  private readonly repo: PlanDeliveriesRepository;
  private readonly settings: PlanDeliveriesSettings;

  constructor(private readonly deps: PlanDeliveriesDeps) {
    this.repo = deps.repo;
    this.settings = deps.settings;
  }

  private get horizonDays() {
    return this.settings.horizonDays ?? DEFAULT_HORIZON_DAYS;
  }

  /**
   * Makes the property's plan-service schedules match the subscription's plan and status, in the caller's
   * transaction. A serving status (active, trialing, past_due) adds the plan's missing services (reopening
   * an ended one) and ends those the plan no longer has; an ended status (canceled, unpaid,
   * incomplete_expired) ends them all. Ending cancels the future tasks nobody started or edited (version 1).
   * Past due (or any status that neither runs nor has ended) holds the future tasks; active releases them.
   * Idempotent: a second run with the same input changes nothing. Holds and releases leave `version` alone:
   * it counts people's edits, and an edited task is one an end must keep.
   */
  async sync(tx: Tx, sub: PlanServiceSubscription, today: string): Promise<SyncResult> {
    const result: SyncResult = { added: 0, ended: 0, held: 0, released: 0 };
    if (!sub.propertyId) return result;
    const propertyId = sub.propertyId;
    // Lock the subscription's schedules: two syncs of one subscription run one after the other.
    const existing = await this.repo.lockSchedules(tx, sub.id);
    const serving = SERVING_STATUSES.includes(sub.status);
    const ended = ENDED_STATUSES.includes(sub.status);
    const hold = !ended && !RUNNING_STATUSES.includes(sub.status);
    const wanted = serving ? planServicesOf(sub.planType) : [];
    const byKey = new Map(existing.map((s) => [s.planService, s]));

    // End what the plan no longer includes (every service once the subscription has ended).
    const toEnd = existing.filter(
      (s) => !s.endedAt && (ended || (serving && !wanted.some((w) => w.key === s.planService))),
    );
    if (toEnd.length) {
      // An edited task stays as staff left it, without the hold of a subscription that no longer runs.
      await this.repo.endSchedules(
        tx,
        toEnd.map((s) => s.id),
        today,
      );
      result.ended = toEnd.length;
    }

    // Add the missing services; reopen the ended ones the plan includes again (downgrade, then upgrade).
    const toExpand: number[] = [];
    for (const service of wanted) {
      const current = byKey.get(service.key);
      if (!current) {
        const id = await this.insertSchedule(
          tx,
          service,
          { subscriptionId: sub.id, propertyId, anchor: sub.anchor, held: hold },
          today,
        );
        if (id) {
          toExpand.push(id);
          result.added += 1;
        }
      } else if (current.endedAt) {
        // The tasks its end cancelled come back (same series, so the same dates); edited ones never left.
        await this.repo.reopenSchedule(tx, current.id, hold, today);
        toExpand.push(current.id);
        result.added += 1;
      } else if (service.cadence === "annual-inspection") {
        if (await this.reanchorInspection(tx, current, propertyId, today)) toExpand.push(current.id);
      }
    }

    // Hold or release the tasks of the schedules still running.
    const open = existing.filter((s) => !s.endedAt && !toEnd.includes(s)).map((s) => s.id);
    if (open.length) {
      const changed = await this.repo.setHeld(tx, open, hold, today);
      if (hold) result.held = changed;
      else result.released = changed;
    }

    if (toExpand.length) await this.expand(tx, toExpand, today);
    return result;
  }

  /** The plan services of a subscription, in the catalog's order, with each one's next date. */
  async forSubscription(
    subscriptionId: number,
    today: string = todayIn(this.settings.timeZone),
  ): Promise<PlanServiceSchedule[]> {
    const rows = await this.repo.listForSubscription(subscriptionId, today);
    const order = (key: string) => {
      const definition = planServiceByKey(key);
      return definition ? planServicesOf("premium").indexOf(definition) : Number.MAX_SAFE_INTEGER;
    };
    return rows
      .map(({ rrule, endedAt, nextTask, ...r }) => {
        const ruleNext = rrule ? nextRuleOccurrence(rrule, r.startDate, today) : null;
        const nextDate =
          endedAt || !rrule ? null : ([nextTask, ruleNext].filter((d): d is string => Boolean(d)).sort()[0] ?? null);
        return {
          scheduleId: r.id,
          service: r.planService,
          title: r.title,
          rrule,
          nextDate,
          held: r.held,
          endedAt,
          onRequest: !rrule,
        };
      })
      .sort((a, b) => order(a.service) - order(b.service) || a.scheduleId - b.scheduleId);
  }

  /**
   * A dated task for one of the plan's on-request services (vacation prep, the concierge line, repairs
   * coordination), asked for by staff or the homeowner. 400 when the plan does not include the service or
   * it is delivered on a schedule, or for a date in the past; 409 when the subscription no longer serves
   * or the service is already requested for that date.
   */
  async requestService(
    input: { subscriptionId: number; service: string; date: string; notes?: string | null; source: "staff" | "portal" },
    now: Date = new Date(),
  ): Promise<MaintenanceTask> {
    const parsed = planServiceRequestSchema.safeParse({ service: input.service, date: input.date, notes: input.notes });
    if (!parsed.success) throw new ValidationError("Invalid input", fieldsFromZod(parsed.error));
    const request: PlanServiceRequestInput = parsed.data;
    const sub = await this.repo.planSubscription(input.subscriptionId);
    if (!sub) throw new NotFoundError("Subscription not found");
    const definition = planServiceByKey(request.service);
    const included = planServicesOf(sub.plan_type as PlanType);
    if (!definition || !included.includes(definition))
      throw new ValidationError("The plan does not include this service", {
        service: `The ${sub.plan_type} plan does not include this service`,
      });
    if (definition.cadence !== "on-request")
      throw new ValidationError("This service is delivered on its schedule", {
        service: `${definition.title} is delivered on its schedule; it is not requested`,
      });
    const today = todayIn(this.settings.timeZone, now);
    if (request.date < today)
      throw new ValidationError("Choose today or a later date", { date: "Choose today or a later date" });
    if (!SERVING_STATUSES.includes(sub.status as string) || !sub.property_id)
      throw new ConflictError("This subscription no longer includes services");
    const propertyId = sub.property_id;
    return this.deps.transaction(async (tx) => {
      // The subscription's on-request schedule holds its requests; sync makes it, but make sure.
      await this.sync(
        tx,
        {
          id: sub.id,
          propertyId,
          planType: sub.plan_type,
          status: sub.status,
          anchor: anchorOf(sub.billing_anchor),
        },
        today,
      );
      const schedule = await this.repo.findSchedule(tx, sub.id, definition.key);
      if (!schedule || schedule.ended_at) throw new ConflictError("This subscription no longer includes this service");
      const by = input.source === "staff" ? "staff" : "the homeowner";
      const task = await this.repo.insertRequestedTask(tx, {
        propertyId,
        scheduleId: schedule.id,
        title: definition.title,
        description: `Requested by ${by} (${sub.plan_type} plan service).`,
        category: definition.category,
        scheduledDate: request.date,
        estimatedDuration: definition.estimatedDuration,
        notes: request.notes ?? null,
        held: Boolean(schedule.held),
      });
      if (!task) throw new ConflictError(`${definition.title} is already requested for ${request.date}`);
      if (input.source === "portal")
        await this.deps.notifications?.raise(tx, {
          kind: "visit-requested",
          recordType: "maintenance_task",
          recordId: task.id,
          link: `/admin/properties/${propertyId}`,
          text: `${definition.title} requested by the homeowner for ${request.date}`,
        });
      return task;
    });
  }

  /**
   * The homeowner moves, skips or restores a plan visit (docs/decisions.md#44), under the task's row lock: a repeat
   * of a change already made answers the visit as it is (`changed: false`) and tells nobody again. Each change
   * raises the office's bell and e-mails the homeowner (a move and a restore with the visit's .ics). Moving the
   * annual inspection books it (`booker`) at a time the inspectors' calendars offer; the booking is then the visit.
   */
  async changeVisit(
    change: PlanVisitChange,
    booker: InspectionBooker | null,
    now: Date = new Date(),
  ): Promise<PlanVisitChangeResult> {
    const today = todayIn(this.settings.timeZone, now);
    const M = VISIT_RULE_MESSAGES;
    return this.deps.transaction(async (tx) => {
      const visit = await this.repo.lockPlanVisit(tx, change.taskId);
      if (!visit || !change.propertyIds.includes(visit.task.propertyId)) throw new NotFoundError("Visit not found");
      const task = visit.task;
      const date = task.scheduledDate;
      const same = (changed: boolean, bookingId = visit.bookingId) => ({ task, changed, bookingId });
      const isInspection = visit.planService === ANNUAL_INSPECTION_SERVICE;

      // Repeats: the visit is already as asked.
      if (change.action === "skip" && visit.skippedAt) return same(false);
      if (change.action === "unskip" && !visit.skippedAt && task.status !== "cancelled") return same(false);
      if (change.action === "move" && isInspection && visit.bookingId) {
        const booking = await booker?.booked(visit.bookingId);
        if (booking && booking.scheduledDate === change.date && booking.timeSlot === change.timeSlot)
          return same(false);
        throw new ConflictError(M.booked);
      }
      if (change.action === "move" && !isInspection && date === change.date && !visit.skippedAt) return same(false);

      if (visit.scheduleEnded || !SERVING_STATUSES.includes(visit.subscriptionStatus)) throw new ConflictError(M.ended);
      if (!date) throw new ConflictError(M.notOpen);

      if (change.action === "unskip") {
        if (!visit.skippedAt) throw new ConflictError(M.notSkipped);
        if (date <= today) throw new ConflictError(M.unskipTooLate);
        const restored = await this.repo.changeVisit(tx, task.id, {
          status: "scheduled",
          skipped: false,
          note: `Restored by the homeowner in My Home on ${today}.`,
        });
        await this.tell(tx, visit, "unskip", restored, date);
        return { task: restored, changed: true, bookingId: null };
      }

      if (visit.skippedAt) throw new ConflictError(change.action === "skip" ? M.notOpen : M.skipped);
      if (!["pending", "scheduled"].includes(task.status)) throw new ConflictError(M.notOpen);
      if (task.held) throw new ConflictError(M.held);
      if (!changeableOn(date, today)) throw new ConflictError(M.tooClose);

      if (change.action === "skip") {
        if (!skippable(visit.planService)) throw new ConflictError(M.inspectionSkip);
        const skipped = await this.repo.changeVisit(tx, task.id, {
          status: "cancelled",
          skipped: true,
          note: `Skipped by the homeowner in My Home on ${today}.`,
        });
        await this.tell(tx, visit, "skip", skipped, date);
        return { task: skipped, changed: true, bookingId: null };
      }

      // A move: within the window around the series date the visit stands for.
      const to = change.date!;
      const series = visit.seriesDate ?? date;
      const window = moveWindow({ planService: visit.planService, rrule: visit.rrule, seriesDate: series }, today);
      if (to < window.from || to > window.to)
        throw new ValidationError(M.outsideWindow, {
          date: `Choose a date from ${longDate(window.from)} to ${longDate(window.to)}`,
        });
      if (isInspection) {
        if (!booker || !change.timeSlot) throw new ValidationError("Choose a time", { timeSlot: "Choose a time" });
        const booking = await booker.book(tx, {
          propertyId: task.propertyId,
          customerId: visit.customerId,
          clientName: visit.clientName,
          date: to,
          timeSlot: change.timeSlot,
          note: `The plan's annual inspection, due ${date}, booked by the homeowner in My Home.`,
        });
        const moved = await this.repo.changeVisit(tx, task.id, {
          status: "cancelled",
          bookingId: booking.id,
          seriesDate: series,
          note: `Booked by the homeowner in My Home on ${today}: inspection booking ${booking.id}, ${to}.`,
        });
        await this.raiseBell(tx, visit, "visit-moved", `moved the annual inspection due ${date} to a booking on ${to}`);
        return { task: moved, changed: true, bookingId: booking.id };
      }
      if (await this.repo.visitOn(tx, task.scheduleId!, to, task.id)) throw new ConflictError(M.taken);
      const moved = await this.repo.changeVisit(tx, task.id, {
        scheduledDate: to,
        seriesDate: series,
        note: `Moved by the homeowner in My Home on ${today}: was ${date}.`,
      });
      await this.tell(tx, visit, "move", moved, date);
      return { task: moved, changed: true, bookingId: null };
    });
  }

  /** The office's bell for a homeowner's change of a plan visit. */
  private async raiseBell(
    tx: Tx,
    visit: PlanVisitRow,
    kind: "visit-moved" | "visit-skipped" | "visit-restored",
    text: string,
  ): Promise<void> {
    await this.deps.notifications?.raise(tx, {
      kind,
      recordType: "maintenance_task",
      recordId: visit.task.id,
      link: `/admin/properties/${visit.task.propertyId}`,
      text: `${visit.clientName} ${text} (${visit.task.title}, ${visit.propertyAddress})`,
    });
  }

  /** The bell and the homeowner's confirmation of a move, skip or restore. */
  private async tell(
    tx: Tx,
    visit: PlanVisitRow,
    action: "move" | "skip" | "unskip",
    after: MaintenanceTask,
    before: string,
  ): Promise<void> {
    const date = after.scheduledDate!;
    await this.raiseBell(
      tx,
      visit,
      action === "move" ? "visit-moved" : action === "skip" ? "visit-skipped" : "visit-restored",
      action === "move"
        ? `moved a plan visit from ${before} to ${date}`
        : action === "skip"
          ? `skipped the plan visit of ${date}`
          : `restored the plan visit of ${date}`,
    );
    if (!this.deps.mail) return;
    const dated: DatedTask = {
      ...after,
      notes: null,
      propertyAddress: visit.propertyAddress,
      clientName: visit.clientName,
      clientEmail: visit.clientEmail,
      location: visit.propertyAddress,
      planService: visit.planService,
    };
    const window = taskWindow(dated);
    await this.deps.mail.enqueue(
      tx,
      planVisitChangeEmail({
        to: visit.clientEmail,
        name: visit.clientName,
        action,
        what: after.title,
        location: visit.propertyAddress,
        dateLabel: longDate(date),
        previousDateLabel: longDate(before),
        timeLabel: window.label,
        ics: action === "skip" ? undefined : calendarFile([taskEvent(dated, this.settings.timeZone)], "Haven"),
        supportEmail: this.settings.supportEmail ?? "",
        supportPhone: this.settings.supportPhone ?? "",
        publicUrl: this.settings.publicUrl,
      }),
    );
  }

  /** A new plan-service schedule (once per subscription and service: the unique index drops a repeat). */
  private async insertSchedule(
    tx: Tx,
    service: PlanServiceDefinition,
    sub: { subscriptionId: number; propertyId: number; anchor: string; held: boolean },
    today: string,
  ): Promise<number | null> {
    const notBefore = laterDate(sub.anchor, today);
    let startDate: string;
    if (service.cadence === "rrule") startDate = firstRuleOccurrence(service.rrule!, notBefore) ?? notBefore;
    else if (service.cadence === "annual-inspection")
      startDate = await this.inspectionDue(tx, sub.propertyId, sub.anchor, today);
    else startDate = notBefore;
    return this.repo.insertSchedule(tx, {
      propertyId: sub.propertyId,
      title: service.title,
      description: service.cadence === "on-request" ? "On request: staff or the homeowner ask for a date." : null,
      category: service.category,
      estimatedDuration: service.estimatedDuration,
      recurrenceType: recurrenceTypeOf(service.rrule),
      recurrenceInterval: /INTERVAL=(\d+)/.exec(service.rrule ?? "")?.[1] ?? 1,
      startDate,
      subscriptionId: sub.subscriptionId,
      planService: service.key,
      rrule: service.rrule,
      held: sub.held,
    });
  }

  /**
   * The health report's due date: a year after the home's last completed inspection, or two weeks after
   * the start when it has none; never before today (an overdue inspection is due now).
   */
  private async inspectionDue(tx: Tx, propertyId: number, anchor: string, today: string): Promise<string> {
    // The latest of the last completed inspection and a booked one still to come: the purchase journey books the
    // first inspection before or after the plan starts, and that booking is this year's (docs/decisions.md#26).
    const last = await this.lastInspection(tx, propertyId);
    const booked = await this.repo.upcomingInspectionDate(tx, propertyId, today);
    const latest = [last, booked]
      .filter((d): d is string => Boolean(d))
      .sort()
      .at(-1);
    return laterDate(latest ? addYear(latest) : addDays(anchor, 14), today);
  }

  /**
   * An inspection was booked for the property (BookingsService's onBooked port, in the booking's transaction):
   * the plan's annual inspection is then due a year after it, and its due task before that is cancelled
   * (docs/decisions.md#26: no due task while an inspection is booked).
   */
  async inspectionBooked(tx: Tx, booking: { propertyId: number; scheduledDate: string }, now: Date = new Date()) {
    const today = todayIn(this.settings.timeZone, now);
    const due = addYear(booking.scheduledDate);
    const schedules = await this.repo.lockInspectionSchedules(tx, booking.propertyId);
    const moved = schedules.filter((s) => due > s.startDate).map((s) => s.id);
    for (const id of moved) await this.repo.restartSchedule(tx, id, due, today);
    if (moved.length) await this.expand(tx, moved, today);
  }

  private async lastInspection(tx: Tx, propertyId: number): Promise<string | null> {
    const at = await this.repo.lastCompletedInspectionAt(tx, propertyId);
    return at ? todayIn(this.settings.timeZone, at) : null;
  }

  /**
   * An inspection completed since the health report's schedule started moves its next due date to a year
   * after it: the schedule restarts there and its untouched tasks before that date are cancelled.
   */
  private async reanchorInspection(
    tx: Tx,
    schedule: PlanScheduleRow,
    propertyId: number,
    today: string,
  ): Promise<boolean> {
    const last = await this.lastInspection(tx, propertyId);
    if (!last || addYear(last) <= schedule.startDate) return false;
    const due = addYear(last);
    await this.repo.restartSchedule(tx, schedule.id, due, today);
    return true;
  }

  /** The schedules' tasks from today up to the horizon, in the caller's transaction (held when the schedule is). */
  private async expand(tx: Tx, ids: number[], today: string): Promise<void> {
    const through = addDays(today, this.horizonDays);
    const schedules = await this.repo.expandable(tx, ids);
    const scheduleIds: number[] = [];
    const dates: string[] = [];
    for (const s of schedules) {
      for (const date of occurrencesBetween(
        { startDate: s.start_date, recurrenceType: "annually", recurrenceInterval: 1, rrule: s.rrule },
        today,
        through,
      )) {
        scheduleIds.push(s.id);
        dates.push(date);
      }
    }
    await this.repo.schedules.insertOccurrences(scheduleIds, dates, tx, false);
    await this.repo.schedules.markExpanded(
      schedules.map((s) => s.id),
      through,
      tx,
    );
  }
}

const laterDate = (a: string, b: string) => (a >= b ? a : b);
/** 'YYYY-MM-DD' a year later; Feb 29 becomes Feb 28. */
const addYear = (date: string) => {
  const next = `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;
  return next.endsWith("-02-29") ? `${next.slice(0, 8)}28` : next;
};
/** A date column read back as text or a Date. */
const anchorOf = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value));
/** The closest of the schedule's recurrence types (shown in lists; the rule decides the dates). */
function recurrenceTypeOf(rrule: string | null): "weekly" | "monthly" | "annually" {
  if (rrule?.includes("FREQ=WEEKLY")) return "weekly";
  if (rrule?.includes("FREQ=MONTHLY")) return "monthly";
  return "annually";
}
