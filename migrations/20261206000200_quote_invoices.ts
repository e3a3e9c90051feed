import type { Knex } from "knex";

// An accepted quote is invoiced and paid by card (docs/decisions.md#43): an invoice bills a subscription or a quote
// request, exactly one of the two. Its pay link (from the acceptance e-mail) is stored as a SHA-256 only, like a
// billing link. Expand only, except subscription_id losing NOT NULL: an older image never writes a quote invoice.
export async function up(knex: Knex): Promise<void> {
  await knex.raw("alter table invoices alter column subscription_id drop not null");
  await knex.schema.alterTable("invoices", (t) => {
    // No foreign key: an invoice is a record of money and outlives a deleted quote request, keeping its id.
    t.integer("quote_request_id").nullable();
    // Stripe: the PaymentIntent that charges a quote invoice (made once, with an idempotency key from the invoice).
    t.text("payment_intent_id").nullable();
    t.text("pay_token_hash").nullable().unique();
  });
  await knex.raw(
    "alter table invoices add constraint invoices_bills_one_thing check (num_nonnulls(subscription_id, quote_request_id) = 1)",
  );
  // One invoice per accepted quote request.
  await knex.raw(
    "create unique index invoices_quote_request_uidx on invoices (quote_request_id) where quote_request_id is not null",
  );
  // Each booking of an accepted quote's work e-mailed once: a row per (quote, date, time); a new date is a new row.
  await knex.schema.createTable("quote_booking_notices", (t) => {
    t.bigIncrements("id");
    t.integer("quote_request_id").notNullable().references("quote_requests.id").onDelete("CASCADE");
    t.date("scheduled_date").notNullable();
    t.text("scheduled_time").notNullable().defaultTo("");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(["quote_request_id", "scheduled_date", "scheduled_time"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("quote_booking_notices");
  await knex.raw("delete from invoices where subscription_id is null");
  await knex.raw("alter table invoices drop constraint if exists invoices_bills_one_thing");
  await knex.raw("drop index if exists invoices_quote_request_uidx");
  await knex.schema.alterTable("invoices", (t) => {
    t.dropColumn("quote_request_id");
    t.dropColumn("payment_intent_id");
    t.dropColumn("pay_token_hash");
  });
  await knex.raw("alter table invoices alter column subscription_id set not null");
}
