import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { freePort } from "../support/ports.js";
import { SchemaTooNewError, migrateLatest, refuseNewerSchema } from "../../src/db/knex.js";
import { FolderMigrationSource } from "../../src/db/migration-source.js";
import { type HavenProcess, killAll, spawnHaven, waitUntilServing } from "../support/processes.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const tables = async () =>
  (
    await ctx.db.raw(
      "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public','graphile_worker') order by 1",
    )
  ).rows.map((r: { name: string }) => r.name);

describe("migrations", () => {
  it("go all the way down and up again", async () => {
    const before = await tables();
    expect(before).toEqual(expect.arrayContaining(["public.plans", "public.staff_users"]));
    expect(before.some((t: string) => t.startsWith("graphile_worker."))).toBe(true);

    await ctx.db.migrate.rollback(undefined, true);
    const down = await tables();
    // Knex's bookkeeping and the oldest-reader markers (docs/operations.md, "Upgrade and rollback") stay.
    expect(down.filter((t: string) => !t.startsWith("public.knex_migrations") && t !== "public.schema_compat")).toEqual(
      [],
    );

    await ctx.db.migrate.latest();
    expect(await tables()).toEqual(before);
  });

  it("leave the job queue usable inside a transaction", async () => {
    await ctx.db.transaction(async (trx) => {
      await trx.raw("select graphile_worker.add_job('test.noop', json_build_object('n', 1))");
    });
    const { rows } = await ctx.db.raw(
      "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'test.noop'",
    );
    expect(rows[0].n).toBe(1);
  });
});

// Expand, then contract (docs/operations.md, "Upgrade and rollback"): the previous release's image runs on this
// release's schema; a contract migration names the oldest code that still reads the schema after it.
describe("expand, then contract", () => {
  const folder = new FolderMigrationSource();
  let THIS: string[];
  const label = (name: string) => name.replace(/\.ts$/, "");
  type Module = Knex.Migration & { oldestReader?: string };

  /** A release: some of this code's migrations, and migrations of a later release held in memory. */
  class Release implements Knex.MigrationSource<string> {
    constructor(
      private readonly names: string[],
      private readonly later: Record<string, Module> = {},
    ) {}
    async getMigrations() {
      return [...this.names, ...Object.keys(this.later)].sort();
    }
    getMigrationName(migration: string) {
      return migration;
    }
    async getMigration(migration: string): Promise<Knex.Migration> {
      return this.later[migration] ?? folder.getMigration(migration);
    }
  }
  /** The previous release: this code without its newest migration (which only adds a column). */
  const previous = () => new Release(THIS.slice(0, -1));
  const applied = async (db: Knex) => (await db("knex_migrations").orderBy("id").pluck("name")) as string[];

  beforeAll(async () => {
    THIS = await folder.getMigrations();
  });

  it("the previous release runs on this release's schema: newer migrations that only add get a warning, not a refusal", async () => {
    const warnings: string[] = [];
    const warn = (line: string) => warnings.push(line);
    expect(await refuseNewerSchema(ctx.db, previous(), { warn })).toMatchObject({
      unknown: [THIS.at(-1)],
      pending: [],
      blocking: [],
    });
    // Its web process migrates on start: nothing to apply, nothing refused.
    expect(await migrateLatest(ctx.db, { migrationSource: previous(), warn })).toEqual([]);
    const line = `the database schema is newer than this version of Haven (database at ${label(THIS.at(-1)!)}, this image knows up to ${label(THIS.at(-2)!)}); its newer migrations only add, so this version runs on it`;
    expect(warnings).toEqual([line, line]);
    // Its `haven db rollback` cannot undo a migration it does not have.
    await expect(refuseNewerSchema(ctx.db, previous(), { strict: true })).rejects.toThrow(
      new SchemaTooNewError(
        `the database schema is newer than this version of Haven (database at ${label(THIS.at(-1)!)}, this image knows up to ${label(THIS.at(-2)!)}): only the image that applied its migrations can roll them back`,
      ),
    );
    expect(await applied(ctx.db)).toEqual(THIS);
  });

  describe("a later release with a contract migration", () => {
    let later: TestContext;
    const EXPAND = "20991230000000_next_expand.ts";
    const CONTRACT = "20991231000000_next_contract.ts";
    // The next release adds a column; the one after drops it, readable by code that has this release's newest.
    const next = () =>
      new Release(THIS, {
        [EXPAND]: {
          up: (knex) => knex.raw("alter table plans add column next_note text"),
          down: (knex) => knex.raw("alter table plans drop column next_note"),
        },
        [CONTRACT]: {
          oldestReader: label(THIS.at(-1)!),
          up: (knex) => knex.raw("alter table plans drop column next_note"),
          down: (knex) => knex.raw("alter table plans add column next_note text"),
        },
      } as Record<string, Module>);
    beforeAll(async () => {
      later = await createTestContext();
    });
    afterAll(() => later.close());

    it("names its oldest reader: that code runs with a warning, older code is refused in one line that says to run a newer image", async () => {
      expect(await migrateLatest(later.db, { migrationSource: next() })).toEqual([EXPAND, CONTRACT]);
      expect(await later.db("schema_compat").select("migration", "oldest_reader")).toEqual([
        { migration: label(CONTRACT), oldest_reader: label(THIS.at(-1)!) },
      ]);

      // This release has the oldest reader: it runs, and is ready.
      const warnings: string[] = [];
      expect(await refuseNewerSchema(later.db, folder, { warn: (line) => warnings.push(line) })).toMatchObject({
        unknown: [EXPAND, CONTRACT],
        blocking: [],
      });
      expect(warnings).toHaveLength(1);
      expect((await supertest(createApp(later.container)).get("/readyz").expect(200)).body.migrations).toBe("current");

      // The previous release does not: web, worker and CLI are refused, and told to run a newer image.
      const refusal = new SchemaTooNewError(
        `the database schema is newer than this version of Haven and drops what it reads (database at ${label(CONTRACT)}, this image knows up to ${label(THIS.at(-2)!)}; ${label(CONTRACT)} needs ${label(THIS.at(-1)!)}): run an image that has ${label(THIS.at(-1)!)} or a newer one; never haven db rollback`,
      );
      await expect(refuseNewerSchema(later.db, previous())).rejects.toThrow(refusal);
      await expect(migrateLatest(later.db, { migrationSource: previous() })).rejects.toThrow(refusal);
      await expect(refuseNewerSchema(later.db, previous(), { strict: true })).rejects.toThrow(refusal);
      expect(await applied(later.db)).toEqual([...THIS, EXPAND, CONTRACT]);
    });

    it("/readyz turns 503 under a contract migration whose oldest reader this code lacks", async () => {
      await later
        .db("schema_compat")
        .where({ migration: label(CONTRACT) })
        .update({ oldest_reader: label(CONTRACT) });
      try {
        const res = await supertest(createApp(later.container)).get("/readyz").expect(503);
        expect(res.body).toMatchObject({ database: "up", migrations: "pending" });
      } finally {
        await later
          .db("schema_compat")
          .where({ migration: label(CONTRACT) })
          .update({ oldest_reader: label(THIS.at(-1)!) });
      }
    });

    it("a marker outlives its migration harmlessly: once undone, the previous release runs again", async () => {
      await later.db.migrate.rollback({ migrationSource: next() });
      expect(await applied(later.db)).toEqual(THIS);
      expect(await refuseNewerSchema(later.db, previous(), { warn: () => undefined })).toMatchObject({
        unknown: [THIS.at(-1)],
        blocking: [],
      });
    });

    it("an oldest reader that names no migration up to its own stops the migration before it runs", async () => {
      const wrong = new Release(THIS, {
        [CONTRACT]: {
          oldestReader: "20991232000000_not_yet",
          up: (knex) => knex.raw("drop table plans cascade"),
          down: async () => undefined,
        },
      } as Record<string, Module>);
      await expect(migrateLatest(later.db, { migrationSource: wrong })).rejects.toThrow(
        `migration ${label(CONTRACT)}: oldestReader must name this or an earlier migration, not "20991232000000_not_yet"`,
      );
      expect(await applied(later.db)).toEqual(THIS);
      expect(await later.db.schema.hasTable("plans")).toBe(true);
    });
  });

  describe("a real web process of the previous release", () => {
    let older: TestContext;
    const processes: HavenProcess[] = [];
    let dataDir: string;
    beforeAll(async () => {
      older = await createTestContext();
      // The database is one release ahead of this code: this code plays the previous release.
      await older
        .db("knex_migrations")
        .insert({ name: "20991230000000_next_expand.ts", batch: 99, migration_time: new Date() });
      dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-expand-"));
    });
    afterAll(async () => {
      await killAll(processes);
      await older.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("starts, migrates nothing, serves /readyz 200 and says why in one line", async () => {
      const port = await freePort();
      const web = spawnHaven("previous web", "src/server.ts", {
        NODE_ENV: "test",
        DATABASE_URL: older.url,
        PORT: String(port),
        HOST: "127.0.0.1",
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATA_DIR: dataDir,
        WORKER_MODE: "separate",
        LOG_LEVEL: "warn",
      });
      processes.push(web);
      await waitUntilServing(web, 90_000);
      expect(web.output()).toContain(
        `haven: the database schema is newer than this version of Haven (database at 20991230000000_next_expand, this image knows up to ${label(THIS.at(-1)!)}); its newer migrations only add, so this version runs on it`,
      );
      expect(await applied(older.db)).toEqual([...THIS, "20991230000000_next_expand.ts"]);
    }, 120_000);
  });
});
