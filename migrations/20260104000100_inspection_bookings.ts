import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("inspection_bookings", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    t.integer("customer_id").notNullable().references("customers.id").onDelete("CASCADE");
    t.date("scheduled_date").notNullable();
    // '8:30 AM' (wizard) or morning/afternoon/evening (booking page, onboarding).
    t.text("time_slot").notNullable();
    t.text("access_method");
    t.text("access_code");
    t.text("access_instructions");
    t.text("special_requests");
    t.text("notes");
    t.text("status").notNullable().defaultTo("scheduled");
    // Which screen made it: wizard, booking-page or onboarding.
    t.text("source").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["customer_id"]);
    t.index(["property_id"]);
    t.index(["scheduled_date"]);
  });
  await knex.raw(
    "alter table inspection_bookings add constraint inspection_bookings_source_check check (source in ('wizard','booking-page','onboarding'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("inspection_bookings");
}
