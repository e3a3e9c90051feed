import type { Knex } from "knex";

// Login limits that nobody can turn against a staff member: the lock counts per (e-mail, address),
// and the e-mail-wide counter only slows guessing down. Addresses a user signed in from are remembered, so
// their owner is never slowed by guesses from elsewhere.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("login_attempts", (t) => {
    // The lower-case e-mail and the client address a counter belongs to (null when it has none), so
    // `haven users list` and `haven users unlock` find an e-mail's counters without parsing keys.
    t.text("email");
    t.text("address");
    // The e-mail-wide counter, once past its ceiling: no guess from an unknown address before this time.
    t.timestamp("blocked_until", { useTz: true });
    t.index(["email"]);
  });
  await knex.raw(`update login_attempts set email = substring(key from 7) where key like 'email:%'`);
  await knex.raw(`update login_attempts set address = substring(key from 4) where key like 'ip:%'`);

  await knex.schema.createTable("staff_login_addresses", (t) => {
    t.integer("staff_user_id").notNullable().references("staff_users.id").onDelete("CASCADE");
    t.text("address").notNullable();
    t.timestamp("last_success_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["staff_user_id", "address"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("staff_login_addresses");
  await knex("login_attempts").where("key", "like", "pair:%").delete();
  await knex.schema.alterTable("login_attempts", (t) => {
    t.dropIndex(["email"]);
    t.dropColumn("blocked_until");
    t.dropColumn("address");
    t.dropColumn("email");
  });
}
