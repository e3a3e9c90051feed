import type { Knex } from "knex";

// Where a quote request came from: 'link' for a client report link's answer (every request
// made so far), 'portal' for a homeowner asking in My Home, which the staff list labels 'From My Home'.
// When a portal ask meets the task's open request, that request keeps its source: the note is appended.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("quote_requests", (t) => {
    t.text("source").notNullable().defaultTo("link");
  });
  await knex.raw(
    "alter table quote_requests add constraint quote_requests_source_check check (source in ('link','portal'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("quote_requests", (t) => {
    t.dropColumn("source");
  });
}
