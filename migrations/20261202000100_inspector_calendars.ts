import type { Knex } from "knex";

// Roles and inspectors' calendars (docs/decisions.md#36, #37). Expand only (docs/operations.md "Upgrade and
// rollback"): an older image inserts staff users without a role (the default, now 'owner') and bookings without
// an inspector or a time range (both nullable), and nothing it reads is removed.
export async function up(knex: Knex): Promise<void> {
  // A contrib module shipped with Postgres (and the embedded binaries), trusted since Postgres 13.
  await knex.raw("create extension if not exists btree_gist");

  await knex("staff_users").where({ role: "admin" }).update({ role: "owner" });
  await knex.raw("alter table staff_users alter column role set default 'owner'");
  await knex.raw(
    "alter table staff_users add constraint staff_users_role_check check (role in ('owner','office','inspector'))",
  );

  // One working range per inspector and weekday (0 = Sunday … 6 = Saturday), wall-clock times in BUSINESS_TZ.
  await knex.schema.createTable("inspector_hours", (t) => {
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.smallint("weekday").notNullable();
    t.time("starts").notNullable();
    t.time("ends").notNullable();
    t.primary(["staff_user_id", "weekday"]);
  });
  await knex.raw(
    "alter table inspector_hours add constraint inspector_hours_range_check check (weekday between 0 and 6 and starts < ends)",
  );

  await knex.schema.createTable("inspector_time_off", (t) => {
    t.increments("id").primary();
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.timestamp("starts_at", { useTz: true }).notNullable();
    t.timestamp("ends_at", { useTz: true }).notNullable();
    t.text("reason");
    t.index(["staff_user_id", "starts_at"]);
  });
  await knex.raw(
    "alter table inspector_time_off add constraint inspector_time_off_range_check check (starts_at < ends_at)",
  );

  await knex.schema.alterTable("inspection_bookings", (t) => {
    t.integer("inspector_id").nullable().references("staff_users.id").onDelete("SET NULL");
  });
  await knex.raw("alter table inspection_bookings add column during tstzrange");
  await knex.raw(
    "alter table inspection_bookings add constraint inspection_bookings_inspector_during_check check (inspector_id is null or during is not null)",
  );
  // Two live bookings of one inspector never overlap, whatever the code does (docs/decisions.md#37).
  await knex.raw(`alter table inspection_bookings add constraint inspection_bookings_no_overlap
    exclude using gist (inspector_id with =, during with &&) where (status <> 'cancelled')`);
  await knex.raw("create index inspection_bookings_during_idx on inspection_bookings using gist (during)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table inspection_bookings drop constraint if exists inspection_bookings_no_overlap");
  await knex.raw("drop index if exists inspection_bookings_during_idx");
  await knex.raw(
    "alter table inspection_bookings drop constraint if exists inspection_bookings_inspector_during_check",
  );
  await knex.schema.alterTable("inspection_bookings", (t) => {
    t.dropColumn("inspector_id");
    t.dropColumn("during");
  });
  await knex.schema.dropTable("inspector_time_off");
  await knex.schema.dropTable("inspector_hours");
  await knex.raw("alter table staff_users drop constraint if exists staff_users_role_check");
  await knex.raw("alter table staff_users alter column role set default 'admin'");
  await knex("staff_users").where({ role: "owner" }).update({ role: "admin" });
}
