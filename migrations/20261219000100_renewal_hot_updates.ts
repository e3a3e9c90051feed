import type { Knex } from "knex";

// A demo renewal moves each due subscription's period (docs/decisions.md#82). The due index was on the period's end, so
// every move wrote a new entry into each of the table's indexes. Without it, and with room left on each page
// (fillfactor 70: room for several rows' next versions), the move changes no indexed column and Postgres writes the
// row's new version beside the old one and no index entry (a HOT update). The due subscriptions are read once a
// run, in one pass over the table.
export async function up(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists subscriptions_demo_due_idx");
  await knex.raw("alter table subscriptions set (fillfactor = 70)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table subscriptions reset (fillfactor)");
  await knex.raw(
    "create index subscriptions_demo_due_idx on subscriptions (current_period_end) where provider = 'demo' and status in ('active', 'past_due', 'trialing')",
  );
}
