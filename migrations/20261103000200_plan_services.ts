import type { Knex } from "knex";

// each service a subscription's plan includes is a schedule of
// the property, made and ended by PlanServices.sync. Its cadence is an RFC 5545 rule (`rrule`, its DTSTART
// the schedule's start date); schedules made by staff keep rrule null and their recurrence type. A plan
// service with neither (vacation prep, the concierge line, repairs coordination) is on request: it never
// expands, its tasks are requested one by one. `held` on a schedule holds the tasks it makes (past due); on a
// task it is the flag the calendar shows.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("maintenance_schedules", (t) => {
    t.integer("subscription_id").nullable().references("subscriptions.id").onDelete("SET NULL");
    t.text("plan_service").nullable();
    t.text("rrule").nullable();
    t.boolean("held").notNullable().defaultTo(false);
    t.timestamp("ended_at", { useTz: true }).nullable();
  });
  // One schedule per (subscription, service): sync may run twice, or twice at once, and add it once.
  await knex.raw(
    "create unique index maintenance_schedules_plan_service_idx on maintenance_schedules (subscription_id, plan_service) where subscription_id is not null",
  );
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.boolean("held").notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("maintenance_tasks", (t) => t.dropColumn("held"));
  await knex.raw("drop index if exists maintenance_schedules_plan_service_idx");
  await knex.schema.alterTable("maintenance_schedules", (t) => {
    t.dropColumn("ended_at");
    t.dropColumn("held");
    t.dropColumn("rrule");
    t.dropColumn("plan_service");
    t.dropColumn("subscription_id");
  });
}
