// Backup and restore (docs/operations.md): pg_dump of a seeded database, restored with pg_restore
// into a new one, serves the same dashboard figures; and `haven db backup` / `haven db restore` do the same
// themselves (the embedded server's base backups: backup-embedded.test.ts). pg_dump must match the server's major
// version: Debian ships the version 15 client only, so this runs against a PostgreSQL 15 cluster of its own
// (.ci/run installs postgresql-15), started with initdb and pg_ctl in a temporary folder on a free port.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { Writable } from "node:stream";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Knex } from "knex";
import { parseCrontab, runOnce } from "graphile-worker";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../seeds/demo/index.js";
import { loadEnv } from "../../src/config/env.js";
import { createContainer } from "../../src/container.js";
import { freePort } from "../support/ports.js";
import { createKnex, migrateLatest } from "../../src/db/knex.js";
import { taskList } from "../../src/jobs.js";
import { BACKUP_TASK, backupCrontab, databaseContents, listBackups, readBackup } from "../../src/ops/backup.js";
import { workerLogger } from "../../src/worker-runner.js";
import { runHaven, runHavenHere } from "../support/cli.js";
import { figuresOf } from "./backup-figures.js";

const BIN = "/usr/lib/postgresql/15/bin";
const NOW = new Date("2026-10-15T15:00:00Z");

/** Why a PostgreSQL 15 server cannot run here, or null when it can. */
function unavailable(): string | null {
  for (const tool of ["initdb", "pg_ctl", "postgres", "pg_dump", "pg_restore"])
    if (!existsSync(path.join(BIN, tool))) return `${BIN}/${tool} is missing (apt-get install postgresql-15)`;
  if (process.getuid?.() === 0 && spawnSync("id", ["postgres"]).status !== 0)
    return "running as root and there is no 'postgres' user to run the server";
  return null;
}
const reason = unavailable();
if (reason) console.warn(`backup test skipped: ${reason}`);

let dir: string;
let port: number;
/** The archive `haven db backup` wrote, for the damaged copies. */
let dumpFile: string;
const dbs: Knex[] = [];

/** Runs a server tool; as root, as the 'postgres' user (initdb and postgres refuse root). */
const asServer = (tool: string, args: string[]) => {
  const command =
    process.getuid?.() === 0
      ? ["runuser", ["-u", "postgres", "--", path.join(BIN, tool), ...args]]
      : [path.join(BIN, tool), args];
  return execFileSync(command[0] as string, command[1] as string[], { stdio: "pipe", encoding: "utf8" });
};
const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

async function containerOn(database: string) {
  const url = urlOf(database);
  const db = createKnex(url, { min: 0, max: 4 });
  dbs.push(db);
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: path.join(dir, "data-dir"),
    DATABASE_URL: url,
  });
  return createContainer(env, url, db, { log: pino({ level: "silent" }) });
}

/** What the dashboard shows, and how many rows each table holds. */
async function figures(database: string) {
  const container = await containerOn(database);
  const { rows: tables } = await container.db.raw(
    "select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'graphile_worker') and table_type = 'BASE TABLE' order by 1",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables as { name: string }[])
    counts[name] = Number((await container.db.raw(`select count(*)::int as n from ${name}`)).rows[0].n);
  return { stats: await container.dashboard.stats(NOW), recent: await container.dashboard.recentInspections(), counts };
}

describe.skipIf(reason !== null)("backup and restore with pg_dump and pg_restore", () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "haven-backup-"));
    chmodSync(dir, 0o755);
    if (process.getuid?.() === 0)
      chownSync(
        dir,
        Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
        Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
      );
    port = await freePort();
    asServer("initdb", ["-D", path.join(dir, "pg"), "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C"]);
    asServer("pg_ctl", [
      "-D",
      path.join(dir, "pg"),
      "-w",
      "-l",
      path.join(dir, "pg.log"),
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      "start",
    ]);
    const admin = createKnex(urlOf("postgres"), { min: 0, max: 1 });
    dbs.push(admin);
    await admin.raw("create database haven_live");
    await admin.raw("create database haven_restored");
    await admin.raw("create database haven_cli_restored");
    await admin.raw("create database haven_damaged");
    const live = createKnex(urlOf("haven_live"), { min: 0, max: 2 });
    dbs.push(live);
    await migrateLatest(live);
    await seedDemo(await containerOn("haven_live"), { properties: 30, now: NOW });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(dbs.map((db) => db.destroy().catch(() => undefined)));
    if (dir && existsSync(path.join(dir, "pg"))) {
      try {
        asServer("pg_ctl", ["-D", path.join(dir, "pg"), "-m", "fast", "-w", "stop"]);
      } catch {
        // Already stopped.
      }
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a restored dump serves the same dashboard figures and holds the same rows", async () => {
    const before = await figures("haven_live");
    expect(before.stats.totalProperties).toBe(30);
    expect(before.stats.totalRevenue).toBeGreaterThan(0);
    expect(before.recent).toHaveLength(3);

    // The runbook's commands: a custom-format dump, restored into a new, empty database.
    const dump = path.join(dir, "haven.dump");
    execFileSync(path.join(BIN, "pg_dump"), ["--format=custom", "--no-owner", `--file=${dump}`, urlOf("haven_live")], {
      stdio: "pipe",
    });
    execFileSync(
      path.join(BIN, "pg_restore"),
      ["--no-owner", "--exit-on-error", `--dbname=${urlOf("haven_restored")}`, dump],
      { stdio: "pipe" },
    );

    const after = await figures("haven_restored");
    expect(after.stats).toEqual(before.stats);
    expect(after.recent).toEqual(before.recent);
    expect(after.counts).toEqual(before.counts);
    // The restored database is current: Haven's migrations find nothing to do.
    expect(await migrateLatest(dbs.at(-1)!)).toEqual([]);
  }, 240_000);

  it("haven db backup writes a pg_dump archive; haven db restore brings it back into an empty database only", async () => {
    const before = await figuresOf(urlOf("haven_live"));
    const backups = path.join(dir, "backups");
    const backup = await runHaven(urlOf("haven_live"), ["db", "backup", "--dir", backups, "--json"]);
    expect(backup.code, backup.stderr).toBe(0);
    const result = JSON.parse(backup.stdout);
    dumpFile = result.file;
    expect(result.method).toBe("pg_dump");
    expect(result.detail).toContain("pg_dump 15");
    expect(path.basename(result.file)).toMatch(/^haven-\d{8}T\d{6}Z\.dump$/);
    // Its SHA-256 beside it, as sha256sum writes (and `sha256sum -c` checks) it.
    expect(readFileSync(`${result.file}.sha256`, "utf8")).toBe(
      `${createHash("sha256").update(readFileSync(result.file)).digest("hex")}  ${path.basename(result.file)}\n`,
    );
    const reading = await readBackup(result.file);
    expect(reading.problem).toBeNull();
    expect(reading.read).toEqual(["checksum matches", expect.stringMatching(/^pg_restore --list: \d+ entries$/)]);

    // The refusals run the same program in this process (tests/support/cli.ts); the bin ran the backup above.
    const refused = await runHavenHere(urlOf("haven_live"), ["db", "restore", result.file, "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the database haven_live is not empty");

    const restore = await runHaven(urlOf("haven_cli_restored"), ["db", "restore", result.file, "--yes"]);
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("pg_restore 15 into haven_cli_restored");
    const after = await figuresOf(urlOf("haven_cli_restored"));
    expect(after.counts).toEqual(before.counts);
    expect(after.checksums).toEqual(before.checksums);
    expect(before.counts["public.properties"]).toBe(30);
  }, 240_000);

  it("haven db restore refuses a truncated or cut .dump, says so, and restores nothing", async () => {
    expect(dumpFile).toBeTruthy();
    const cut = (name: string, bytes: number) => {
      const file = path.join(dir, name);
      copyFileSync(dumpFile, file);
      truncateSync(file, bytes);
      return file;
    };
    const size = statSync(dumpFile).size;
    // With the checksum written beside it when it was made: refused before pg_restore runs.
    const withSum = cut("haven-20261015T150000Z.dump", Math.floor(size / 2));
    copyFileSync(`${dumpFile}.sha256`, `${withSum}.sha256`);
    // Without one: pg_restore meets the end of the file, in the data or, when half the dump is less than its table of
    // contents (a small database), already while listing it.
    const bare = cut("cut-in-half.dump", Math.floor(size / 2));
    const said: string[] = [];
    for (const file of [withSum, bare]) {
      const r = await runHavenHere(urlOf("haven_damaged"), ["db", "restore", file, "--yes"]);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(`^haven: ${file.replace(/[.]/g, "\\.")} is truncated or corrupt \\(.+\\): nothing was restored\n$`),
      );
      said.push(r.stderr);
      expect((await databaseContents(urlOf("haven_damaged"))).objects).toBe(0);
    }
    expect(said[0]).toContain("its SHA-256 is not the one written beside it");
    expect(said[1]).toMatch(/could not read from input file: end of file\): nothing was restored/);
    // Two bytes: not even the archive's header (what restore and doctor read first).
    const tiny = path.join(dir, "haven-20261016T150000Z.dump");
    writeFileSync(tiny, "PG");
    expect((await readBackup(tiny)).problem).toBe("it does not begin as a pg_dump custom archive does (2 bytes)");
  }, 240_000);

  it("the worker's daily db:backup job writes into BACKUP_DIR and keeps BACKUP_KEEP", async () => {
    expect(backupCrontab({})).toEqual([]);
    const [line] = backupCrontab({ BACKUP_DIR: "/backups" });
    expect(parseCrontab(line!)[0]).toMatchObject({ task: BACKUP_TASK, options: { backfillPeriod: 86_400_000 } });

    const jobDir = path.join(dir, "job-backups");
    // Where nothing can be written: a folder path under a plain file.
    const blocked = path.join(dir, "not-a-folder");
    writeFileSync(blocked, "");
    // The lines as the worker's pino writes them at LOG_LEVEL=info, through worker-runner.ts's logger.
    const lines: { level: number; msg: string; worker?: { backup?: Record<string, unknown> } }[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = workerLogger(pino({ level: "info" }, sink));
    const saved = { dir: process.env.BACKUP_DIR, keep: process.env.BACKUP_KEEP };
    Object.assign(process.env, { BACKUP_DIR: jobDir, BACKUP_KEEP: "1" });
    try {
      const container = await containerOn("haven_live");
      const tasks = taskList(container);
      for (let run = 0; run < 2; run++) {
        await container.db.raw("select graphile_worker.add_job(?)", [BACKUP_TASK]);
        await runOnce({ connectionString: urlOf("haven_live"), taskList: tasks, logger });
        // Names are stamped to the second: the second run must not reuse the first one's.
        await new Promise((resolve) => setTimeout(resolve, 1100));
      }
      const failed = await container.db.raw(
        "select count(*)::int as n from graphile_worker.jobs where task_identifier = ?",
        [BACKUP_TASK],
      );
      expect(failed.rows[0].n).toBe(0);

      process.env.BACKUP_DIR = path.join(blocked, "backups");
      await container.db.raw("select graphile_worker.add_job(?)", [BACKUP_TASK]);
      await runOnce({ connectionString: urlOf("haven_live"), taskList: taskList(container), logger });
      await container.db.raw(
        "delete from graphile_worker._private_jobs where task_id in (select id from graphile_worker._private_tasks where identifier = ?)",
        [BACKUP_TASK],
      );
    } finally {
      for (const [key, value] of [
        ["BACKUP_DIR", saved.dir],
        ["BACKUP_KEEP", saved.keep],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    const kept = listBackups(jobDir);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ method: "pg_dump" });
    expect(kept[0]!.bytes).toBeGreaterThan(10_000);

    // Each backup is an info line with its file, size and time taken; the failure an error line.
    const INFO = 30;
    const ERROR = 50;
    const made = lines.filter((l) => l.msg.startsWith("database backup: "));
    expect(made).toHaveLength(2);
    for (const l of made) {
      expect(l.level).toBe(INFO);
      expect(l.msg).toMatch(
        new RegExp(
          `^database backup: ${jobDir}/haven-\\d{8}T\\d{6}Z\\.dump, \\d+\\.\\d MB, \\d+(\\.\\d)? s \\(pg_dump 15`,
        ),
      );
      expect(l.worker?.backup).toMatchObject({ bytes: expect.any(Number), seconds: expect.any(Number) });
    }
    expect(made[1]!.msg).toContain(`; deleted ${path.basename(String(made[0]!.worker!.backup!.file))}`);
    const failure = lines.filter((l) => l.msg.startsWith("database backup failed"));
    expect(failure).toHaveLength(1);
    expect(failure[0]!.level).toBe(ERROR);
    expect(failure[0]!.msg).toMatch(
      /^database backup failed after \d+(\.\d)? s \(into .*not-a-folder\/backups\): .*ENOTDIR/,
    );
  }, 240_000);
});
