import { randomBytes } from "node:crypto";
import { createWriteStream, statSync } from "node:fs";
import { lstat, readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type pg from "pg";
import { type BackupResult, META, sealBackup, serverMajor, stamp } from "./backup.common.js";
import { readBackup } from "./backup.verify.js";
import { TarWriter } from "./tar.js";

// The base-backup method, through the server's low-level API, when its data directory is readable here.

/** The server's data directory when this process can read it and it is that server's (its system identifier). */
export async function readableDataDir(client: pg.Client): Promise<{ dir: string | null; why: string }> {
  let dir: string;
  let id: string;
  try {
    dir = (await client.query("select current_setting('data_directory') as dir")).rows[0].dir as string;
    id = String((await client.query("select system_identifier::text as id from pg_control_system()")).rows[0].id);
  } catch {
    return { dir: null, why: "the server does not tell its data directory to this user (it needs a superuser)" };
  }
  try {
    const control = await readFile(path.join(dir, "global", "pg_control"));
    // pg_control starts with the cluster's 64-bit system identifier (little-endian on the machines Haven runs on).
    if (control.readBigUInt64LE(0).toString() !== id)
      return { dir: null, why: `${dir} here is not that server's data directory` };
    return { dir, why: "" };
  } catch {
    return {
      dir: null,
      why: `its data directory (${dir}) cannot be read from here (another machine or container, or no permission)`,
    };
  }
}

/** Folders whose contents the server rebuilds at start (PostgreSQL's list of what a base backup may omit). */
const EMPTY_ON_RESTORE = new Set([
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
  "pg_replslot",
]);
const SKIPPED_FILES = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "pg_internal.init",
  "backup_label",
  "tablespace_map",
  "backup_label.old",
]);

const lsnValue = (lsn: string) => {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
};

export async function baseBackup(
  client: pg.Client,
  dataDir: string,
  dir: string,
  now: Date,
): Promise<Omit<BackupResult, "deleted">> {
  const major = await serverMajor(client);
  if (major < 15)
    throw new Error(
      `a base backup needs PostgreSQL 15 or newer (pg_backup_start); this server is ${major}: install its pg_dump`,
    );
  for (const link of await readdir(path.join(dataDir, "pg_tblspc")).catch(() => [])) {
    throw new Error(`the cluster has a tablespace outside its data directory (pg_tblspc/${link}): use pg_dump`);
  }
  const file = path.join(dir, `haven-${stamp(now)}.base.tar.gz`);
  const partial = `${file}.partial`;
  const segmentBytes = BigInt(
    (await client.query("select setting::bigint * 1 as b from pg_settings where name = 'wal_segment_size'")).rows[0].b,
  );
  const slot = `haven_backup_${process.pid}_${randomBytes(3).toString("hex")}`;
  // A temporary slot keeps every WAL segment from now until this connection ends (pg_basebackup does the same).
  await client.query("select pg_create_physical_replication_slot($1, true, true)", [slot]);
  await client.query("select pg_backup_start($1, true)", [`haven ${stamp(now)}`]);
  let stopped = false;
  const gzip = createGzip({ level: 6 });
  const out = createWriteStream(partial, { mode: 0o600 });
  const written = pipeline(gzip, out);
  const tar = new TarWriter(gzip);
  try {
    const meta = { format: "haven-base-backup", version: 1, serverMajor: major, takenAt: now.toISOString() };
    await tar.buffer(META, Buffer.from(`${JSON.stringify(meta, null, 2)}\n`));
    await copyTree(tar, dataDir, "");
    const { rows } = await client.query("select lsn::text as lsn, labelfile, spcmapfile from pg_backup_stop(false)");
    stopped = true;
    const stop = rows[0] as { lsn: string; labelfile: string; spcmapfile: string };
    // backup_label tells recovery where to start; byte for byte as pg_backup_stop gave it.
    await tar.buffer("backup_label", Buffer.from(stop.labelfile, "utf8"));
    if (stop.spcmapfile) await tar.buffer("tablespace_map", Buffer.from(stop.spcmapfile, "utf8"));
    const start = /START WAL LOCATION: ([0-9A-F]+\/[0-9A-F]+) \(file ([0-9A-F]{24})\)/.exec(stop.labelfile);
    if (!start) throw new Error("pg_backup_stop's backup label has no start WAL location");
    const timeline = (start[2] as string).slice(0, 8);
    const segmentsPerId = 0x1_0000_0000n / segmentBytes;
    const first = lsnValue(start[1] as string) / segmentBytes;
    const last = lsnValue(stop.lsn) / segmentBytes;
    const wal = path.join(dataDir, "pg_wal");
    await tar.dir("pg_wal", 0o700);
    for (const entry of await readdir(wal, { withFileTypes: true })) {
      if (entry.isDirectory()) await tar.dir(`pg_wal/${entry.name}`, 0o700);
      else if (entry.name.endsWith(".history")) await addFile(tar, path.join(wal, entry.name), `pg_wal/${entry.name}`);
    }
    for (let seg = first; seg <= last; seg++) {
      const name = `${timeline}${(seg / segmentsPerId).toString(16).toUpperCase().padStart(8, "0")}${(seg % segmentsPerId).toString(16).toUpperCase().padStart(8, "0")}`;
      if (!(await addFile(tar, path.join(wal, name), `pg_wal/${name}`)))
        throw new Error(`WAL segment ${name} written during the backup is missing: the backup is incomplete`);
    }
    await tar.end();
    gzip.end();
    await written;
    // Read back whole before it counts, as pg_dump's archive is (pg_restore --list).
    const back = await readBackup(partial);
    if (back.problem) throw new Error(`the base backup did not read back whole: ${back.problem}`);
    await sealBackup(partial, file);
    return {
      file,
      method: "base",
      bytes: statSync(file).size,
      detail: `PostgreSQL ${major} base backup of ${dataDir}, WAL ${start[1]} to ${stop.lsn}`,
    };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    throw error;
  } finally {
    if (!stopped) await client.query("select pg_backup_stop(false)").catch(() => undefined);
    await client.query("select pg_drop_replication_slot($1)", [slot]).catch(() => undefined);
  }
}

/** Adds one file as it is now; false when it vanished. */
async function addFile(tar: TarWriter, source: string, name: string): Promise<boolean> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(source);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  return tar.file(name, source, s.size, s.mode, s.mtime);
}

/** The data directory, less pg_wal (added after pg_backup_stop) and what the server rebuilds at start. */
async function copyTree(tar: TarWriter, root: string, relative: string): Promise<void> {
  const here = path.join(root, relative);
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(here, { withFileTypes: true });
  } catch (error) {
    // A folder dropped while it was read (a database dropped meanwhile): WAL replay drops it too.
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const name = relative ? `${relative}/${entry.name}` : entry.name;
    if (!relative && entry.name === "pg_wal") continue;
    if (SKIPPED_FILES.has(entry.name) || entry.name.startsWith("pgsql_tmp")) continue;
    const source = path.join(root, name);
    if (entry.isDirectory()) {
      const s = await lstat(source).catch(() => null);
      if (!s) continue;
      await tar.dir(name, s.mode);
      if (!(relative === "" && EMPTY_ON_RESTORE.has(entry.name))) await copyTree(tar, root, name);
    } else if (entry.isFile()) {
      await addFile(tar, source, name);
    } else if (entry.isSymbolicLink()) {
      throw new Error(
        `the data directory holds a link (${name}): Haven's base backup copies plain folders only; use pg_dump`,
      );
    }
  }
}
