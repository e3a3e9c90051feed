import type { Knex } from "knex";

// The staff subscription search at 100,000 subscriptions (subscription-filter.ts): a subscription matches by its
// home (properties' trigram index, migration 20260208000100), its customer's e-mail or name, or, without a
// customer, its payer's. Trigram indexes over each of those texts let the search read candidates from indexes; the
// exact match is then checked on those rows alone. customers' email and name are never null; a subscription's
// payer is read only when it has no customer, so its index holds only those.
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "create index customers_search_trgm_idx on customers using gin (lower(email || ' ' || name) gin_trgm_ops)",
  );
  await knex.raw(
    `create index subscriptions_payer_trgm_idx on subscriptions
       using gin (lower(coalesce(payer_email, '') || ' ' || coalesce(payer_name, '')) gin_trgm_ops)
       where customer_id is null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists subscriptions_payer_trgm_idx");
  await knex.raw("drop index if exists customers_search_trgm_idx");
}
