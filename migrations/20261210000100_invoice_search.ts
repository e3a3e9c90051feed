import type { Knex } from "knex";

// The staff's invoice search finds a quote's invoice by its home (src/modules/subscriptions/invoice-list.repository.ts):
// homes by their trigram index, then their quote requests by this one, then the invoice by its quote request.
export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index if not exists quote_requests_property_idx on quote_requests (property_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists quote_requests_property_idx");
}
