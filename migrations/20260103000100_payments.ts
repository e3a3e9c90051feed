import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("payments", (t) => {
    t.increments("id").primary();
    // 'stripe' or 'demo'; provider_id is the Checkout Session or PaymentIntent id.
    t.text("provider").notNullable();
    t.text("provider_id").notNullable();
    t.text("kind").notNullable();
    t.text("plan_type");
    t.integer("amount_cents").notNullable();
    t.text("currency").notNullable().defaultTo("cad");
    t.text("customer_email");
    t.text("customer_name");
    // 'pending' (a demo intent awaiting its card), 'succeeded' or 'failed'. Only succeeded counts as revenue.
    t.text("status").notNullable();
    // Demo intents only: the secret the payment form must present to confirm.
    t.text("client_secret");
    t.timestamps(true, true);
    // One row per provider id: a replayed webhook or a repeated verification changes nothing.
    t.unique(["provider", "provider_id"]);
  });
  await knex.raw(
    "alter table payments add constraint payments_kind_check check (kind in ('checkout_session','payment_intent'))",
  );
  await knex.raw(
    "alter table payments add constraint payments_status_check check (status in ('pending','succeeded','failed'))",
  );
  await knex.raw("alter table payments add constraint payments_amount_check check (amount_cents >= 0)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("payments");
}
