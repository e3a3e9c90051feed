import type { Knex } from "knex";

// Why the last payment failed, as Stripe codes it (a card error's `decline_code`, else its `code`:
// "insufficient_funds", "expired_card"), beside its English message: the homeowner's text is chosen by the code in
// their language, the message kept for a code Haven does not know (docs/decisions.md#78).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("subscriptions", (t) => {
    t.text("last_payment_error_code").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("subscriptions", (t) => {
    t.dropColumn("last_payment_error_code");
  });
}
