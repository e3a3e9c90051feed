import type { Knex } from "knex";

// a homeowner's e-mail preferences and the private ICS feed of My Home.
// Both are keyed by the homeowner's e-mail (lower case), as the portal identifies them (docs/decisions.md#28).
export async function up(knex: Knex): Promise<void> {
  // No row means the defaults: reminders on.
  await knex.schema.createTable("home_preferences", (t) => {
    t.text("email").primary(); // lower case
    t.boolean("reminders").notNullable().defaultTo(true);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // One feed per homeowner: the URL's 32-byte secret is stored as its SHA-256 only; rotating replaces the row.
  await knex.schema.createTable("home_calendar_feeds", (t) => {
    t.text("email").primary(); // lower case
    t.text("secret_hash").notNullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("home_calendar_feeds");
  await knex.schema.dropTable("home_preferences");
}
