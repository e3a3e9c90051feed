import type { Knex } from "knex";

// Money you can trust (docs/decisions.md#32–35): the home's province on each subscription and its tax on each
// invoice, a gapless invoice number per year, refunds and disputes, the price list a subscription was sold from,
// and the answers already given to each change (a repeat gets the first answer).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("subscriptions", (t) => {
    // 'pricing' (/pricing's prices) or 'checkout' (/checkout's), stored when the subscription is made. Existing
    // rows get what their amount said, the reading the code used to guess each time.
    t.text("price_list").notNullable().defaultTo("pricing");
    // The home's postal code and province: the tax follows the home served (docs/decisions.md#32).
    t.text("tax_postal_code").nullable();
    t.text("tax_province").nullable();
    // Set when Stripe reports a dispute on one of its charges; staff see it flagged.
    t.timestamp("disputed_at", { useTz: true }).nullable();
  });
  await knex.raw(
    "alter table subscriptions add constraint subscriptions_price_list_check check (price_list in ('pricing','checkout'))",
  );

  await knex.schema.alterTable("invoices", (t) => {
    // HAV-YYYY-NNNNNN, given when the invoice is first stored as open or paid (docs/decisions.md#33).
    t.text("number").nullable().unique();
    t.integer("subtotal_cents").nullable(); // before tax; amount_cents stays the total
    t.integer("tax_cents").notNullable().defaultTo(0);
    // [{ kind, label, percent, amountCents }] as the tax module computes them.
    t.jsonb("tax_lines").notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.text("tax_province").nullable();
    t.integer("refunded_cents").notNullable().defaultTo(0);
    // Stripe's hosted page for an invoice that needs the customer (3-D Secure).
    t.text("hosted_invoice_url").nullable();
  });
  // Null on rows written before tax and by an older image still running (docs/operations.md "Upgrade and rollback"): a
  // reader takes coalesce(subtotal_cents, amount_cents).
  await knex.raw("update invoices set subtotal_cents = amount_cents where subtotal_cents is null");

  // One row per year: the number is taken with `update … returning` in the invoice's own transaction, so a
  // rollback gives it back and the sequence has no gaps (a Postgres sequence would).
  await knex.schema.createTable("invoice_number_counters", (t) => {
    t.integer("year").primary();
    t.integer("last_number").notNullable();
  });

  await knex.schema.createTable("refunds", (t) => {
    t.increments("id");
    t.integer("invoice_id").notNullable().references("invoices.id").onDelete("CASCADE");
    t.text("provider").notNullable();
    // Stripe's re_… id, or the demo provider's demo_re_<invoice>_<key>.
    t.text("provider_refund_id").notNullable();
    t.integer("amount_cents").notNullable(); // what the customer gets back, tax included
    t.integer("tax_cents").notNullable().defaultTo(0);
    t.jsonb("tax_lines").notNullable().defaultTo(knex.raw("'[]'::jsonb"));
    t.text("reason").nullable();
    t.text("actor").notNullable(); // staff:<id> | stripe | cli
    t.text("credit_note_id").nullable();
    // The request that made it (invoice, amount, Idempotency-Key or the refunded-so-far figure): a repeat finds
    // it and gets the first answer. Null for refunds made in Stripe's dashboard.
    t.text("request_key").nullable().unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["provider", "provider_refund_id"]);
    t.index(["invoice_id"]);
  });
  await knex.raw("create index refunds_created_idx on refunds (created_at)");

  await knex.schema.createTable("disputes", (t) => {
    t.increments("id");
    t.integer("invoice_id").nullable().references("invoices.id").onDelete("SET NULL");
    t.integer("subscription_id").nullable().references("subscriptions.id").onDelete("SET NULL");
    t.text("provider_dispute_id").notNullable().unique();
    t.integer("amount_cents").notNullable();
    t.text("reason").nullable();
    t.text("status").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // The first answer to each change (docs/decisions.md#35): the key names the change (subscription, kind,
  // target, and the client's Idempotency-Key or the subscription's version), never the clock.
  await knex.schema.createTable("subscription_changes", (t) => {
    t.bigIncrements("id");
    t.integer("subscription_id").notNullable().references("subscriptions.id").onDelete("CASCADE");
    t.text("change_key").notNullable().unique();
    t.integer("status_code").notNullable();
    t.jsonb("response").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("subscription_changes");
  await knex.schema.dropTable("disputes");
  await knex.schema.dropTable("refunds");
  await knex.schema.dropTable("invoice_number_counters");
  await knex.schema.alterTable("invoices", (t) => {
    for (const c of [
      "number",
      "subtotal_cents",
      "tax_cents",
      "tax_lines",
      "tax_province",
      "refunded_cents",
      "hosted_invoice_url",
    ])
      t.dropColumn(c);
  });
  await knex.raw("alter table subscriptions drop constraint subscriptions_price_list_check");
  await knex.schema.alterTable("subscriptions", (t) => {
    for (const c of ["price_list", "tax_postal_code", "tax_province", "disputed_at"]) t.dropColumn(c);
  });
}
