import type { Knex } from "knex";

// Indexes for the staff portal at 100,000 properties: the dashboard's counts and the
// properties list's first page, newest first, both answered from indexes.
export async function up(knex: Knex): Promise<void> {
  // The properties list: newest first, a page at a time.
  await knex.raw("create index properties_created_idx on properties (created_at desc, id desc)");
  // Pending inspections: scheduled bookings (a small share of all bookings) and whether an inspection took them up.
  await knex.raw(
    "create index inspection_bookings_scheduled_idx on inspection_bookings (id) where status = 'scheduled'",
  );
  await knex.raw("create index inspection_bookings_created_idx on inspection_bookings (created_at desc, id desc)");
  await knex.raw("create index inspections_open_idx on inspections (booking_id) where status <> 'completed'");
  // Total revenue: an index-only sum over succeeded payments.
  await knex.raw("create index payments_succeeded_idx on payments (amount_cents) where status = 'succeeded'");
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [
    "payments_succeeded_idx",
    "inspections_open_idx",
    "inspection_bookings_created_idx",
    "inspection_bookings_scheduled_idx",
    "properties_created_idx",
  ]) {
    await knex.raw(`drop index if exists ${index}`);
  }
}
