import type { Knex } from "knex";

// Inspections, their entries and photos (docs/decisions.md#16 and #17).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("inspections", (t) => {
    t.increments("id").primary();
    t.integer("property_id").notNullable().references("properties.id").onDelete("CASCADE");
    // The scheduled booking this inspection fulfils, when there is one.
    t.integer("booking_id").references("inspection_bookings.id").onDelete("SET NULL");
    t.integer("inspector_id").references("staff_users.id").onDelete("SET NULL");
    t.date("inspection_date").notNullable();
    t.text("status").notNullable().defaultTo("in_progress");
    t.integer("overall_score");
    t.text("notes");
    t.timestamp("completed_at", { useTz: true });
    t.timestamps(true, true);
    t.index(["property_id"]);
    t.index(["booking_id"]);
  });
  await knex.raw(
    "alter table inspections add constraint inspections_status_check check (status in ('scheduled','in_progress','completed','draft'))",
  );
  await knex.raw(
    "alter table inspections add constraint inspections_score_check check (overall_score between 0 and 100)",
  );
  await knex.raw("create index inspections_created_idx on inspections (created_at desc, id desc)");
  await knex.raw("create index inspections_status_idx on inspections (status, created_at desc)");
  await knex.raw("create index inspections_completed_idx on inspections (completed_at) where status = 'completed'");

  await knex.schema.createTable("inspection_entries", (t) => {
    t.increments("id").primary();
    t.integer("inspection_id").notNullable().references("inspections.id").onDelete("CASCADE");
    t.text("category_name").notNullable();
    // Repeated rooms carry a suffix: 'Sinks (Bathroom 2)'.
    t.text("subcategory_name").notNullable();
    // 10, 7, 4, 1, or null for N/A.
    t.smallint("score");
    t.text("notes");
    t.boolean("urgent").notNullable().defaultTo(false);
    t.timestamps(true, true);
    // Saving is an upsert of this key: a retried chunk or a second device never overwrites another entry.
    t.unique(["inspection_id", "category_name", "subcategory_name"]);
  });
  await knex.raw(
    "alter table inspection_entries add constraint inspection_entries_score_check check (score is null or score in (10, 7, 4, 1))",
  );

  // One row per distinct image (by content hash): the same bytes are stored once.
  await knex.schema.createTable("photos", (t) => {
    t.increments("id").primary();
    t.text("sha256").notNullable().unique();
    t.text("mime_type").notNullable();
    t.integer("width").notNullable();
    t.integer("height").notNullable();
    t.integer("byte_size").notNullable();
    t.binary("bytes").notNullable();
    t.binary("thumbnail").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("inspection_entry_photos", (t) => {
    t.increments("id").primary();
    t.integer("entry_id").notNullable().references("inspection_entries.id").onDelete("CASCADE");
    t.integer("photo_id").notNullable().references("photos.id").onDelete("RESTRICT");
    // The browser's id for this upload: a retried upload is a no-op.
    t.text("client_id");
    t.integer("position").notNullable().defaultTo(0);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["entry_id", "photo_id"]);
    t.index(["photo_id"]);
  });
  await knex.raw(
    "create unique index inspection_entry_photos_client_idx on inspection_entry_photos (entry_id, client_id) where client_id is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("inspection_entry_photos");
  await knex.schema.dropTable("photos");
  await knex.schema.dropTable("inspection_entries");
  await knex.schema.dropTable("inspections");
}
