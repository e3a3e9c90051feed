import type { Knex } from "knex";

// What the running site says about itself, where the CLI reads it: its PUBLIC_URL, written by each web process at
// start (src/ops/site-address.ts, docs/decisions.md#47). Expand only: a new table an older image never reads.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("site_settings", (t) => {
    t.text("key").primary();
    t.text("value").notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("site_settings");
}
