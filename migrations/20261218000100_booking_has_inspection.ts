import type { Knex } from "knex";

// Whether a booking has been taken up by an inspection, kept on the booking itself so that the dashboard's Pending
// Inspections counts its scheduled bookings not yet taken up from one partial index instead of an anti-join against
// every inspection (docs/decisions.md#80). The trigger keeps it whoever writes an inspection: it updates the booking's
// row, so it waits on (and is seen with) any change to that booking's status, and a count is exact in every snapshot.
// An inspection takes up at most one booking, and a booking at most one inspection (inspections_booking_unique).
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table inspection_bookings add column has_inspection boolean not null default false");
  await knex.raw(
    `update inspection_bookings b set has_inspection = true
      where exists (select 1 from inspections i where i.booking_id = b.id)`,
  );
  await knex.raw(
    `create function inspection_bookings_taken_up() returns trigger language plpgsql as $$
     begin
       if tg_op in ('UPDATE', 'DELETE') and old.booking_id is not null then
         update inspection_bookings set has_inspection = false where id = old.booking_id;
       end if;
       if tg_op in ('INSERT', 'UPDATE') and new.booking_id is not null then
         update inspection_bookings set has_inspection = true where id = new.booking_id;
       end if;
       return null;
     end $$`,
  );
  await knex.raw(
    `create trigger inspections_take_up_booking after insert or delete or update of booking_id on inspections
       for each row execute function inspection_bookings_taken_up()`,
  );
  await knex.raw(
    `create index inspection_bookings_untaken_idx on inspection_bookings (id)
       where status = 'scheduled' and not has_inspection`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists inspection_bookings_untaken_idx");
  await knex.raw("drop trigger if exists inspections_take_up_booking on inspections");
  await knex.raw("drop function if exists inspection_bookings_taken_up()");
  await knex.raw("alter table inspection_bookings drop column if exists has_inspection");
}
