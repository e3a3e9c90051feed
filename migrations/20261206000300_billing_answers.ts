import type { Knex } from "knex";

// Billing answers for the office (src/modules/subscriptions/invoices.md): the invoice search by amount and issue
// day stays an index range at any size, and a resent receipt is remembered so a double click sends one e-mail.
// Expand only: an older image reads none of it.
export async function up(knex: Knex): Promise<void> {
  // The issue day is the payment's, else the period's start (invoice-list.repository.ts).
  await knex.raw("create index invoices_issued_idx on invoices ((coalesce(paid_at, period_start)))");
  // "412" matches the subtotal or the total: one index each, the issue day second for a date range beside it.
  await knex.raw(
    "create index invoices_total_issued_idx on invoices (amount_cents, (coalesce(paid_at, period_start)))",
  );
  await knex.raw(
    "create index invoices_subtotal_issued_idx on invoices ((coalesce(subtotal_cents, amount_cents)), (coalesce(paid_at, period_start)))",
  );
  await knex.schema.createTable("receipt_resends", (t) => {
    t.bigIncrements("id");
    t.integer("invoice_id").notNullable().references("invoices.id").onDelete("CASCADE");
    // The click's key: a repeat of it within a minute is the same resend.
    t.text("request_key").notNullable();
    t.text("actor").notNullable();
    t.text("sent_to").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["invoice_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("receipt_resends");
  await knex.raw("drop index if exists invoices_subtotal_issued_idx");
  await knex.raw("drop index if exists invoices_total_issued_idx");
  await knex.raw("drop index if exists invoices_issued_idx");
}
