// What each plan delivers (docs/decisions.md#26 and #27): every service a subscription's
// plan includes is a schedule of its property (`maintenance_schedules.subscription_id`, `plan_service`),
// made, held, released and ended by `sync`, which the subscriptions service calls in the transaction of every
// state change. Cadences are RFC 5545 rules from plans.catalog.ts, expanded like any other schedule.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { fieldsFromZod, NotFoundError, ConflictError, ValidationError } from "../../http/errors.js";
import { addDays, todayIn } from "../../shared/business-time.js";
import { type PlanServiceDefinition, planServiceByKey, planServicesOf } from "../plans/index.js";
import type { Notifications } from "../notifications/index.js";
import type { PlanType } from "../plans/plans.schemas.js";
import { ENDED_STATUSES, SERVING_STATUSES } from "../subscriptions/subscriptions.constants.js";
import type { MaintenanceTask } from "./maintenance.constants.js";
import type { PlanDeliveriesRepository, PlanScheduleRow } from "./plan-deliveries.repository.js";
import type { MailService } from "../mail/index.js";
import {
  type InspectionBooker,
  type PlanVisitChange,
  type PlanVisitChangeResult,
  PlanVisitChanges,
} from "./plan-visit-changes.js";
import { DEFAULT_HORIZON_DAYS, type PlanServiceRequestInput, planServiceRequestSchema } from "./maintenance.schemas.js";
import {
  firstRuleOccurrence,
  nextRuleOccurrence,
  occurrencesBetween,
  recurrenceTypeOf,
  yearLater,
} from "./recurrence.js";

import type { PlanServiceSchedule, PlanServiceSubscription, SyncResult } from "./plan-deliveries.types.js";

export type { PlanServiceSchedule, PlanServiceSubscription, SyncResult } from "./plan-deliveries.types.js";

export interface PlanDeliveriesSettings {
  timeZone: string;
  /** The expansion horizon of a new schedule, in days (the daily expansion's default). */
  horizonDays?: number;
  /** What the homeowner's confirmation of a changed visit names (docs/decisions.md#44). */
  supportEmail?: string;
  supportPhone?: string;
  publicUrl?: string;
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
  /** The homeowner's moves, skips and restores of plan visits (plan-visit-changes.ts). */
  private readonly visitChanges: PlanVisitChanges;

  constructor(private readonly deps: PlanDeliveriesDeps) {
    this.repo = deps.repo;
    this.settings = deps.settings;
    this.visitChanges = new PlanVisitChanges({
      repo: deps.repo,
      transaction: deps.transaction,
      settings: deps.settings,
      notifications: deps.notifications,
      mail: deps.mail,
    });
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
   * The homeowner moves, skips or restores a plan visit (docs/decisions.md#44); PlanVisitChanges holds the rules,
   * the bell and the homeowner's e-mail.
   */
  changeVisit(
    change: PlanVisitChange,
    booker: InspectionBooker | null,
    now: Date = new Date(),
  ): Promise<PlanVisitChangeResult> {
    return this.visitChanges.changeVisit(change, booker, now);
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
    return laterDate(latest ? yearLater(latest) : addDays(anchor, 14), today);
  }

  /**
   * An inspection was booked for the property (BookingsService's onBooked port, in the booking's transaction):
   * the plan's annual inspection is then due a year after it, and its due task before that is cancelled
   * (docs/decisions.md#26: no due task while an inspection is booked).
   */
  async inspectionBooked(tx: Tx, booking: { propertyId: number; scheduledDate: string }, now: Date = new Date()) {
    const today = todayIn(this.settings.timeZone, now);
    const due = yearLater(booking.scheduledDate);
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
    if (!last || yearLater(last) <= schedule.startDate) return false;
    const due = yearLater(last);
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
/** A date column read back as text or a Date. */
const anchorOf = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value));
