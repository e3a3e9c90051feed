import type { Knex } from "knex";

// The audit trail (docs/decisions.md#39). Expand only: a new table an older image never reads.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("audit_events", (t) => {
    t.bigIncrements("id").primary();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // The staff user (no foreign key: the event outlives the account) and their e-mail at the time.
    t.integer("actor_id");
    t.text("actor_email");
    // "staff:<id>", "system", "cli", "stripe": who acted, as the services name them.
    t.text("actor").notNullable();
    t.text("action").notNullable();
    t.text("record_type").notNullable();
    t.text("record_id").notNullable();
    t.jsonb("before");
    t.jsonb("after");
    t.index(["record_type", "record_id", "created_at"]);
    t.index(["actor_id", "created_at"]);
    t.index(["created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("audit_events");
}
