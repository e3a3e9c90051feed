import knexFactory, { type Knex } from "knex";
import pg from "pg";
import { FolderMigrationSource, migrationLabel } from "./migration-source.js";

// Return bigint counts and numerics as JS numbers; our values stay well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));
// Keep DATE columns as 'YYYY-MM-DD' strings: a date has no time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

/** A session's limits, in ms; 0 or unset = none (docs/decisions.md#46). */
export interface KnexOptions {
  /** Postgres statement_timeout: the longest one statement may run, lock waits included. */
  statementTimeoutMs?: number;
  /** Postgres lock_timeout: the longest a statement waits for a lock (a row, an advisory lock). */
  lockTimeoutMs?: number;
  /** Postgres idle_in_transaction_session_timeout: a transaction left idle this long is ended with its session. */
  idleInTransactionTimeoutMs?: number;
}

/** The limits as pg's connection settings, which it sends as startup parameters. */
const sessionLimits = (options: KnexOptions) =>
  Object.fromEntries(
    Object.entries({
      statement_timeout: options.statementTimeoutMs,
      lock_timeout: options.lockTimeoutMs,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs,
    }).filter(([, ms]) => ms),
  );

export function createKnex(connectionString: string, pool = { min: 0, max: 10 }, options: KnexOptions = {}): Knex {
  const limits = sessionLimits(options);
  return knexFactory({
    client: "pg",
    // pg sends the limits as startup parameters: they hold from a connection's first query.
    connection: Object.keys(limits).length ? { connectionString, ...limits } : connectionString,
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

/** The settings of the app's pool, from the environment (src/config/env.ts). */
export interface AppPoolSettings {
  DB_POOL_MAX: number;
  STATEMENT_TIMEOUT_MS: number;
  LOCK_TIMEOUT_MS: number;
  IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
}

/**
 * The pool a web or worker process serves with: DB_POOL_MAX connections, each bounded, so that one slow statement,
 * lock wait or abandoned transaction cannot hold a connection for long (docs/decisions.md#46). Migrations run on
 * connections of their own without these limits (migrateLatest); the CLI's and the backups' have none.
 */
export function createAppKnex(connectionString: string, env: AppPoolSettings): Knex {
  return createKnex(
    connectionString,
    { min: 0, max: env.DB_POOL_MAX },
    {
      statementTimeoutMs: env.STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: env.LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: env.IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
  );
}

/**
 * Runs `work` on a Knex of the same database whose connections have no session limits: a migration may rightly
 * run long. `db` itself when it has none (the CLI's); else a small pool of its own, closed afterwards.
 */
async function withoutLimits<T>(db: Knex, work: (unlimited: Knex) => Promise<T>): Promise<T> {
  const connection = db.client.config.connection as string | pg.ClientConfig;
  if (typeof connection === "string" || !connection.connectionString) return work(db);
  const unlimited = createKnex(connection.connectionString, { min: 0, max: 2 });
  try {
    return await work(unlimited);
  } finally {
    await unlimited.destroy();
  }
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
    // Waiting for another migrator may take as long as its migrations: none of the app's limits here.
    await lock.query("set statement_timeout = 0; set lock_timeout = 0; set idle_in_transaction_session_timeout = 0");
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
 * Expand, then contract (docs/operations.md, "Upgrade and rollback"): a release's migrations only add, so the
 * previous image still runs on the migrated schema, and a removal waits until no supported image reads what it
 * removes. Such a contract migration exports `oldestReader`, the name of a migration: only code that has that
 * migration reads the schema after it. An older image has never seen the newer file, so migrateLatest records
 * the marker in the database, in this table, before Knex applies anything.
 */
export const SCHEMA_COMPAT_TABLE = "schema_compat";

export interface SchemaComparison {
  /** Applied migrations this code does not have: a newer release's. */
  unknown: string[];
  /** This code's migrations the database has not applied yet. */
  pending: string[];
  /** Applied contract migrations whose oldest reader this code lacks: `<migration> needs <oldest reader>`. */
  blocking: { migration: string; oldestReader: string }[];
}

/** The oldest reader each contract migration recorded, by migration name (none before the first record). */
async function recordedReaders(db: Knex): Promise<Map<string, string>> {
  const { rows } = await db.raw("select to_regclass(?) is not null as present", [SCHEMA_COMPAT_TABLE]);
  if (!rows[0].present) return new Map();
  const recorded = (await db(SCHEMA_COMPAT_TABLE).select("migration", "oldest_reader")) as {
    migration: string;
    oldest_reader: string;
  }[];
  return new Map(recorded.map((r) => [r.migration, r.oldest_reader]));
}

/** This code's migrations against the database's. */
export async function compareSchema(
  db: Knex,
  source: Knex.MigrationSource<unknown> = new FolderMigrationSource(),
): Promise<SchemaComparison & { known: string[]; applied: string[] }> {
  const known = (await source.getMigrations([])).map((m) => source.getMigrationName(m));
  const applied = await appliedMigrations(db);
  const knownLabels = new Set(known.map(migrationLabel));
  const appliedLabels = new Set(applied.map(migrationLabel));
  const unknown = applied.filter((name) => !knownLabels.has(migrationLabel(name)));
  const readers = unknown.length ? await recordedReaders(db) : new Map<string, string>();
  const blocking = unknown.flatMap((name) => {
    const oldestReader = readers.get(migrationLabel(name));
    return oldestReader && !knownLabels.has(oldestReader) ? [{ migration: migrationLabel(name), oldestReader }] : [];
  });
  return {
    known,
    applied,
    unknown,
    pending: known.filter((name) => !appliedLabels.has(migrationLabel(name))),
    blocking,
  };
}

/** Whether this code can serve on the database: nothing pending, and nothing newer that drops what it reads. */
export function schemaFits({ pending, blocking }: SchemaComparison): boolean {
  return pending.length === 0 && blocking.length === 0;
}

export interface SchemaCheckOptions {
  /** Where the one-line warning about an additive newer schema goes (default: stderr, `haven: …`). */
  warn?: (line: string) => void;
  /** `haven db rollback`: Knex cannot undo migrations this code does not have, additive or not. */
  strict?: boolean;
}

/**
 * Refuses, in one line, a database this code cannot run on: a newer release applied a contract migration whose
 * oldest reader this code lacks, so something it reads is gone. Newer migrations that only add are accepted with
 * a one-line warning: that is the previous image started after an upgrade (a rollback). Knex alone would call
 * the folder "corrupt".
 */
export async function refuseNewerSchema(
  db: Knex,
  source: Knex.MigrationSource<unknown> = new FolderMigrationSource(),
  options: SchemaCheckOptions = {},
): Promise<SchemaComparison> {
  const comparison = await compareSchema(db, source);
  const { known, applied, unknown, pending, blocking } = comparison;
  if (!unknown.length) return comparison;
  const newest = (names: string[]) => (names.length ? migrationLabel([...names].sort().at(-1)!) : "none");
  const where = `database at ${newest(applied)}, this image knows up to ${newest(known)}`;
  const [first] = blocking;
  if (first) {
    throw new SchemaTooNewError(
      `the database schema is newer than this version of Haven and drops what it reads (${where}; ${first.migration} needs ${first.oldestReader}): run an image that has ${first.oldestReader} or a newer one; never haven db rollback`,
    );
  }
  if (options.strict)
    throw new SchemaTooNewError(
      `the database schema is newer than this version of Haven (${where}): only the image that applied its migrations can roll them back`,
    );
  // Knex cannot apply ours after theirs without calling the folder corrupt: histories that diverged.
  if (pending.length)
    throw new SchemaTooNewError(
      `the database schema has migrations this version of Haven does not have and lacks ${newest(pending)} (${where}): run the image that migrated it`,
    );
  const warn = options.warn ?? ((line: string) => console.warn(`haven: ${line}`));
  warn(
    `the database schema is newer than this version of Haven (${where}); its newer migrations only add, so this version runs on it`,
  );
  return comparison;
}

/**
 * Stores every known contract migration's `oldestReader` (expand, then contract), before Knex applies it: a
 * marker for a migration not applied yet, or undone, is never read. A marker that names no migration up to
 * this one would let the wrong images run, so it stops the migration.
 */
async function recordOldestReaders(db: Knex, source: Knex.MigrationSource<unknown>): Promise<void> {
  const names = (await source.getMigrations([])).map((m) => ({ m, name: migrationLabel(source.getMigrationName(m)) }));
  const earlier = new Set<string>();
  const rows: { migration: string; oldest_reader: string }[] = [];
  for (const { m, name } of names) {
    const { oldestReader } = (await source.getMigration(m)) as Knex.Migration & { oldestReader?: unknown };
    if (oldestReader !== undefined) {
      const reader = typeof oldestReader === "string" ? migrationLabel(oldestReader) : "";
      // Its own name: no older image runs on the schema after it.
      if (!earlier.has(reader) && reader !== name)
        throw new Error(
          `migration ${name}: oldestReader must name this or an earlier migration, not ${JSON.stringify(oldestReader)}`,
        );
      rows.push({ migration: name, oldest_reader: reader });
    }
    earlier.add(name);
  }
  await db.raw(
    `create table if not exists ${SCHEMA_COMPAT_TABLE} (migration text primary key, oldest_reader text not null)`,
  );
  if (rows.length) await db(SCHEMA_COMPAT_TABLE).insert(rows).onConflict("migration").merge();
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
export async function migrateLatest(
  db: Knex,
  options: { migrationSource?: Knex.MigrationSource<unknown>; warn?: (line: string) => void } = {},
): Promise<string[]> {
  return withMigrationLock(db, async () => {
    const source = options.migrationSource ?? new FolderMigrationSource();
    const { unknown } = await refuseNewerSchema(db, source, { warn: options.warn });
    // The previous image after an upgrade: ours are applied, and the newer release's only add.
    if (unknown.length) return [];
    await recordOldestReaders(db, source);
    await freeKnexMigrationLock(db);
    // A migration may rewrite a large table or wait for a lock: the app's statement and lock limits would stop it.
    const [, applied] = await withoutLimits(db, (unlimited) =>
      unlimited.migrate.latest(options.migrationSource ? { migrationSource: options.migrationSource } : undefined),
    );
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
