import type { Knex } from "knex";

// An invoice's total, what its payment paid and what the customer's balance paid (docs/decisions.md#50). Expand
// only: two columns an older image never reads.
// - amount_paid_cents: what the payment (the card) paid; null on rows written by an older image, read as the total
//   less the balance applied once paid.
// - balance_applied_cents: the customer's balance applied to it (Stripe's ending_balance − starting_balance): a
//   credit used is positive, an earlier debt carried in negative, so total = paid + balance applied.
// amount_cents is the total (docs/decisions.md#33). Stripe invoices stored before held what was paid or due there;
// their subtotal was already total − tax, so their total is subtotal + tax, and the difference is the balance.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invoices", (t) => {
    t.integer("amount_paid_cents").nullable();
    t.integer("balance_applied_cents").notNullable().defaultTo(0);
  });
  await knex.raw(
    `update invoices
        set amount_paid_cents = case when status = 'paid' then amount_cents else 0 end,
            balance_applied_cents = subtotal_cents + tax_cents - amount_cents,
            amount_cents = subtotal_cents + tax_cents
      where provider = 'stripe' and quote_request_id is null and subtotal_cents is not null
        and amount_cents <> subtotal_cents + tax_cents`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("invoices", (t) => {
    t.dropColumn("balance_applied_cents");
    t.dropColumn("amount_paid_cents");
  });
}
