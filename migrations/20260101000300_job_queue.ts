import { runMigrations } from "graphile-worker";
import type { Knex } from "knex";
import type { Pool, PoolClient } from "pg";

// graphile-worker owns its schema; this migration installs it so that domain writes can
// enqueue jobs (graphile_worker.add_job) inside their own transaction from the first deploy.
export const config = { transaction: false };

/** Lends graphile-worker Knex's own pg connections, so no second set of credentials is needed. */
function poolFromKnex(knex: Knex): Pool {
  const pool = {
    async connect() {
      const client = (await knex.client.acquireConnection()) as PoolClient;
      client.release = () => void knex.client.releaseConnection(client);
      return client;
    },
    on: () => pool,
    removeListener: () => pool,
    end: async () => undefined,
  };
  return pool as unknown as Pool;
}

export async function up(knex: Knex): Promise<void> {
  await runMigrations({ pgPool: poolFromKnex(knex) });
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop schema if exists graphile_worker cascade");
}
