import type { Knex } from "knex";

// The browser's client id of each photo upload (docs/decisions.md#17): a retried upload with the same
// client id answers the photo stored the first time, even when the retry's bytes differ.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("photo_uploads", (t) => {
    t.text("client_id").primary();
    t.integer("photo_id").notNullable().references("photos.id").onDelete("CASCADE");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["photo_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("photo_uploads");
}
