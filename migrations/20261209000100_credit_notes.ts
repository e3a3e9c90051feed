import type { Knex } from "knex";

// Refunds that cannot be lost or doubled, each a credit note with its own number (docs/decisions.md#52). Expand
// only: an older image never reads these columns and tables, and writes refunds without a number (nullable).
// - refunds.number: HAV-CN-<year>-<6 digits>, gapless per business year, from credit_note_counters in the refund's
//   own transaction (a rollback gives it back), as invoice_number_counters numbers invoices (#33). Existing refunds
//   are numbered here in order of creation.
// - refund_requests: a staff refund's intent, written under the invoice's lock before Stripe is called, with the
//   key Stripe's idempotency key comes from: a repeat (a double click, a refreshed page) finds it and reaches the
//   same Stripe refund. `pending` until Stripe's answer is recorded as a refund (`refund_id`); a request Stripe
//   certainly refused is deleted (nothing changed).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("credit_note_counters", (t) => {
    t.integer("year").primary();
    t.integer("last_number").notNullable();
  });
  await knex.schema.alterTable("refunds", (t) => {
    t.text("number").nullable().unique();
  });
  // The business year of each refund (BUSINESS_TZ, as the app reads it; the same default).
  const zone = process.env.BUSINESS_TZ || "America/Toronto";
  await knex.raw(
    `with numbered as (
       select id, extract(year from created_at at time zone ?)::int as year,
              row_number() over (partition by extract(year from created_at at time zone ?) order by created_at, id) as n
         from refunds where number is null)
     update refunds r set number = 'HAV-CN-' || numbered.year || '-' || lpad(numbered.n::text, 6, '0')
       from numbered where r.id = numbered.id`,
    [zone, zone],
  );
  await knex.raw(
    `insert into credit_note_counters (year, last_number)
     select extract(year from created_at at time zone ?)::int, count(*) from refunds group by 1`,
    [zone],
  );
  await knex.schema.createTable("refund_requests", (t) => {
    t.increments("id");
    t.integer("invoice_id").notNullable().references("invoices.id").onDelete("CASCADE");
    // refund:<invoice>:<amount or rest>:<hash of the Idempotency-Key or the refunded-so-far figure the form showed>.
    t.text("request_key").notNullable().unique();
    t.integer("amount_cents").notNullable(); // what the customer gets back, tax included
    t.text("reason").notNullable();
    t.text("actor").notNullable();
    t.text("status").notNullable().defaultTo("pending");
    // Stripe's re_… once known; the refund row once recorded.
    t.text("provider_refund_id").nullable();
    t.integer("refund_id").nullable().references("refunds.id").onDelete("SET NULL");
    t.integer("attempts").notNullable().defaultTo(0);
    t.text("last_error").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table refund_requests add constraint refund_requests_status_check check (status in ('pending','succeeded'))",
  );
  // What is reserved while a refund is pending: the invoice's requests not yet recorded.
  await knex.raw("create index refund_requests_pending_idx on refund_requests (invoice_id) where status = 'pending'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("refund_requests");
  await knex.schema.alterTable("refunds", (t) => {
    t.dropColumn("number");
  });
  await knex.schema.dropTableIfExists("credit_note_counters");
}
