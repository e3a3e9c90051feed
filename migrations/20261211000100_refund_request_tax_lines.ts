import type { Knex } from "knex";

// A refund that gives back only tax charged in the wrong province (docs/decisions.md#57) names its tax lines when its
// intent is written: Stripe's answer is recorded later (docs/decisions.md#52), and must record those lines, not a
// share in proportion to the invoice. Null for every other refund.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("refund_requests", (t) => {
    t.jsonb("tax_lines").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("refund_requests", (t) => {
    t.dropColumn("tax_lines");
  });
}
