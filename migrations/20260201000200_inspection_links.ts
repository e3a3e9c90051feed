import type { Knex } from "knex";

// One inspection per booking: two inspections started at once can never fulfil the same booking.
// The list filter by status pages newest first within a status (inspections_status_idx covers it).
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create unique index inspections_booking_unique on inspections (booking_id) where booking_id is not null",
  );
  // Linking a booking looks up a property's scheduled bookings.
  await knex.raw(
    "create index if not exists inspection_bookings_property_status_idx on inspection_bookings (property_id, status)",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists inspection_bookings_property_status_idx");
  await knex.raw("drop index if exists inspections_booking_unique");
}
