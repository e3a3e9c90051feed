import type { Knex } from "knex";

// homeowners sign in by e-mail link, a 6-digit code, or a passkey.
// Every secret is stored as its SHA-256 only (the link token, the code, the session id, WebAuthn challenges).
// Rows are spent in place (used_at / revoked_at) and purged daily by privacy (HOME_SIGN_IN_TABLES).
export async function up(knex: Knex): Promise<void> {
  // One e-mailed sign-in: the link token and the code travel in the same message and are spent together.
  await knex.schema.createTable("home_sign_in_tokens", (t) => {
    t.increments("id");
    t.text("email").notNullable(); // lower case
    t.text("token_hash").notNullable().unique();
    t.text("code_hash").nullable(); // null for a support link (CLI, staff), which has no code
    t.integer("code_tries").notNullable().defaultTo(0);
    t.text("source").notNullable().defaultTo("email"); // email | support
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
    t.index(["email"]);
  });

  await knex.schema.createTable("home_sessions", (t) => {
    t.increments("id");
    t.text("email").notNullable(); // lower case
    t.text("token_hash").notNullable().unique();
    t.text("method").notNullable(); // link | code | passkey | support
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_seen_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("revoked_at", { useTz: true }).nullable();
    t.index(["email"]);
  });

  // When each homeowner last signed in: kept apart from sessions, which are purged once spent.
  await knex.schema.createTable("home_accounts", (t) => {
    t.text("email").primary(); // lower case
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_signed_in_at", { useTz: true }).nullable();
  });

  await knex.schema.createTable("home_passkeys", (t) => {
    t.increments("id");
    t.text("email").notNullable(); // lower case
    t.text("credential_id").notNullable().unique(); // base64url
    t.binary("public_key").notNullable();
    t.bigInteger("counter").notNullable().defaultTo(0);
    t.specificType("transports", "text[]").notNullable().defaultTo("{}");
    t.text("name").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_used_at", { useTz: true }).nullable();
    t.index(["email"]);
  });

  // WebAuthn challenges, stored hashed and spent once; `email` is set for registration (signed in) only.
  await knex.schema.createTable("home_webauthn_challenges", (t) => {
    t.text("challenge_hash").primary();
    t.text("purpose").notNullable(); // register | sign-in
    t.text("email").nullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("home_webauthn_challenges");
  await knex.schema.dropTable("home_passkeys");
  await knex.schema.dropTable("home_accounts");
  await knex.schema.dropTable("home_sessions");
  await knex.schema.dropTable("home_sign_in_tokens");
}
