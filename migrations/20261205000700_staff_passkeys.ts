import type { Knex } from "knex";

// Staff passkeys as the second step of sign-in (docs/decisions.md#38). Expand only: an older image reads none of it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("staff_passkeys", (t) => {
    t.increments("id");
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.text("credential_id").notNullable().unique(); // base64url
    t.binary("public_key").notNullable();
    t.bigInteger("counter").notNullable().defaultTo(0);
    t.specificType("transports", "text[]").notNullable().defaultTo("{}");
    t.text("name").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_used_at", { useTz: true }).nullable();
    t.index(["staff_user_id"]);
  });
  // WebAuthn challenges, stored hashed and spent once; each is for one staff user (adding a passkey, or signing in
  // after their right password).
  await knex.schema.createTable("staff_webauthn_challenges", (t) => {
    t.text("challenge_hash").primary();
    t.text("purpose").notNullable(); // register | sign-in
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
    t.index(["staff_user_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("staff_webauthn_challenges");
  await knex.schema.dropTableIfExists("staff_passkeys");
}
