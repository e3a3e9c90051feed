import type { Knex } from "knex";

// A dispute followed to its close (docs/decisions.md#53). Expand only: columns an older image never reads.
// - funds_withdrawn_cents, funds_reinstated_cents: what Stripe's balance transactions for the dispute moved (the
//   disputed amount taken back, and given back when it is won or the funds are reinstated).
// - lost_at, lost_cents, lost_tax_cents, lost_tax_lines: a lost dispute is money the customer took back, tax
//   included: its tax is an adjustment of the period it was lost in (the tax report), its amount less tax comes off
//   revenue. Computed once, when Haven first learns it was lost.
// - holds_services: the dispute holds its subscription's plan services as a failed payment does (funds withdrawn and
//   not given back, or lost); a partial index finds a subscription's holding disputes.
// - updated_at: the last change Stripe reported.
// And invoices_payment_intent_idx: a charge's PaymentIntent finds the quote invoice it paid (charge events,
// reconciliation) without a scan of every invoice.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("disputes", (t) => {
    t.integer("funds_withdrawn_cents").notNullable().defaultTo(0);
    t.integer("funds_reinstated_cents").notNullable().defaultTo(0);
    t.timestamp("lost_at", { useTz: true }).nullable();
    t.integer("lost_cents").notNullable().defaultTo(0);
    t.integer("lost_tax_cents").notNullable().defaultTo(0);
    t.jsonb("lost_tax_lines").notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.boolean("holds_services").notNullable().defaultTo(false);
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw("create index disputes_holding_idx on disputes (subscription_id) where holds_services");
  await knex.raw("create index disputes_invoice_idx on disputes (invoice_id)");
  await knex.raw(
    "create index invoices_payment_intent_idx on invoices (payment_intent_id) where payment_intent_id is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists invoices_payment_intent_idx");
  await knex.raw("drop index if exists disputes_invoice_idx");
  await knex.raw("drop index if exists disputes_holding_idx");
  await knex.schema.alterTable("disputes", (t) => {
    t.dropColumn("updated_at");
    t.dropColumn("holds_services");
    t.dropColumn("lost_tax_lines");
    t.dropColumn("lost_tax_cents");
    t.dropColumn("lost_cents");
    t.dropColumn("lost_at");
    t.dropColumn("funds_reinstated_cents");
    t.dropColumn("funds_withdrawn_cents");
  });
}
