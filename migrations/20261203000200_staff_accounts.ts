import type { Knex } from "knex";

// Staff accounts (docs/decisions.md#38). Expand only (docs/operations.md "Upgrade and rollback"): the existing
// staff_users.disabled_at and last_login_at are the account's deactivation and last sign-in; this adds the
// invitation and password-reset links. Like every one-time link, only the token's SHA-256 is stored.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("staff_account_links", (t) => {
    t.increments("id").primary();
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.text("purpose").notNullable();
    t.text("token_hash").notNullable().unique();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true });
    // Who sent it; the link outlives a deleted sender.
    t.integer("created_by").references("staff_users.id").onDelete("SET NULL");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["staff_user_id"]);
  });
  await knex.raw(
    "alter table staff_account_links add constraint staff_account_links_purpose_check check (purpose in ('invite','reset'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("staff_account_links");
}
