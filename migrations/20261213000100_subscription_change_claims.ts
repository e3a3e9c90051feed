import type { Knex } from "knex";

// A plan change's claim (docs/decisions.md#56's rule for staff and customer changes): written under the
// subscription's row lock before the provider is called, with the change's key and what was decided, so the call
// happens with no transaction open and its answer is applied in a second one. `pending` until then; `done` with the
// answer a repeat gets; `failed` when the provider refused (a repeat may try again). One pending claim per
// subscription. Rows written before this migration are answers: `done`.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("subscription_changes", (t) => {
    t.text("status").notNullable().defaultTo("done");
    t.text("kind").nullable();
    t.text("actor").nullable();
    t.jsonb("steps").nullable();
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("sending_since", { useTz: true }).nullable();
    t.text("last_error").nullable();
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table subscription_changes add constraint subscription_changes_status_check check (status in ('pending','done','failed'))",
  );
  await knex.raw(
    "create unique index subscription_changes_one_pending on subscription_changes (subscription_id) where status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index subscription_changes_one_pending");
  await knex.raw("alter table subscription_changes drop constraint subscription_changes_status_check");
  await knex.schema.alterTable("subscription_changes", (t) => {
    t.dropColumns("status", "kind", "actor", "steps", "attempts", "sending_since", "last_error", "updated_at");
  });
}
