import type { Knex } from "knex";

// A demo payment made at checkout carries its home's postal code and its price before tax (docs/decisions.md#32):
// amount_cents stays what was charged, tax included; the confirmation starts the subscription at the subtotal for
// that home. Null on older rows (no tax then): a reader takes coalesce(subtotal_cents, amount_cents).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("payments", (t) => {
    t.integer("subtotal_cents").nullable();
    t.text("postal_code").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("payments", (t) => {
    t.dropColumn("subtotal_cents");
    t.dropColumn("postal_code");
  });
}
