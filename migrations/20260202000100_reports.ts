import type { Knex } from "knex";

// Reports are frozen snapshots of a completed inspection (docs/decisions.md#19).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("reports", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    // One report per inspection: generating again is a 409 until this one is deleted.
    t.integer("inspection_id").notNullable().unique().references("inspections.id").onDelete("CASCADE");
    t.integer("overall_score");
    t.jsonb("report_data").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["property_id"]);
  });
  await knex.raw("create index reports_created_idx on reports (created_at desc, id desc)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("reports");
}
