// The calendar's reads (the month view, reminders, ICS files and the staff feed) and the feed's secret.
import type { Knex } from "knex";
import { DATED_TASK_COLUMNS, type DatedTask, toDatedTask } from "./task-rows.js";
import { CLOCK_SQL, DEFAULT_TASK_TIME_SQL } from "./task-sql.js";

export class CalendarRepository {
  constructor(private readonly db: Knex) {}

  /**
   * The calendar's tasks in [from, to], without the completed ones, as JSON text built by Postgres (one
   * round trip, no per-row work in Node): `tasks` in date and time order, at most `perDay` a day when
   * given, and `counts`, every day's full number. A month of 10,000 tasks stays small and fast that way.
   */
  async calendarTasksJson(
    from: string,
    to: string,
    perDay?: number,
    assignedTo?: number,
  ): Promise<{ tasks: string; counts: string }> {
    // An inspector's calendar holds the tasks assigned to them (docs/decisions.md#36).
    const mine = assignedTo === undefined ? "" : ` and t.assigned_to = ${Number(assignedTo)}`;
    const mineBare = assignedTo === undefined ? "" : ` and assigned_to = ${Number(assignedTo)}`;
    const task = `json_build_object(
        'id', x.id, 'propertyId', x.property_id, 'scheduleId', x.schedule_id, 'title', x.title, 'description', x.description,
        'category', x.category, 'priority', x.priority, 'status', x.status, 'scheduledDate', x.scheduled_date,
        'scheduledTime', coalesce(nullif(x.scheduled_time, ''), '${DEFAULT_TASK_TIME_SQL}'), 'estimatedDuration', x.estimated_duration, 'notes', x.notes, 'version', x.version,
        'assignedTo', x.assigned_to, 'assignedToName', (select nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') from staff_users u where u.id = x.assigned_to),
        'propertyAddress', p.address, 'clientName', p.client_name,
        'held', x.held, 'planService', ps.plan_service, 'planType', psub.plan_type)`;
    // A plan service's task: its schedule's service and its subscription's plan (two primary-key lookups).
    const planJoins =
      "left join maintenance_schedules ps on ps.id = x.schedule_id left join subscriptions psub on psub.id = ps.subscription_id";
    // With perDay: each day's first tasks through the scheduled_date index, one small sort a day.
    const tasks = perDay
      ? this.db.raw(
          `select coalesce(json_agg(${task} order by x.scheduled_date, x.clock, x.id)::text, '[]') as json
             from generate_series(?::date, ?::date, interval '1 day') d(day)
             cross join lateral (
               select t.*, ${CLOCK_SQL} as clock from maintenance_tasks t
                where t.scheduled_date = d.day::date and t.status <> 'completed'${mine}
                order by clock, t.id limit ?
             ) x
             join properties p on p.id = x.property_id ${planJoins}`,
          [from, to, perDay],
        )
      : this.db.raw(
          `select coalesce(json_agg(${task} order by x.scheduled_date, x.clock, x.id)::text, '[]') as json
             from (select t.*, ${CLOCK_SQL} as clock from maintenance_tasks t
                    where t.scheduled_date between ?::date and ?::date and t.status <> 'completed'${mine}) x
             join properties p on p.id = x.property_id ${planJoins}`,
          [from, to],
        );
    const counts = this.db.raw(
      `select coalesce(json_object_agg(c.scheduled_date, c.n)::text, '{}') as json
         from (select scheduled_date, count(*)::int as n from maintenance_tasks
                where scheduled_date between ?::date and ?::date and status <> 'completed'${mineBare}
                group by scheduled_date) c`,
      [from, to],
    );
    const [t, c] = await Promise.all([tasks, counts]);
    return { tasks: t.rows[0].json as string, counts: c.rows[0].json as string };
  }

  /**
   * Dated tasks in [from, to] (not completed or cancelled) with their client, for reminders and the feed.
   * `withoutHeld` leaves out the tasks held while their subscription is past due (no reminder for those).
   */
  async datedTasks(from: string, to: string, limit = 50_000, withoutHeld = false): Promise<DatedTask[]> {
    const query = this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .leftJoin("maintenance_schedules as ps", "ps.id", "t.schedule_id")
      .whereBetween("t.scheduled_date", [from, to])
      .whereNotIn("t.status", ["completed", "cancelled"]);
    if (withoutHeld) query.where("t.held", false);
    const rows = await query
      .select([...DATED_TASK_COLUMNS, "ps.plan_service"])
      .orderBy([{ column: "t.scheduled_date" }, { column: "t.id" }])
      .limit(limit);
    return rows.map(toDatedTask);
  }

  async findDatedTask(id: number): Promise<DatedTask | null> {
    const row = await this.db("maintenance_tasks as t")
      .join("properties as p", "p.id", "t.property_id")
      .leftJoin("maintenance_schedules as ps", "ps.id", "t.schedule_id")
      .where("t.id", id)
      .select([...DATED_TASK_COLUMNS, "ps.plan_service"])
      .first();
    return row ? toDatedTask(row) : null;
  }

  // --- The staff calendar feed ---

  async replaceFeedSecret(hash: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx("calendar_feeds").del();
      await tx("calendar_feeds").insert({ secret_hash: hash });
    });
  }

  async feedSecretExists(hash: string): Promise<boolean> {
    return Boolean(await this.db("calendar_feeds").where({ secret_hash: hash }).first("id"));
  }
}
