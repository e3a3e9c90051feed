import type { Knex } from "knex";

// The graphile-worker ids of each live worker process, under the key of the advisory lock that process holds
// while it lives (src/worker-lease.ts). When the lock can be taken, the process is gone: the other workers
// unlock its jobs instead of waiting 4 hours.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("worker_leases", (t) => {
    t.text("worker_id").primary();
    // host:pid of the process, for operators (and the scale-out test).
    t.text("holder").notNullable();
    t.bigInteger("lock_key").notNullable().index();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("worker_leases");
}
