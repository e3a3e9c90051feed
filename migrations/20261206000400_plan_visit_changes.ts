import type { Knex } from "knex";

// Plan visits the homeowner moves or skips (docs/decisions.md#44). Expand only: nullable columns an older image
// never reads or writes.
// - series_date: the date of the series the visit stands for, set when it is moved. The expansion skips a date a
//   moved visit stands for, so a move never brings back the visit at its old date.
// - skipped_at: a skipped visit (status cancelled, the row kept); unskipping clears it.
// - home_changed_at: when the homeowner last moved or skipped it (an end of the plan cancels such a visit, as an
//   untouched one).
// - booking_id: the inspection booking a moved annual inspection became.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.date("series_date");
    t.timestamp("skipped_at", { useTz: true });
    t.timestamp("home_changed_at", { useTz: true });
    t.integer("booking_id").references("inspection_bookings.id").onDelete("SET NULL");
  });
  await knex.raw(
    "create unique index maintenance_tasks_series_date_idx on maintenance_tasks (schedule_id, series_date) where series_date is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists maintenance_tasks_series_date_idx");
  await knex.schema.alterTable("maintenance_tasks", (t) => {
    t.dropColumn("booking_id");
    t.dropColumn("home_changed_at");
    t.dropColumn("skipped_at");
    t.dropColumn("series_date");
  });
}
