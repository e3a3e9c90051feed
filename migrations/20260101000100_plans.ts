import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("plans", (t) => {
    t.increments("id").primary();
    t.text("type").notNullable().unique();
    t.text("name").notNullable();
    t.text("description").notNullable();
    // Two readings of the price (docs/decisions.md#3), whole dollars per month.
    t.integer("monthly_price").notNullable();
    t.integer("checkout_price").notNullable();
    t.integer("coverage").notNullable();
    t.jsonb("features").notNullable().defaultTo("[]");
    t.text("base_features").notNullable();
    t.boolean("most_popular").notNullable().defaultTo(false);
    t.jsonb("entitlements").notNullable().defaultTo("[]");
    t.integer("sort_order").notNullable().defaultTo(0);
    t.timestamps(true, true);
  });
  await knex.raw("alter table plans add constraint plans_type_check check (type in ('basic','standard','premium'))");
  await knex.raw(
    "alter table plans add constraint plans_prices_check check (monthly_price > 0 and checkout_price > 0)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("plans");
}
