import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("customers", (t) => {
    t.increments("id").primary();
    t.text("email").notNullable();
    t.text("name").notNullable();
    t.text("phone");
    t.text("subscription_plan").notNullable().defaultTo("free-score");
    // Checkout session that paid for this customer: one customer per session (idempotent intake).
    t.text("stripe_session_id").unique();
    t.timestamps(true, true);
  });
  await knex.raw("create index customers_email_idx on customers (lower(email))");

  await knex.schema.createTable("properties", (t) => {
    t.increments("id").primary();
    t.integer("customer_id").notNullable().references("customers.id").onDelete("CASCADE");
    t.text("address").notNullable();
    t.text("city").notNullable();
    t.text("province");
    t.text("state");
    t.text("postal_code").notNullable();
    t.text("property_type");
    t.integer("square_footage");
    t.integer("year_built");
    t.text("bedrooms");
    t.text("bathrooms");
    t.text("stories");
    t.text("hvac_units");
    t.text("electrical_panels");
    t.text("plumbing_systems");
    t.text("roof_type");
    t.text("heating_type");
    t.text("cooling_type");
    t.text("water_heater_type");
    t.text("foundation_type");
    t.text("garage_type");
    t.text("basement_status");
    t.text("ownership_type");
    t.text("occupation");
    t.text("household_income");
    t.text("household_size");
    t.text("financing_type");
    t.text("notes");
    // The client as the property lists them (customer-side §3).
    t.text("client_name").notNullable();
    t.text("client_email").notNullable();
    t.text("client_phone");
    t.text("subscription_plan").notNullable().defaultTo("free-score");
    t.timestamps(true, true);
  });
  await knex.raw("create index properties_customer_idx on properties (customer_id, created_at desc)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("properties");
  await knex.schema.dropTable("customers");
}
