import type { Knex } from "knex";

// Optimistic concurrency for the staff dialogs: every update of a quote request or a maintenance task adds
// one to its version; a PATCH that names an older version is refused (409) instead of overwriting.
const TABLES = ["quote_requests", "maintenance_tasks"] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.integer("version").notNullable().defaultTo(1);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn("version");
    });
  }
}
