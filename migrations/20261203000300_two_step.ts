import type { Knex } from "knex";

// Two-step sign-in with an authenticator app (docs/decisions.md#38). Expand only: an older image reads none of it
// (and signs everyone in with a password alone until it is replaced).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("staff_users", (t) => {
    // The app's shared secret (base32). Set while being added; in force once totp_enabled_at is set.
    t.text("totp_secret");
    t.timestamp("totp_enabled_at", { useTz: true });
    // The last 30-second step whose code was accepted: a code works once.
    t.bigInteger("totp_last_step");
  });
  // Staff-wide settings the owner sets (require_two_step).
  await knex.schema.createTable("staff_settings", (t) => {
    t.text("key").primary();
    t.jsonb("value").notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("staff_settings");
  await knex.schema.alterTable("staff_users", (t) => {
    t.dropColumn("totp_secret");
    t.dropColumn("totp_enabled_at");
    t.dropColumn("totp_last_step");
  });
}
