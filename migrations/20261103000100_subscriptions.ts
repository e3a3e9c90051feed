import type { Knex } from "knex";

// plans are monthly subscriptions. One row per provider subscription
// (Stripe's, or the demo provider's own), one row per provider invoice, a log of what happened to each
// subscription (plan changes, cancellations, payments failed), and the webhook events already processed.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("subscriptions", (t) => {
    t.increments("id");
    // Known from intake on: a subscription is paid before the customer and the home are entered.
    t.integer("customer_id").nullable().references("customers.id").onDelete("SET NULL");
    t.integer("property_id").nullable().references("properties.id").onDelete("SET NULL");
    t.text("plan_type").notNullable();
    t.text("provider").notNullable(); // 'stripe' | 'demo'
    t.text("provider_subscription_id").notNullable();
    t.text("provider_customer_id").nullable();
    // The Checkout Session, PaymentIntent or demo session the purchase went through: intake finds it by this.
    t.text("checkout_ref").nullable().unique();
    // Stripe's values (incomplete, incomplete_expired, trialing, active, past_due, canceled, unpaid, paused);
    // an unknown value is kept as it is.
    t.text("status").notNullable();
    t.integer("monthly_amount_cents").notNullable();
    t.text("currency").notNullable().defaultTo("cad");
    t.text("payer_email").nullable();
    t.text("payer_name").nullable();
    t.timestamp("started_at", { useTz: true }).notNullable();
    // The start date in BUSINESS_TZ: period n runs from anchor + n months (docs/decisions.md#22's month-end rule).
    t.date("billing_anchor").notNullable();
    t.timestamp("current_period_start", { useTz: true }).notNullable();
    t.timestamp("current_period_end", { useTz: true }).notNullable();
    t.timestamp("minimum_term_ends_at", { useTz: true }).notNullable();
    t.timestamp("cancel_at", { useTz: true }).nullable();
    t.timestamp("canceled_at", { useTz: true }).nullable();
    t.text("cancellation_reason").nullable();
    // A downgrade waits for the end of the period.
    t.text("scheduled_plan_type").nullable();
    t.timestamp("scheduled_plan_at", { useTz: true }).nullable();
    // Demo provider: the card on file (last four digits) and whether its renewals fail (4000 0000 0000 0341).
    t.text("card_last4").nullable();
    t.boolean("card_fails_renewals").notNullable().defaultTo(false);
    t.text("last_payment_error").nullable();
    t.integer("version").notNullable().defaultTo(1);
    t.timestamps(true, true);
    t.unique(["provider", "provider_subscription_id"]);
  });
  await knex.raw("create index subscriptions_newest_idx on subscriptions (created_at desc, id desc)");
  await knex.raw("create index subscriptions_status_idx on subscriptions (status, created_at desc, id desc)");
  await knex.raw("create index subscriptions_plan_idx on subscriptions (plan_type, created_at desc, id desc)");
  // MRR and the counts of /admin/subscriptions read this index alone (an index-only scan at 100,000 rows).
  await knex.raw(
    "create index subscriptions_figures_idx on subscriptions (status) include (monthly_amount_cents, canceled_at)",
  );
  await knex.raw("create index subscriptions_customer_idx on subscriptions (customer_id)");
  await knex.raw("create index subscriptions_property_idx on subscriptions (property_id)");
  // The demo renewal reads the subscriptions whose period has ended.
  await knex.raw(
    "create index subscriptions_demo_due_idx on subscriptions (current_period_end) where provider = 'demo' and status in ('active', 'past_due', 'trialing')",
  );

  await knex.schema.createTable("invoices", (t) => {
    t.increments("id");
    t.integer("subscription_id").notNullable().references("subscriptions.id").onDelete("CASCADE");
    t.text("provider").notNullable();
    // Demo invoices have deterministic ids (demo_in_<subscription>_<period start>): billing a period twice is a conflict.
    t.text("provider_invoice_id").notNullable();
    t.integer("amount_cents").notNullable();
    t.text("currency").notNullable().defaultTo("cad");
    t.timestamp("period_start", { useTz: true }).notNullable();
    t.timestamp("period_end", { useTz: true }).notNullable();
    t.text("status").notNullable(); // draft | open | paid | uncollectible | void
    t.text("billing_reason").nullable(); // subscription_create | subscription_cycle | subscription_update
    t.timestamp("paid_at", { useTz: true }).nullable();
    t.text("failure_reason").nullable();
    t.integer("attempt_count").notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(["provider", "provider_invoice_id"]);
    t.index(["subscription_id", "period_start"]);
  });
  await knex.raw("create index invoices_paid_idx on invoices (paid_at) where status = 'paid'");

  await knex.schema.createTable("subscription_events", (t) => {
    t.bigIncrements("id");
    t.integer("subscription_id").notNullable().references("subscriptions.id").onDelete("CASCADE");
    // created | activated | plan_changed | plan_change_scheduled | cancel_scheduled | cancel_undone |
    // canceled | payment_failed | payment_recovered | status_changed | card_updated
    t.text("kind").notNullable();
    t.text("from_plan").nullable();
    t.text("to_plan").nullable();
    t.text("actor").notNullable(); // customer | staff:<id> | stripe | system | cli
    t.jsonb("detail").nullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["subscription_id", "created_at"]);
  });
  await knex.raw("create index subscription_events_kind_idx on subscription_events (kind, created_at)");

  // Each provider event (Stripe's event id) is processed once, in the transaction that applies it.
  await knex.schema.createTable("provider_events", (t) => {
    t.text("event_id").primary();
    t.text("type").notNullable();
    t.timestamp("received_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  // A demo hosted checkout's payment row points at the subscription it started; revenue counts the invoice, not it.
  await knex.schema.alterTable("payments", (t) => {
    t.integer("subscription_id").nullable().references("subscriptions.id").onDelete("SET NULL");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("payments", (t) => t.dropColumn("subscription_id"));
  await knex.schema.dropTable("provider_events");
  await knex.schema.dropTable("subscription_events");
  await knex.schema.dropTable("invoices");
  await knex.schema.dropTable("subscriptions");
}
