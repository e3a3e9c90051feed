// docs/operations.md, "Backups": `haven db backup` / `haven db restore` on the embedded Postgres (17), which ships no
// pg_dump (Debian's is 15 and refuses a newer server). The backup is a base backup through the server's
// low-level API with the WAL written meanwhile; restored into a new, empty data folder it replays to the rows
// the cluster held when the backup was taken, and refuses a folder that already holds a cluster.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedServer, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { freePort } from "../support/ports.js";
import { createKnex, migrateLatest } from "../../src/db/knex.js";
import { readBackup } from "../../src/ops/backup.js";
import { runHaven } from "../support/cli.js";
import { type Figures, figuresOf } from "./backup-figures.js";

let dir: string;
let livePort: number;
let restoredPort: number;
let live: EmbeddedServer;
const servers: EmbeddedServer[] = [];

const liveEnv = () => ({ DATABASE_URL: "", DATA_DIR: path.join(dir, "live"), EMBEDDED_PG_PORT: String(livePort) });
const restoredEnv = () => ({
  DATABASE_URL: "",
  DATA_DIR: path.join(dir, "restored"),
  EMBEDDED_PG_PORT: String(restoredPort),
});
/** The real bin against the embedded cluster of `env` (runHaven's URL is cleared by DATABASE_URL=""). */
const haven = (args: string[], env: Record<string, string>) => runHaven("", args, { env });

describe("haven db backup and restore on the embedded Postgres", { timeout: 300_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "haven-base-backup-"));
    // As root the server runs as 'postgres', which must enter these folders.
    chmodSync(dir, 0o755);
    livePort = await freePort();
    restoredPort = await freePort();
    live = await startEmbeddedPostgres({
      dir: path.join(dir, "live", "postgres"),
      port: livePort,
      database: "haven",
      durable: false,
    });
    servers.push(live);
    for (const args of [
      ["db", "migrate"],
      ["db", "seed"],
      ["demo", "seed", "--properties", "25"],
    ]) {
      const r = await haven(args, liveEnv());
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
    }
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await server.stop().catch(() => undefined);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("a base backup restored into a new data folder holds the rows of the moment it was taken", async () => {
    const before: Figures = await figuresOf(live.url);
    expect(before.counts["public.properties"]).toBe(25);
    expect(before.counts["public.payments"]).toBeGreaterThan(0);

    // Retention: two older backups sit in the folder; --keep 2 leaves the newest two.
    const backups = path.join(dir, "backups");
    mkdirSync(backups);
    for (const old of ["haven-20200101T000000Z.dump", "haven-20200102T000000Z.base.tar.gz"])
      writeFileSync(path.join(backups, old), "old");
    const backup = await haven(["db", "backup", "--dir", backups, "--keep", "2", "--json"], liveEnv());
    expect(backup.code, backup.stderr).toBe(0);
    const result = JSON.parse(backup.stdout);
    expect(result.method).toBe("base");
    expect(path.basename(result.file)).toMatch(/^haven-\d{8}T\d{6}Z\.base\.tar\.gz$/);
    expect(result.deleted).toEqual(["haven-20200101T000000Z.dump"]);
    expect(readdirSync(backups).sort()).toEqual(
      ["haven-20200102T000000Z.base.tar.gz", path.basename(result.file), `${path.basename(result.file)}.sha256`].sort(),
    );
    // Read back whole: the checksum written beside it, and the whole tar with what a restore needs.
    const reading = await readBackup(result.file);
    expect(reading.problem).toBeNull();
    expect(reading.read).toEqual(["checksum matches", expect.stringMatching(/^tar: \d+ entries$/)]);

    // Cut short, without its checksum: restore says so and leaves no folder behind.
    const cut = path.join(dir, "cut.base.tar.gz");
    copyFileSync(result.file, cut);
    truncateSync(cut, Math.floor(statSync(cut).size / 2));
    const refused = await haven(["db", "restore", cut, "--yes"], restoredEnv());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `haven: ${cut} is truncated or corrupt (it ends before its compressed data does (unexpected end of file)): nothing was restored\n`,
    );
    expect(existsSync(path.join(dir, "restored", "postgres"))).toBe(false);

    // Written after the backup: not in it.
    const db = createKnex(live.url, { min: 0, max: 1 });
    await db("customers").insert({ name: "After Backup", email: "after.backup@example.org" });
    await db.destroy();

    // No terminal and no --yes: nothing happens.
    const unconfirmed = await haven(["db", "restore", result.file], restoredEnv());
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain("Add --yes to confirm");
    expect(existsSync(path.join(dir, "restored", "postgres"))).toBe(false);

    const restore = await haven(["db", "restore", result.file, "--yes"], restoredEnv());
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain("Restored the base backup");

    const restored = await startEmbeddedPostgres({
      dir: path.join(dir, "restored", "postgres"),
      port: restoredPort,
      database: "haven",
    });
    servers.push(restored);
    const after = await figuresOf(restored.url);
    expect(after.counts).toEqual(before.counts);
    expect(after.checksums).toEqual(before.checksums);
    const check = createKnex(restored.url, { min: 0, max: 1 });
    expect(await check("customers").where({ email: "after.backup@example.org" }).first()).toBeUndefined();
    // Haven's migrations find nothing to do on it.
    expect(await migrateLatest(check)).toEqual([]);
    await check.destroy();
    await restored.stop();

    // A folder that holds a cluster is never overwritten.
    const again = await haven(["db", "restore", result.file, "--yes"], restoredEnv());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("holds a PostgreSQL cluster");
    expect(again.stderr).not.toMatch(/\n\s+at /);
  });
});
