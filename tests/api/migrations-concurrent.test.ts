// Migrations run once, safely: migrators take turns on a Postgres advisory lock that dies
// with its connection, so processes starting together all come up, a killed migrator leaves nothing that
// blocks the next start, and an image older than the schema refuses in one line.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { freePort } from "../support/ports.js";
import { MIGRATION_LOCK_KEY, createKnex } from "../../src/db/knex.js";
import { MIGRATIONS_DIR } from "../../src/db/migration-source.js";
import { runHaven, runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type HavenProcess, killAll, spawnHaven, until, waitUntilServing } from "../support/processes.js";
import { adminQuery } from "../support/provision.js";

const { adminUrl } = inject("testDb");
const processes: HavenProcess[] = [];
const databases: string[] = [];
const knexes: Knex[] = [];
const tmpDirs: string[] = [];

afterAll(async () => {
  await killAll(processes);
  await Promise.all(knexes.map((db) => db.destroy()));
  // `with (force)` also ends the killed migrator's orphaned pg_sleep.
  for (const name of databases)
    await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => undefined);
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

const PROJECT_MIGRATIONS = readdirSync(MIGRATIONS_DIR)
  .filter((file) => /^\d{14}_[\w-]+\.ts$/.test(file))
  .sort();

/** A new database with nothing in it, not even Knex's tables. */
async function emptyDatabase(): Promise<{ name: string; url: string; db: Knex }> {
  const name = `haven_mig_${randomBytes(4).toString("hex")}`;
  await adminQuery(adminUrl, `create database "${name}"`);
  databases.push(name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createKnex(url.toString(), { min: 0, max: 2 });
  knexes.push(db);
  return { name, url: url.toString(), db };
}

async function startWeb(name: string, databaseUrl: string, env: Record<string, string> = {}): Promise<HavenProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-mig-data-"));
  tmpDirs.push(dataDir);
  const proc = spawnHaven(name, "src/server.ts", {
    NODE_ENV: "test",
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    WORKER_MODE: "separate",
    LOG_LEVEL: "warn",
    ...env,
  });
  processes.push(proc);
  return proc;
}

const appliedNames = async (db: Knex) => (await db("knex_migrations").orderBy("id").pluck("name")) as string[];
const knexLockSet = async (db: Knex) => (await db("knex_migrations_lock").first("is_locked"))?.is_locked === 1;
const advisoryHolders = async (db: Knex) =>
  (
    await db.raw(
      "select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database()) and ((classid::bigint << 32) | objid::bigint) = ?::bigint and objsubid = 1",
      [MIGRATION_LOCK_KEY],
    )
  ).rows.map((row: { pid: number }) => row.pid);

describe("migrations on start", () => {
  it("let three web processes started at once on an empty database all come up, migrating once", async () => {
    const { url, db } = await emptyDatabase();
    const webs = await Promise.all([1, 2, 3].map((n) => startWeb(`web-${n}`, url)));
    await Promise.all(webs.map((web) => waitUntilServing(web, 90_000)));
    expect(await appliedNames(db)).toEqual(PROJECT_MIGRATIONS);
    expect(await db("plans").count({ n: "*" })).toEqual([{ n: 3 }]);
    expect(await knexLockSet(db)).toBe(false);
    expect(await advisoryHolders(db)).toEqual([]);
  }, 120_000);

  it("recover from a migrator killed with SIGKILL mid-migration: the next start succeeds", async () => {
    const { name, url, db } = await emptyDatabase();
    // A migration that runs until it is killed. Outside a transaction, as the project's job-queue
    // migration is, so Knex's own lock row is committed as set while it runs.
    const dir = mkdtempSync(path.join(os.tmpdir(), "haven-slow-migration-"));
    tmpDirs.push(dir);
    writeFileSync(
      path.join(dir, "20000101000000_slow.ts"),
      'export const config = { transaction: false };\nexport async function up(knex) { await knex.raw("select pg_sleep(300)"); }\nexport async function down() {}\n',
    );
    const migrator = spawnHaven("slow migrator", "tests/support/migrate-folder.ts", {
      DATABASE_URL: url,
      MIGRATIONS_DIR: dir,
    });
    processes.push(migrator);
    await until(
      "the slow migration to run",
      async () => {
        if (migrator.exited()) throw new Error(`the migrator exited:\n${migrator.output()}`);
        const { rows } = await db.raw(
          "select count(*)::int as n from pg_stat_activity where datname = ? and state = 'active' and query like 'select pg_sleep%'",
          [name],
        );
        return rows[0].n === 1;
      },
      60_000,
    );
    expect(await knexLockSet(db)).toBe(true);
    expect(await advisoryHolders(db)).toHaveLength(1);

    expect(await migrator.signal("SIGKILL")).toEqual({ code: null, signal: "SIGKILL" });
    // Its advisory lock went with its connection; Knex's lock row stays set, as an older Haven's would.
    await until("the killed migrator's lock to go", async () => (await advisoryHolders(db)).length === 0, 30_000);
    expect(await knexLockSet(db)).toBe(true);

    const web = await startWeb("fresh start", url);
    await waitUntilServing(web, 90_000);
    expect(await appliedNames(db)).toEqual(PROJECT_MIGRATIONS);
    expect(await knexLockSet(db)).toBe(false);
  }, 150_000);
});

describe("a database newer than this code", () => {
  let ctx: TestContext;
  const FUTURE = "20991231000000_from_the_future";
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.db("knex_migrations").insert({ name: `${FUTURE}.ts`, batch: 99, migration_time: new Date() });
    // A contract migration that no older code reads past (expand, then contract: docs/operations.md).
    await ctx.db("schema_compat").insert({ migration: FUTURE, oldest_reader: FUTURE });
  });
  afterAll(() => ctx.close());

  const expected = `the database schema is newer than this version of Haven and drops what it reads (database at ${FUTURE}, this image knows up to ${PROJECT_MIGRATIONS.at(-1)!.replace(/\.ts$/, "")}; ${FUTURE} needs ${FUTURE}): run an image that has ${FUTURE} or a newer one; never haven db rollback`;

  /** The process's output holds that one line, prefixed `haven: `, and no stack or "corrupt". */
  const expectRefusal = (output: string) => {
    expect(output.split("\n").filter((line) => line.startsWith("haven:"))).toEqual([`haven: ${expected}`]);
    expect(output).not.toMatch(/corrupt|\n\s+at /);
  };

  it("is refused in one line by the web process, the worker and the CLI", async () => {
    const web = await startWeb("old web", ctx.url);
    const worker = spawnHaven("old worker", "src/worker.ts", {
      NODE_ENV: "test",
      DATABASE_URL: ctx.url,
      LOG_LEVEL: "warn",
      WORKER_PORT: "",
    });
    processes.push(worker);
    const [migrate, rollback] = await Promise.all([
      runHaven(ctx.url, ["db", "migrate"]),
      runHaven(ctx.url, ["db", "rollback"]),
    ]);
    for (const proc of [web, worker]) {
      expect(await proc.exit, proc.output()).toEqual({ code: 1, signal: null });
      expectRefusal(proc.output());
    }
    for (const result of [migrate, rollback]) {
      expect(result.code, result.stderr).toBe(1);
      expectRefusal(result.stdout + result.stderr);
    }
    // Nothing was changed.
    expect((await appliedNames(ctx.db)).at(-1)).toBe(`${FUTURE}.ts`);
  }, 90_000);
});

// The program in this process (tests/support/cli.ts): these commands start nothing, and what they judge is
// Postgres' locks, which a client of this process holds as well as any.
describe("haven db unlock", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("frees the Knex lock an older version's killed migrator left, and says when it was already free", async () => {
    await ctx.db("knex_migrations_lock").update({ is_locked: 1 });
    const freed = await runHavenHere(ctx.url, ["db", "unlock"]);
    expect(freed).toMatchObject({ code: 0, stdout: "Migration lock freed.\n" });
    expect(await knexLockSet(ctx.db)).toBe(false);
    const again = await runHavenHere(ctx.url, ["db", "unlock"]);
    expect(again).toMatchObject({ code: 0, stdout: "The migration lock was already free.\n" });
  });

  it("leaves a running migrator alone and names its Postgres process", async () => {
    const holder = new pg.Client({ connectionString: ctx.url });
    await holder.connect();
    try {
      const { rows } = await holder.query("select pg_backend_pid() as pid, pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await ctx.db("knex_migrations_lock").update({ is_locked: 1 });
      const busy = await runHavenHere(ctx.url, ["db", "unlock"]);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toBe(
        `haven: a migration is running now (Postgres process ${rows[0].pid}); its lock goes when it ends or its connection closes\n`,
      );
      expect(await knexLockSet(ctx.db)).toBe(true);
    } finally {
      await holder.end();
    }
    // Once that migrator is gone, a migration frees the stale row by itself.
    const migrate = await runHavenHere(ctx.url, ["db", "migrate"]);
    expect(migrate).toMatchObject({ code: 0, stdout: "Already up to date.\n" });
    expect(await knexLockSet(ctx.db)).toBe(false);
  });
});
