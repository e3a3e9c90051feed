// What each plan delivers (docs/decisions.md#26 and #27): every service a subscription's
// plan includes is a schedule of its property (`maintenance_schedules.subscription_id`, `plan_service`),
// made, held, released and ended by `sync`, which the subscriptions service calls in the transaction of every
// state change. Cadences are RFC 5545 rules from plans.catalog.ts, expanded like any other schedule.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { fieldsFromZod, NotFoundError, ConflictError, ValidationError } from "../../http/errors.js";
import { addDays, todayIn } from "../../shared/business-time.js";
import { type PlanServiceDefinition, planServiceByKey, planServicesOf } from "../plans/index.js";
import type { PlanType } from "../plans/plans.schemas.js";
import { ENDED_STATUSES, SERVING_STATUSES } from "../subscriptions/subscriptions.constants.js";
import type { MaintenanceTask } from "./maintenance.constants.js";
import { MaintenanceRepository } from "./maintenance.repository.js";
import { toTask } from "./task-rows.js";
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
}

/** Statuses whose tasks run unheld; any other status still serving or not yet ended holds them. */
const RUNNING_STATUSES: readonly string[] = ["active", "trialing"];
/** A task nobody started, done or edited: the only kind a hold, an end or a reopen may touch. */
const UNTOUCHED = { statuses: ["pending", "scheduled"], version: 1 };

type Row = Record<string, unknown>;

interface ScheduleRow {
  id: number;
  planService: string;
  startDate: string;
  rrule: string | null;
  held: boolean;
  endedAt: string | null;
}

/**
 * Plan services of subscriptions (`container.planServices`). SubscriptionsService calls it through a listener port
 * of its own (subscriptions sits below maintenance), so its method names and signatures are that port's.
 */
export class PlanDeliveries {
  private readonly tasks: MaintenanceRepository;

  constructor(
    private readonly db: Knex,
    private readonly settings: PlanDeliveriesSettings,
  ) {
    this.tasks = new MaintenanceRepository(db);
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
    const existing = (
      await tx("maintenance_schedules")
        .where({ subscription_id: sub.id })
        .forUpdate()
        .select("id", "plan_service", "start_date", "rrule", "held", "ended_at")
    ).map(toScheduleRow);
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
      const ids = toEnd.map((s) => s.id);
      await tx("maintenance_schedules")
        .whereIn("id", ids)
        .update({ ended_at: tx.fn.now(), held: false, updated_at: tx.fn.now() });
      await untouchedFuture(tx("maintenance_tasks").whereIn("schedule_id", ids), today).update({
        status: "cancelled",
        held: false,
        updated_at: tx.fn.now(),
      });
      // An edited task stays as staff left it, without the hold of a subscription that no longer runs.
      await tx("maintenance_tasks").whereIn("schedule_id", ids).where("held", true).update({ held: false });
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
        await tx("maintenance_schedules")
          .where({ id: current.id })
          .update({ ended_at: null, held: hold, expanded_through: null, updated_at: tx.fn.now() });
        // The tasks its end cancelled come back (same series, so the same dates); edited ones never left.
        await tx("maintenance_tasks")
          .where({ schedule_id: current.id, status: "cancelled", version: UNTOUCHED.version })
          .where("scheduled_date", ">=", today)
          .update({ status: "scheduled", held: hold, updated_at: tx.fn.now() });
        toExpand.push(current.id);
        result.added += 1;
      } else if (service.cadence === "annual-inspection") {
        if (await this.reanchorInspection(tx, current, propertyId, today)) toExpand.push(current.id);
      }
    }

    // Hold or release the tasks of the schedules still running.
    const open = existing.filter((s) => !s.endedAt && !toEnd.includes(s)).map((s) => s.id);
    if (open.length) {
      await tx("maintenance_schedules")
        .whereIn("id", open)
        .whereNot("held", hold)
        .update({ held: hold, updated_at: tx.fn.now() });
      if (hold) {
        result.held = await tx("maintenance_tasks")
          .whereIn("schedule_id", open)
          .where("held", false)
          .where("scheduled_date", ">=", today)
          .whereIn("status", UNTOUCHED.statuses)
          .update({ held: true });
      } else {
        result.released = await tx("maintenance_tasks")
          .whereIn("schedule_id", open)
          .where("held", true)
          .update({ held: false });
      }
    }

    if (toExpand.length) await this.expand(tx, toExpand, today);
    return result;
  }

  /** The plan services of a subscription, in the catalog's order, with each one's next date. */
  async forSubscription(
    subscriptionId: number,
    today: string = todayIn(this.settings.timeZone),
  ): Promise<PlanServiceSchedule[]> {
    const rows = (await this.db.raw(
      `select s.id, s.plan_service, s.title, s.rrule, s.start_date, s.held, s.ended_at,
              (select min(t.scheduled_date) from maintenance_tasks t
                where t.schedule_id = s.id and t.scheduled_date >= ?::date and t.status in ('pending', 'scheduled', 'in_progress')) as next_task
         from maintenance_schedules s where s.subscription_id = ? order by s.id`,
      [today, subscriptionId],
    )) as { rows: Row[] };
    const order = (key: string) => {
      const definition = planServiceByKey(key);
      return definition ? planServicesOf("premium").indexOf(definition) : Number.MAX_SAFE_INTEGER;
    };
    return rows.rows
      .map((r) => {
        const rrule = (r.rrule as string | null) ?? null;
        const endedAt = r.ended_at instanceof Date ? r.ended_at.toISOString() : ((r.ended_at as string | null) ?? null);
        const nextTask = (r.next_task as string | null) ?? null;
        const ruleNext = rrule ? nextRuleOccurrence(rrule, r.start_date as string, today) : null;
        const nextDate =
          endedAt || !rrule ? null : ([nextTask, ruleNext].filter((d): d is string => Boolean(d)).sort()[0] ?? null);
        return {
          scheduleId: r.id as number,
          service: r.plan_service as string,
          title: r.title as string,
          rrule,
          nextDate,
          held: Boolean(r.held),
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
    const sub = await this.tasks.planSubscription(input.subscriptionId);
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
    return this.db.transaction(async (tx) => {
      // The subscription's on-request schedule holds its requests; sync makes it, but make sure.
      await this.sync(
        tx,
        {
          id: sub.id,
          propertyId: sub.property_id,
          planType: sub.plan_type,
          status: sub.status,
          anchor: anchorOf(sub.billing_anchor),
        },
        today,
      );
      const schedule = await tx("maintenance_schedules")
        .where({ subscription_id: sub.id, plan_service: definition.key })
        .first("id", "held", "ended_at");
      if (!schedule || schedule.ended_at) throw new ConflictError("This subscription no longer includes this service");
      const by = input.source === "staff" ? "staff" : "the homeowner";
      const rows = (await tx.raw(
        `insert into maintenance_tasks (property_id, schedule_id, title, description, category, priority, status, scheduled_date, estimated_duration, notes, held)
         values (?, ?, ?, ?, ?, 'medium', 'scheduled', ?, ?, ?, ?)
         on conflict (schedule_id, scheduled_date) do nothing returning *`,
        [
          sub.property_id,
          schedule.id,
          definition.title,
          `Requested by ${by} (${sub.plan_type} plan service).`,
          definition.category,
          request.date,
          definition.estimatedDuration,
          request.notes ?? null,
          Boolean(schedule.held),
        ],
      )) as { rows: Row[] };
      if (!rows.rows.length) throw new ConflictError(`${definition.title} is already requested for ${request.date}`);
      return toTask(rows.rows[0]!);
    });
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
    const { rows } = (await tx.raw(
      `insert into maintenance_schedules (property_id, title, description, category, priority, estimated_duration, recurrence_type, recurrence_interval,
                                          start_date, subscription_id, plan_service, rrule, held)
       values (?, ?, ?, ?, 'medium', ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (subscription_id, plan_service) where subscription_id is not null do nothing returning id`,
      [
        sub.propertyId,
        service.title,
        service.cadence === "on-request" ? "On request: staff or the homeowner ask for a date." : null,
        service.category,
        service.estimatedDuration,
        recurrenceTypeOf(service.rrule),
        /INTERVAL=(\d+)/.exec(service.rrule ?? "")?.[1] ?? 1,
        startDate,
        sub.subscriptionId,
        service.key,
        service.rrule,
        sub.held,
      ],
    )) as { rows: { id: number }[] };
    return rows[0]?.id ?? null;
  }

  /**
   * The health report's due date: a year after the home's last completed inspection, or two weeks after
   * the start when it has none; never before today (an overdue inspection is due now).
   */
  private async inspectionDue(tx: Tx, propertyId: number, anchor: string, today: string): Promise<string> {
    const last = await this.lastInspection(tx, propertyId);
    return laterDate(last ? addYear(last) : addDays(anchor, 14), today);
  }

  private async lastInspection(tx: Tx, propertyId: number): Promise<string | null> {
    const at = await this.tasks.lastCompletedInspectionAt(tx, propertyId);
    return at ? todayIn(this.settings.timeZone, at) : null;
  }

  /**
   * An inspection completed since the health report's schedule started moves its next due date to a year
   * after it: the schedule restarts there and its untouched tasks before that date are cancelled.
   */
  private async reanchorInspection(tx: Tx, schedule: ScheduleRow, propertyId: number, today: string): Promise<boolean> {
    const last = await this.lastInspection(tx, propertyId);
    if (!last || addYear(last) <= schedule.startDate) return false;
    const due = addYear(last);
    await tx("maintenance_schedules")
      .where({ id: schedule.id })
      .update({ start_date: due, expanded_through: null, updated_at: tx.fn.now() });
    await untouchedFuture(tx("maintenance_tasks").where({ schedule_id: schedule.id }), today)
      .where("scheduled_date", "<", due)
      .update({ status: "cancelled", held: false, updated_at: tx.fn.now() });
    return true;
  }

  /** The schedules' tasks from today up to the horizon, in the caller's transaction (held when the schedule is). */
  private async expand(tx: Tx, ids: number[], today: string): Promise<void> {
    const through = addDays(today, this.horizonDays);
    const schedules = await tx("maintenance_schedules")
      .whereIn("id", ids)
      .whereNull("ended_at")
      .whereNotNull("rrule")
      .select("id", "start_date", "rrule");
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
    await this.tasks.schedules.insertOccurrences(scheduleIds, dates, tx, false);
    await this.tasks.schedules.markExpanded(
      schedules.map((s) => s.id as number),
      through,
      tx,
    );
  }
}

/** Future tasks (today on) nobody started, completed, cancelled or edited. */
const untouchedFuture = (query: Knex.QueryBuilder, today: string) =>
  query.where("scheduled_date", ">=", today).whereIn("status", UNTOUCHED.statuses).where("version", UNTOUCHED.version);

const toScheduleRow = (r: Row): ScheduleRow => ({
  id: r.id as number,
  planService: r.plan_service as string,
  startDate: r.start_date as string,
  rrule: (r.rrule as string | null) ?? null,
  held: Boolean(r.held),
  endedAt: r.ended_at instanceof Date ? r.ended_at.toISOString() : ((r.ended_at as string | null) ?? null),
});

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
