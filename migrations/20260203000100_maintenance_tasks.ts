import type { Knex } from "knex";

// Maintenance tasks (staff-side §3). A report's recommendations are tasks (docs/decisions.md#19);
// recurring schedules expand into tasks too (the maintenance migration adds the schedules table).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("maintenance_tasks", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    // The report whose recommendation this task is, when it is one.
    t.integer("report_id").references("reports.id").onDelete("SET NULL");
    // The recurring schedule this task was expanded from, when it is one.
    t.integer("schedule_id");
    t.text("title").notNullable();
    t.text("description");
    t.text("category").notNullable().defaultTo("other");
    t.text("priority").notNullable().defaultTo("medium");
    t.text("status").notNullable().defaultTo("pending");
    // A task made from a recommendation has no date until it is scheduled.
    t.date("scheduled_date");
    t.text("scheduled_time");
    t.integer("estimated_duration");
    t.text("assigned_to");
    t.text("notes");
    t.timestamp("completed_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["property_id"]);
    t.index(["report_id"]);
    t.index(["scheduled_date"]);
    // One task per schedule and date: expansion is safe to repeat and to run concurrently.
    t.unique(["schedule_id", "scheduled_date"]);
  });
  await knex.raw(
    "alter table maintenance_tasks add constraint maintenance_tasks_status_check check (status in ('pending','scheduled','in_progress','completed','cancelled'))",
  );
  await knex.raw(
    "alter table maintenance_tasks add constraint maintenance_tasks_priority_check check (priority in ('low','medium','high'))",
  );
  await knex.raw(
    "alter table maintenance_tasks add constraint maintenance_tasks_duration_check check (estimated_duration is null or estimated_duration > 0)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("maintenance_tasks");
}
