// The SQL of PlanDeliveries (plan-deliveries.ts): a subscription's plan-service schedules and their tasks, in
// the caller's transaction. Two reads of other modules' tables are documented exceptions (README "Interface").
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { PlanType } from "../plans/plans.schemas.js";
import type { MaintenanceTask, TaskCategory } from "./maintenance.constants.js";
import { ScheduleRepository } from "./schedules.repository.js";
import { iso, toTask } from "./task-rows.js";

type Row = Record<string, unknown>;

/** A task nobody started, done or edited: the only kind a hold, an end or a reopen may touch. */
const UNTOUCHED = { statuses: ["pending", "scheduled"], version: 1 };

/** Future tasks (today on) nobody started, completed, cancelled or edited. */
const untouchedFuture = (query: Knex.QueryBuilder, today: string) =>
  query.where("scheduled_date", ">=", today).whereIn("status", UNTOUCHED.statuses).where("version", UNTOUCHED.version);
/** Future open tasks nobody on staff edited: untouched ones and those only the homeowner moved (docs/decisions.md#44). */
const notStaffEditedFuture = (query: Knex.QueryBuilder, today: string) =>
  query
    .where("scheduled_date", ">=", today)
    .whereIn("status", UNTOUCHED.statuses)
    .where((w) => w.where("version", UNTOUCHED.version).orWhereNotNull("home_changed_at"));

export interface PlanScheduleRow {
  id: number;
  planService: string;
  startDate: string;
  rrule: string | null;
  held: boolean;
  endedAt: string | null;
}

/** A plan-service schedule as staff pages list it, with its next open task on or after the day asked. */
export interface PlanScheduleListRow {
  id: number;
  planService: string;
  title: string;
  rrule: string | null;
  startDate: string;
  held: boolean;
  endedAt: string | null;
  nextTask: string | null;
}

export interface NewPlanSchedule {
  propertyId: number;
  title: string;
  description: string | null;
  category: TaskCategory;
  estimatedDuration: number | null;
  recurrenceType: "weekly" | "monthly" | "annually";
  recurrenceInterval: number | string;
  startDate: string;
  subscriptionId: number;
  planService: string;
  rrule: string | null;
  held: boolean;
}

/** A plan visit as the homeowner's changes read it, under its row lock. */
export interface PlanVisitRow {
  task: MaintenanceTask;
  /** The series date it stands for once moved; null while it is on its own date. */
  seriesDate: string | null;
  skippedAt: string | null;
  bookingId: number | null;
  planService: string;
  rrule: string | null;
  scheduleEnded: boolean;
  subscriptionStatus: string;
  customerId: number | null;
  propertyAddress: string;
  clientName: string;
  clientEmail: string;
  clientLocale: string | null;
}

export interface RequestedTask {
  propertyId: number;
  scheduleId: number;
  title: string;
  description: string;
  category: TaskCategory;
  scheduledDate: string;
  estimatedDuration: number | null;
  notes: string | null;
  held: boolean;
}

export class PlanDeliveriesRepository {
  readonly schedules: ScheduleRepository;

  constructor(private readonly db: Knex) {
    this.schedules = new ScheduleRepository(db);
  }

  // --- Reads of other modules' tables: documented exceptions (README "Interface for other modules") ---

  /**
   * The subscription a plan-service request names. An exception to "others call its service": the
   * subscriptions service calls PlanDeliveries in its own transactions, so PlanDeliveries cannot call it back.
   */
  planSubscription(
    id: number,
  ): Promise<
    { id: number; property_id: number | null; plan_type: PlanType; status: string; billing_anchor: unknown } | undefined
  > {
    return this.db("subscriptions").where({ id }).first("id", "property_id", "plan_type", "status", "billing_anchor");
  }

  /**
   * When the property's last completed inspection ended, in the caller's transaction (the health report's due
   * date). An exception like planSubscription: it runs inside the subscription's transaction.
   */
  async lastCompletedInspectionAt(tx: Tx, propertyId: number): Promise<Date | null> {
    const row = await tx("inspections")
      .where({ property_id: propertyId, status: "completed" })
      .whereNotNull("completed_at")
      .max({ at: "completed_at" })
      .first();
    return row?.at ? new Date(row.at as Date) : null;
  }

  /**
   * The latest date of the property's scheduled (not done, not cancelled) inspection bookings from `today` on: a
   * booked inspection counts as this year's (docs/decisions.md#26). An exception like lastCompletedInspectionAt.
   */
  async upcomingInspectionDate(tx: Tx, propertyId: number, today: string): Promise<string | null> {
    const row = await tx("inspection_bookings")
      .where({ property_id: propertyId, status: "scheduled" })
      .where("scheduled_date", ">=", today)
      .max({ at: "scheduled_date" })
      .first();
    return (row?.at as string | null | undefined) ?? null;
  }

  /** The running health-report schedules of the property's subscriptions, locked. */
  async lockInspectionSchedules(tx: Tx, propertyId: number): Promise<PlanScheduleRow[]> {
    const rows = await tx("maintenance_schedules")
      .where({ property_id: propertyId, plan_service: "health-report" })
      .whereNotNull("subscription_id")
      .whereNull("ended_at")
      .forUpdate()
      .select("id", "plan_service", "start_date", "rrule", "held", "ended_at");
    return rows.map((r: Row) => ({
      id: r.id as number,
      planService: r.plan_service as string,
      startDate: r.start_date as string,
      rrule: (r.rrule as string | null) ?? null,
      held: Boolean(r.held),
      endedAt: iso(r.ended_at),
    }));
  }

  // --- A plan visit the homeowner moves or skips (docs/decisions.md#44) ---

  /** The plan visit, locked, with its schedule and subscription; undefined when it is no plan visit. */
  async lockPlanVisit(tx: Tx, taskId: number): Promise<PlanVisitRow | undefined> {
    // The schedule first, then the task: the order sync takes them in (lockSchedules, then setHeld), so the two
    // never wait on each other in a cycle.
    await tx("maintenance_schedules")
      .whereIn("id", tx("maintenance_tasks").where({ id: taskId }).select("schedule_id"))
      .forUpdate()
      .select("id");
    const row = await tx("maintenance_tasks as t")
      .join("maintenance_schedules as s", "s.id", "t.schedule_id")
      .join("subscriptions as sub", "sub.id", "s.subscription_id")
      .join("properties as p", "p.id", "t.property_id")
      .where("t.id", taskId)
      .forUpdate("t")
      .first(
        "t.*",
        "s.plan_service",
        "s.rrule",
        "s.start_date as schedule_start",
        "s.ended_at as schedule_ended_at",
        "sub.status as subscription_status",
        "sub.customer_id",
        "p.address as property_address",
        "p.client_name",
        "p.client_email",
        tx.raw("(select locale from customers c where c.id = sub.customer_id) as client_locale"),
      );
    if (!row) return undefined;
    return {
      task: toTask(row),
      seriesDate: (row.series_date as string | null) ?? null,
      skippedAt: iso(row.skipped_at),
      bookingId: (row.booking_id as number | null) ?? null,
      planService: row.plan_service as string,
      rrule: (row.rrule as string | null) ?? null,
      scheduleEnded: row.schedule_ended_at !== null && row.schedule_ended_at !== undefined,
      subscriptionStatus: row.subscription_status as string,
      customerId: (row.customer_id as number | null) ?? null,
      propertyAddress: row.property_address as string,
      clientName: row.client_name as string,
      clientEmail: row.client_email as string,
      clientLocale: (row.client_locale as string | null) ?? null,
    };
  }

  /** Another open visit of the schedule on that date (a move may not put two on one day). */
  async visitOn(tx: Tx, scheduleId: number, date: string, exceptId: number): Promise<boolean> {
    const row = await tx("maintenance_tasks")
      .where({ schedule_id: scheduleId, scheduled_date: date })
      .whereNot("id", exceptId)
      .first("id");
    return Boolean(row);
  }

  /** Writes the homeowner's change to a plan visit; one more `version` (a person's edit). */
  async changeVisit(
    tx: Tx,
    id: number,
    change: {
      scheduledDate?: string;
      scheduledTime?: string | null;
      seriesDate?: string;
      status?: "scheduled" | "cancelled";
      skipped?: boolean;
      bookingId?: number;
      /** A line for staff, added to the task's notes ("Skipped by the homeowner in My Home on …"). */
      note: string;
    },
  ): Promise<MaintenanceTask> {
    const [row] = await tx("maintenance_tasks")
      .where({ id })
      .update({
        ...(change.scheduledDate !== undefined && { scheduled_date: change.scheduledDate }),
        ...(change.scheduledTime !== undefined && { scheduled_time: change.scheduledTime }),
        ...(change.seriesDate !== undefined && { series_date: change.seriesDate }),
        ...(change.status !== undefined && { status: change.status }),
        ...(change.skipped !== undefined && { skipped_at: change.skipped ? tx.fn.now() : null }),
        ...(change.bookingId !== undefined && { booking_id: change.bookingId }),
        notes: tx.raw("concat_ws(E'\\n', nullif(notes, ''), ?::text)", [change.note]),
        home_changed_at: tx.fn.now(),
        version: tx.raw("version + 1"),
        updated_at: tx.fn.now(),
      })
      .returning("*");
    return toTask(row);
  }

  // --- The subscription's schedules ---

  /** The subscription's schedules, locked: two syncs of one subscription run one after the other. */
  async lockSchedules(tx: Tx, subscriptionId: number): Promise<PlanScheduleRow[]> {
    const rows = await tx("maintenance_schedules")
      .where({ subscription_id: subscriptionId })
      .forUpdate()
      .select("id", "plan_service", "start_date", "rrule", "held", "ended_at");
    return rows.map((r: Row) => ({
      id: r.id as number,
      planService: r.plan_service as string,
      startDate: r.start_date as string,
      rrule: (r.rrule as string | null) ?? null,
      held: Boolean(r.held),
      endedAt: iso(r.ended_at),
    }));
  }

  /** Ends the schedules and cancels their untouched future tasks; edited tasks stay, without a hold. */
  async endSchedules(tx: Tx, ids: number[], today: string): Promise<void> {
    await tx("maintenance_schedules")
      .whereIn("id", ids)
      .update({ ended_at: tx.fn.now(), held: false, updated_at: tx.fn.now() });
    await notStaffEditedFuture(tx("maintenance_tasks").whereIn("schedule_id", ids), today).update({
      status: "cancelled",
      held: false,
      updated_at: tx.fn.now(),
    });
    await tx("maintenance_tasks").whereIn("schedule_id", ids).where("held", true).update({ held: false });
  }

  /** Reopens an ended schedule; the tasks its end cancelled come back (same series, so the same dates). */
  async reopenSchedule(tx: Tx, id: number, held: boolean, today: string): Promise<void> {
    await tx("maintenance_schedules")
      .where({ id })
      .update({ ended_at: null, held, expanded_through: null, updated_at: tx.fn.now() });
    await tx("maintenance_tasks")
      .where({ schedule_id: id, status: "cancelled", version: UNTOUCHED.version })
      .where("scheduled_date", ">=", today)
      .update({ status: "scheduled", held, updated_at: tx.fn.now() });
  }

  /** Sets the schedules' hold flag, then holds their untouched future tasks or releases them; the tasks changed. */
  async setHeld(tx: Tx, ids: number[], hold: boolean, today: string): Promise<number> {
    await tx("maintenance_schedules")
      .whereIn("id", ids)
      .whereNot("held", hold)
      .update({ held: hold, updated_at: tx.fn.now() });
    if (hold) {
      return tx("maintenance_tasks")
        .whereIn("schedule_id", ids)
        .where("held", false)
        .where("scheduled_date", ">=", today)
        .whereIn("status", UNTOUCHED.statuses)
        .update({ held: true });
    }
    return tx("maintenance_tasks").whereIn("schedule_id", ids).where("held", true).update({ held: false });
  }

  /** The schedule restarts at `due`; its untouched tasks from today up to then are cancelled. */
  async restartSchedule(tx: Tx, id: number, due: string, today: string): Promise<void> {
    await tx("maintenance_schedules")
      .where({ id })
      .update({ start_date: due, expanded_through: null, updated_at: tx.fn.now() });
    await untouchedFuture(tx("maintenance_tasks").where({ schedule_id: id }), today)
      .where("scheduled_date", "<", due)
      .update({ status: "cancelled", held: false, updated_at: tx.fn.now() });
  }

  /** A new plan-service schedule's id; null when the subscription has it already (the unique index). */
  async insertSchedule(tx: Tx, s: NewPlanSchedule): Promise<number | null> {
    const { rows } = (await tx.raw(
      `insert into maintenance_schedules (property_id, title, description, category, priority, estimated_duration, recurrence_type, recurrence_interval,
                                          start_date, subscription_id, plan_service, rrule, held)
       values (?, ?, ?, ?, 'medium', ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (subscription_id, plan_service) where subscription_id is not null do nothing returning id`,
      [
        s.propertyId,
        s.title,
        s.description,
        s.category,
        s.estimatedDuration,
        s.recurrenceType,
        s.recurrenceInterval,
        s.startDate,
        s.subscriptionId,
        s.planService,
        s.rrule,
        s.held,
      ],
    )) as { rows: { id: number }[] };
    return rows[0]?.id ?? null;
  }

  /** The running rule-based schedules among `ids`, to expand. */
  expandable(tx: Tx, ids: number[]): Promise<{ id: number; start_date: string; rrule: string }[]> {
    return tx("maintenance_schedules")
      .whereIn("id", ids)
      .whereNull("ended_at")
      .whereNotNull("rrule")
      .select("id", "start_date", "rrule");
  }

  /** The subscription's plan-service schedules, each with its first open task on or after `today`. */
  async listForSubscription(subscriptionId: number, today: string): Promise<PlanScheduleListRow[]> {
    const rows = (await this.db.raw(
      `select s.id, s.plan_service, s.title, s.rrule, s.start_date, s.held, s.ended_at,
              (select min(t.scheduled_date) from maintenance_tasks t
                where t.schedule_id = s.id and t.scheduled_date >= ?::date and t.status in ('pending', 'scheduled', 'in_progress')) as next_task
         from maintenance_schedules s where s.subscription_id = ? order by s.id`,
      [today, subscriptionId],
    )) as { rows: Row[] };
    return rows.rows.map((r) => ({
      id: r.id as number,
      planService: r.plan_service as string,
      title: r.title as string,
      rrule: (r.rrule as string | null) ?? null,
      startDate: r.start_date as string,
      held: Boolean(r.held),
      endedAt: iso(r.ended_at),
      nextTask: (r.next_task as string | null) ?? null,
    }));
  }

  /** The subscription's schedule of one plan service. */
  findSchedule(
    tx: Tx,
    subscriptionId: number,
    planService: string,
  ): Promise<{ id: number; held: boolean; ended_at: unknown } | undefined> {
    return tx("maintenance_schedules")
      .where({ subscription_id: subscriptionId, plan_service: planService })
      .first("id", "held", "ended_at");
  }

  /** A requested task; null when the schedule has one on that date already. */
  async insertRequestedTask(tx: Tx, t: RequestedTask): Promise<MaintenanceTask | null> {
    const rows = (await tx.raw(
      `insert into maintenance_tasks (property_id, schedule_id, title, description, category, priority, status, scheduled_date, estimated_duration, notes, held)
       values (?, ?, ?, ?, ?, 'medium', 'scheduled', ?, ?, ?, ?)
       on conflict (schedule_id, scheduled_date) do nothing returning *`,
      [
        t.propertyId,
        t.scheduleId,
        t.title,
        t.description,
        t.category,
        t.scheduledDate,
        t.estimatedDuration,
        t.notes,
        t.held,
      ],
    )) as { rows: Row[] };
    return rows.rows[0] ? toTask(rows.rows[0]) : null;
  }
}
