// SQL fragments the tasks' queries share (maintenance.repository.ts, schedules.repository.ts,
// calendar.repository.ts), so an ordering or a search escape is written once.

/** Postgres's default for a task's calendar time, kept in step with DEFAULT_TASK_TIME. */
export const DEFAULT_TASK_TIME_SQL = "10:00 AM";
/**
 * A task's clock time in minutes for ordering a day: '2:30 PM' → 870; anything else sorts as 10:00 AM.
 * Immutable, so the calendar's partial index (migration 20260205000100) holds it: keep the two identical.
 */
const clockSql = (alias: string) =>
  `(case when ${alias}scheduled_time ~ '^[0-9]{1,2}:[0-9]{2} (AM|PM)$' then ((split_part(${alias}scheduled_time, ':', 1)::int % 12) + (right(${alias}scheduled_time, 2) = 'PM')::int * 12) * 60 + substr(split_part(${alias}scheduled_time, ':', 2), 1, 2)::int else 600 end)`;
export const CLOCK_SQL = clockSql("t.");

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A task's plan service and plan (through its schedule and subscription); null for other tasks. */
export const PLAN_SERVICE_SQL = (alias: string) =>
  `(select s.plan_service from maintenance_schedules s where s.id = ${alias}schedule_id)`;
export const PLAN_TYPE_SQL = (alias: string) =>
  `(select sub.plan_type from maintenance_schedules s join subscriptions sub on sub.id = s.subscription_id where s.id = ${alias}schedule_id)`;
