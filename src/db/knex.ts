import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { FolderMigrationSource, migrationLabel } from "./migration-source.js";

// Return bigint counts and numerics as JS numbers; our values stay well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));
// Keep DATE columns as 'YYYY-MM-DD' strings: a date has no time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export type Db = Knex;

export interface KnexOptions {
  /** Postgres statement_timeout for every query on these connections, in ms; 0 or unset = no limit. */
  statementTimeoutMs?: number;
}

export function createKnex(connectionString: string, pool = { min: 0, max: 10 }, options: KnexOptions = {}): Knex {
  return knexFactory({
    client: "pg",
    // pg sends statement_timeout as a startup parameter: it holds from a connection's first query.
    connection: options.statementTimeoutMs ? { connectionString, statement_timeout: options.statementTimeoutMs } : connectionString,
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

/**
 * The session-level advisory lock every Haven migrator takes (an arbitrary fixed key, never to change).
 * Unlike Knex's lock row, a second migrator waits for it instead of failing at once, and it dies with
 * its connection, so a migrator killed mid-way leaves nothing behind.
 */
export const MIGRATION_LOCK_KEY = "7521379417256323431";
const KNEX_LOCK_TABLE = "knex_migrations_lock";

/** This code is older than the database: it must not run against a schema it does not know. */
export class SchemaTooNewError extends Error {}

/** A connection of its own, outside the pool, for the migration lock: the lock lives as long as it. */
async function lockSession<T>(db: Knex, work: (lock: pg.Client) => Promise<T>): Promise<T> {
  const connection = db.client.config.connection as string | pg.ClientConfig;
  const lock = new pg.Client(typeof connection === "string" ? { connectionString: connection } : connection);
  // A dropped lock connection is seen by the migration's own queries; it must not crash the process.
  lock.on("error", () => undefined);
  await lock.connect();
  try {
    // Waiting for another migrator may take as long as its migrations: no statement_timeout here.
    await lock.query("set statement_timeout = 0");
    return await work(lock);
  } finally {
    // Closing the session releases the lock too; unlocking first just makes it prompt.
    await lock.query("select pg_advisory_unlock_all()").catch(() => undefined);
    await lock.end().catch(() => undefined);
  }
}

/** Runs `work` while holding the migration lock, waiting for any other migrator to finish first. */
export function withMigrationLock<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  return lockSession(db, async (lock) => {
    await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    return work();
  });
}

export type UnlockResult = { status: "freed" | "already-free" } | { status: "busy"; pid: number | null };

/**
 * `haven db unlock`: frees the Knex lock row an older version's killed migrator left set. A migrator
 * that is running now keeps its lock (the answer names its Postgres process); ours never needs this.
 */
export function unlockMigrations(db: Knex): Promise<UnlockResult> {
  return lockSession(db, async (lock) => {
    const { rows } = await lock.query("select pg_try_advisory_lock($1) as locked", [MIGRATION_LOCK_KEY]);
    if (!rows[0].locked) {
      const holder = await lock.query(
        "select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database()) and ((classid::bigint << 32) | objid::bigint) = $1::bigint and objsubid = 1 limit 1",
        [MIGRATION_LOCK_KEY],
      );
      return { status: "busy", pid: holder.rows[0]?.pid ?? null };
    }
    return { status: (await freeKnexMigrationLock(db)) ? "freed" : "already-free" };
  });
}

/** The migrations the database has applied, oldest first (none on an empty database). */
async function appliedMigrations(db: Knex): Promise<string[]> {
  const { rows } = await db.raw("select to_regclass('knex_migrations') is not null as present");
  if (!rows[0].present) return [];
  return (await db("knex_migrations").orderBy("id").pluck("name")) as string[];
}

/**
 * Refuses, in one line, a database that has applied migrations this code does not have (an older
 * image started after a newer one migrated). Knex would only call the folder "corrupt".
 */
export async function refuseNewerSchema(db: Knex, source: Knex.MigrationSource<unknown> = new FolderMigrationSource()): Promise<void> {
  const known = (await source.getMigrations([])).map((m) => source.getMigrationName(m));
  const applied = await appliedMigrations(db);
  const knownSet = new Set(known);
  if (applied.every((name) => knownSet.has(name))) return;
  const newest = (names: string[]) => (names.length ? migrationLabel([...names].sort().at(-1)!) : "none");
  throw new SchemaTooNewError(
    `the database schema is newer than this version of Haven (database at ${newest(applied)}, this image knows up to ${newest(known)}); run a newer image, or roll the database back with the newer image's haven db rollback`,
  );
}

/**
 * Frees Knex's own lock row. Only safe while holding the migration lock: then no Haven migrator runs,
 * and a set row is a leftover of an older version's migrator that was killed. Returns whether it was set.
 */
export async function freeKnexMigrationLock(db: Knex): Promise<boolean> {
  const { rows } = await db.raw("select to_regclass(?) is not null as present", [KNEX_LOCK_TABLE]);
  if (!rows[0].present) return false;
  const freed = await db(KNEX_LOCK_TABLE).where("is_locked", 1).update({ is_locked: 0 });
  return freed > 0;
}

/**
 * Applies every pending migration, one migrator at a time. Knex's own lock (a row it sets, failing at
 * once when another process holds it) stays in use but can no longer conflict: we free a stale row
 * and run Knex only while holding the advisory lock, so any number of processes may start together.
 */
export async function migrateLatest(db: Knex, options: { migrationSource?: Knex.MigrationSource<unknown> } = {}): Promise<string[]> {
  return withMigrationLock(db, async () => {
    await refuseNewerSchema(db, options.migrationSource);
    await freeKnexMigrationLock(db);
    const [, applied] = await db.migrate.latest(options.migrationSource ? { migrationSource: options.migrationSource } : undefined);
    return applied as string[];
  });
}

export async function isDatabaseUp(db: Knex): Promise<boolean> {
  try {
    await db.raw("select 1");
    return true;
  } catch {
    return false;
  }
}

