import type { Knex } from "knex";

// Revocable staff sessions, login limits shared by every web process, and idempotent submissions.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("staff_users", (t) => {
    // A disabled user cannot sign in, and their sessions stop working at once.
    t.timestamp("disabled_at", { useTz: true });
  });

  await knex.schema.createTable("staff_sessions", (t) => {
    t.increments("id").primary();
    // SHA-256 of the random session id the sealed cookie carries: a database leak hands over no session.
    t.text("token_hash").notNullable().unique();
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("revoked_at", { useTz: true });
    t.index(["staff_user_id"]);
  });

  await knex.schema.createTable("login_attempts", (t) => {
    // 'email:<lower-case e-mail>' or 'ip:<client address>'.
    t.text("key").primary();
    t.timestamp("window_started_at", { useTz: true }).notNullable();
    t.integer("attempts").notNullable();
  });

  await knex.schema.createTable("idempotency_keys", (t) => {
    t.text("scope").notNullable();
    t.text("key").notNullable();
    t.text("request_hash").notNullable();
    t.jsonb("response").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["scope", "key"]);
    t.index(["created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("idempotency_keys");
  await knex.schema.dropTable("login_attempts");
  await knex.schema.dropTable("staff_sessions");
  await knex.schema.alterTable("staff_users", (t) => {
    t.dropColumn("disabled_at");
  });
}
