import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { FolderMigrationSource } from "./migration-source.js";

// Return bigint counts and numerics as JS numbers; our values stay well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));
// Keep DATE columns as 'YYYY-MM-DD' strings: a date has no time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;

export function createKnex(connectionString: string, pool = { min: 0, max: 10 }): Knex {
  return knexFactory({
    client: "pg",
    connection: connectionString,
    pool,
    migrations: { migrationSource: new FolderMigrationSource(), tableName: "knex_migrations" },
    log: {
      // A failed connection is thrown to the caller, which explains it; Knex would also print its stack.
      // A dropped connection (Postgres restarting) is answered with 503s and logged by the app once per
      // request; Knex's own line per broken connection would only repeat it.
      warn: (message: string) => {
        if (!/^(Acquire connection error|Connection Error)/.test(String(message))) console.warn(message);
      },
    },
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}

export async function isDatabaseUp(db: Knex): Promise<boolean> {
  try {
    await db.raw("select 1");
    return true;
  } catch {
    return false;
  }
}

