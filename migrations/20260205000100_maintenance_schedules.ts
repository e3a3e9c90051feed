import type { Knex } from "knex";

// Recurring maintenance (staff-side §3 schedule payload; docs/decisions.md#12 and #22), the reminders
// already sent (once per item and date), and the private staff calendar feed (only its secret's hash).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("maintenance_schedules", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    t.text("title").notNullable();
    t.text("description");
    t.text("category").notNullable();
    t.text("priority").notNullable().defaultTo("medium");
    t.integer("estimated_duration");
    t.text("recurrence_type").notNullable().defaultTo("monthly");
    t.integer("recurrence_interval").notNullable().defaultTo(1);
    t.date("start_date").notNullable();
    t.text("scheduled_time").notNullable().defaultTo("10:00 AM");
    // The recommendation task this schedule was made from ('Make recurring'), when it was.
    t.integer("source_task_id").references("maintenance_tasks.id").onDelete("SET NULL");
    // Every occurrence up to this date exists as a task: a repeated expansion skips the schedule.
    t.date("expanded_through");
    t.timestamps(true, true);
    t.index(["property_id"]);
  });
  await knex.raw("create index maintenance_schedules_created_idx on maintenance_schedules (created_at desc, id desc)");
  await knex.raw(
    "alter table maintenance_schedules add constraint maintenance_schedules_category_check check (category in ('hvac','plumbing','electrical','roofing','flooring','exterior','landscaping','cleaning','safety','other'))",
  );
  await knex.raw(
    "alter table maintenance_schedules add constraint maintenance_schedules_priority_check check (priority in ('low','medium','high'))",
  );
  await knex.raw(
    "alter table maintenance_schedules add constraint maintenance_schedules_recurrence_check check (recurrence_type in ('daily','weekly','monthly','quarterly','annually'))",
  );
  await knex.raw(
    "alter table maintenance_schedules add constraint maintenance_schedules_interval_check check (recurrence_interval >= 1)",
  );
  await knex.raw(
    "alter table maintenance_schedules add constraint maintenance_schedules_duration_check check (estimated_duration is null or estimated_duration > 0)",
  );

  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.foreign("schedule_id").references("maintenance_schedules.id").onDelete("CASCADE");
  });

  // The calendar: a day's not-completed tasks in clock order (its first few are an index read) and the
  // day counts (an index-only scan). The expression is the repository's clockSql: keep them identical.
  await knex.raw(
    `create index maintenance_tasks_calendar_idx on maintenance_tasks (scheduled_date, (case when scheduled_time ~ '^[0-9]{1,2}:[0-9]{2} (AM|PM)$' then ((split_part(scheduled_time, ':', 1)::int % 12) + (right(scheduled_time, 2) = 'PM')::int * 12) * 60 + substr(split_part(scheduled_time, ':', 2), 1, 2)::int else 600 end), id) where status <> 'completed'`,
  );

  // One row per reminder sent: (kind, item, date) is the once-only key; a moved date gets a new reminder.
  await knex.schema.createTable("maintenance_reminders", (t) => {
    t.text("kind").notNullable();
    t.integer("item_id").notNullable();
    t.date("due_date").notNullable();
    t.text("email").notNullable();
    t.timestamp("sent_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["kind", "item_id", "due_date"]);
  });
  await knex.raw(
    "alter table maintenance_reminders add constraint maintenance_reminders_kind_check check (kind in ('task','booking'))",
  );

  // The staff ICS feed's secret: only its SHA-256 is kept; rotating replaces the row.
  await knex.schema.createTable("calendar_feeds", (t) => {
    t.increments("id").primary();
    t.text("secret_hash").notNullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("calendar_feeds");
  await knex.schema.dropTable("maintenance_reminders");
  await knex.raw("drop index if exists maintenance_tasks_calendar_idx");
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.dropForeign(["schedule_id"]);
  });
  await knex.schema.dropTable("maintenance_schedules");
}
