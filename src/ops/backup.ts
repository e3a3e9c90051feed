import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readdirSync, statSync } from "node:fs";
import { chown, lstat, mkdir, open, readdir, readFile, realpath, rename, rm, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import { z } from "zod";
import { TarWriter, extractTar } from "./tar.js";

// `haven db backup` / `haven db restore` and the worker's daily `db:backup` (docs/operations.md, "Backups").
// Two methods, chosen by what can be done soundly:
// - pg_dump (custom format) whenever a pg_dump of the server's major version or newer is found (PG_DUMP_PATH,
//   /usr/lib/postgresql/*/bin, PATH): compose and any managed Postgres. pg_dump refuses a newer server, so
//   an older client is never tried.
// - a physical base backup through the server's own low-level API (pg_backup_start / pg_backup_stop, as in
//   PostgreSQL's "Making a Base Backup Using the Low Level API") when the server's data directory is readable
//   here: the embedded Postgres, which ships no pg_dump. A temporary replication slot holds the WAL from before
//   the backup starts, and every WAL segment from the backup's start to its end goes into the archive, so the
//   restored cluster replays to a consistent state; a missing segment fails the backup.

const execFileP = promisify(execFile);

export const BACKUP_TASK = "db:backup";
/** graphile-worker crontab line (UTC), when BACKUP_DIR is set: daily at 02:50, `fill=1d` catches up a missed day. */
export const BACKUP_CRONTAB_LINE = `50 2 * * * ${BACKUP_TASK} ?fill=1d`;

/** The description stored first in a base backup (never written into the restored data directory). */
const META = "haven-backup.json";
const NAME = /^haven-(\d{8}T\d{6}Z)\.(dump|base\.tar\.gz)$/;

const settingsSchema = z.object({
  BACKUP_DIR: z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined), z.string().optional()),
  BACKUP_KEEP: z.preprocess((v) => (typeof v === "string" && v.trim() ? v : undefined), z.coerce.number().int().min(1).max(10_000).default(14)),
  PG_DUMP_PATH: z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined), z.string().optional()),
});
export type BackupSettings = z.infer<typeof settingsSchema>;

/** BACKUP_DIR (where backups go; the daily job runs only when set), BACKUP_KEEP (how many to keep, 14) and PG_DUMP_PATH. */
export function backupSettings(source: NodeJS.ProcessEnv = process.env): BackupSettings {
  const parsed = settingsSchema.safeParse(source);
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

/** The crontab lines the worker adds: the daily backup when BACKUP_DIR is set, else none. */
export const backupCrontab = (source: NodeJS.ProcessEnv = process.env): string[] => (backupSettings(source).BACKUP_DIR ? [BACKUP_CRONTAB_LINE] : []);

export interface BackupFile {
  file: string;
  name: string;
  method: "pg_dump" | "base";
  takenAt: Date;
  bytes: number;
}

/** Haven's backups in a folder, oldest first (their names carry the time they were taken, in UTC). */
export function listBackups(dir: string): BackupFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, match: NAME.exec(name) }))
    .filter((x): x is { name: string; match: RegExpExecArray } => x.match !== null)
    .map(({ name, match }) => {
      const s = match[1] as string;
      const takenAt = new Date(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`);
      const file = path.join(dir, name);
      return { file, name, method: match[2] === "dump" ? ("pg_dump" as const) : ("base" as const), takenAt, bytes: statSync(file).size };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");

// ---- finding pg_dump ------------------------------------------------------------------------------

export interface PgTool {
  /** The folder holding pg_dump and pg_restore. */
  bin: string;
  major: number;
  version: string;
}

async function toolVersion(file: string): Promise<PgTool | null> {
  try {
    const { stdout } = await execFileP(file, ["--version"], { timeout: 10_000 });
    const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(stdout);
    return match ? { bin: path.dirname(file), major: Number(match[1]), version: stdout.trim() } : null;
  } catch {
    return null;
  }
}

/** Every pg_dump found: PG_DUMP_PATH (the file or its folder), /usr/lib/postgresql/<n>/bin, then PATH. */
export async function findPgDumps(settings: BackupSettings = backupSettings()): Promise<PgTool[]> {
  const candidates: string[] = [];
  if (settings.PG_DUMP_PATH) candidates.push(existsSync(settings.PG_DUMP_PATH) && statSync(settings.PG_DUMP_PATH).isDirectory() ? path.join(settings.PG_DUMP_PATH, "pg_dump") : settings.PG_DUMP_PATH);
  if (existsSync("/usr/lib/postgresql")) for (const v of readdirSync("/usr/lib/postgresql")) candidates.push(path.join("/usr/lib/postgresql", v, "bin", "pg_dump"));
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean)) candidates.push(path.join(dir, "pg_dump"));
  const seen = new Set<string>();
  const found: PgTool[] = [];
  for (const file of candidates) {
    if (!existsSync(file)) continue;
    const real = await realpath(file).catch(() => file);
    if (seen.has(real)) continue;
    seen.add(real);
    const tool = await toolVersion(file);
    if (tool && existsSync(path.join(tool.bin, "pg_restore"))) found.push(tool);
  }
  return found;
}

/** The newest pg_dump that can dump a server of this major version (a client as new as the server, or newer). */
async function pgDumpFor(serverMajor: number, settings: BackupSettings): Promise<{ tool: PgTool | null; found: PgTool[] }> {
  const found = await findPgDumps(settings);
  const fit = found.filter((t) => t.major >= serverMajor).sort((a, b) => b.major - a.major);
  return { tool: fit[0] ?? null, found };
}

/** The connection string without its password, and the password for PGPASSWORD (kept out of `ps`). */
function splitPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { url: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

// ---- the server ----------------------------------------------------------------------------------

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query("select current_setting('server_version_num')::int / 10000 as major");
  return Number(rows[0].major);
}

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
    if (control.readBigUInt64LE(0).toString() !== id) return { dir: null, why: `${dir} here is not that server's data directory` };
    return { dir, why: "" };
  } catch {
    return { dir: null, why: `its data directory (${dir}) cannot be read from here (another machine or container, or no permission)` };
  }
}

// ---- backup -------------------------------------------------------------------------------------

export interface BackupResult {
  file: string;
  method: "pg_dump" | "base";
  bytes: number;
  /** What the method was, in one line (which pg_dump, or the WAL range). */
  detail: string;
  deleted: string[];
}

/**
 * Writes a compressed, dated backup of the database into `dir` (a `.partial` file renamed once complete),
 * then deletes the oldest of Haven's backups there beyond `keep`.
 */
export async function backupDatabase(options: { databaseUrl: string; dir: string; keep: number; now?: Date; settings?: BackupSettings }): Promise<BackupResult> {
  const settings = options.settings ?? backupSettings();
  await mkdir(options.dir, { recursive: true });
  const now = options.now ?? new Date();
  const result = await withClient(options.databaseUrl, async (client) => {
    const major = await serverMajor(client);
    const { tool, found } = await pgDumpFor(major, settings);
    if (tool) return dumpWith(tool, options.databaseUrl, options.dir, now);
    const data = await readableDataDir(client);
    if (data.dir) return baseBackup(client, data.dir, options.dir, now);
    const have = found.length ? `found only ${found.map((t) => `version ${t.major} (${t.bin})`).join(", ")}` : "found none";
    throw new Error(
      `cannot back up this PostgreSQL ${major} server: no pg_dump of version ${major} or newer (${have}; install postgresql-client-${major} or set PG_DUMP_PATH), and ${data.why}`,
    );
  });
  const deleted = await prune(options.dir, options.keep);
  return { ...result, deleted };
}

/** Deletes the oldest of Haven's backups in `dir` beyond `keep`; returns the names deleted. */
export async function prune(dir: string, keep: number): Promise<string[]> {
  const all = listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const b of old) await unlink(b.file);
  return old.map((b) => b.name);
}

async function dumpWith(tool: PgTool, databaseUrl: string, dir: string, now: Date): Promise<Omit<BackupResult, "deleted">> {
  const file = path.join(dir, `haven-${stamp(now)}.dump`);
  const partial = `${file}.partial`;
  const { url, env } = splitPassword(databaseUrl);
  try {
    await execFileP(path.join(tool.bin, "pg_dump"), ["--format=custom", "--no-owner", `--file=${partial}`, `--dbname=${url}`], { env, maxBuffer: 16 << 20 });
    // The archive reads back whole: its table of contents lists what it holds.
    await execFileP(path.join(tool.bin, "pg_restore"), ["--list", partial], { maxBuffer: 64 << 20 });
    await syncFile(partial);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`pg_dump failed: ${stderr?.split("\n")[0] ?? (error as Error).message}`);
  }
  return { file, method: "pg_dump", bytes: statSync(file).size, detail: `pg_dump ${tool.major} (${tool.bin}), custom format` };
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Folders whose contents the server rebuilds at start (PostgreSQL's list of what a base backup may omit). */
const EMPTY_ON_RESTORE = new Set(["pg_dynshmem", "pg_notify", "pg_serial", "pg_snapshots", "pg_stat_tmp", "pg_subtrans", "pg_replslot"]);
const SKIPPED_FILES = new Set(["postmaster.pid", "postmaster.opts", "pg_internal.init", "backup_label", "tablespace_map", "backup_label.old"]);

const lsnValue = (lsn: string) => {
  const [hi, lo] = lsn.split("/");
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
};

async function baseBackup(client: pg.Client, dataDir: string, dir: string, now: Date): Promise<Omit<BackupResult, "deleted">> {
  const major = await serverMajor(client);
  if (major < 15) throw new Error(`a base backup needs PostgreSQL 15 or newer (pg_backup_start); this server is ${major}: install its pg_dump`);
  for (const link of await readdir(path.join(dataDir, "pg_tblspc")).catch(() => [])) {
    throw new Error(`the cluster has a tablespace outside its data directory (pg_tblspc/${link}): use pg_dump`);
  }
  const file = path.join(dir, `haven-${stamp(now)}.base.tar.gz`);
  const partial = `${file}.partial`;
  const segmentBytes = BigInt((await client.query("select setting::bigint * 1 as b from pg_settings where name = 'wal_segment_size'")).rows[0].b);
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
      if (!(await addFile(tar, path.join(wal, name), `pg_wal/${name}`))) throw new Error(`WAL segment ${name} written during the backup is missing: the backup is incomplete`);
    }
    await tar.end();
    gzip.end();
    await written;
    await syncFile(partial);
    await rename(partial, file);
    return { file, method: "base", bytes: statSync(file).size, detail: `PostgreSQL ${major} base backup of ${dataDir}, WAL ${start[1]} to ${stop.lsn}` };
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
      throw new Error(`the data directory holds a link (${name}): Haven's base backup copies plain folders only; use pg_dump`);
    }
  }
}

// ---- restore ------------------------------------------------------------------------------------

export type BackupKind = "pg_dump" | "base";

/** What a backup file is, from its first bytes: a pg_dump custom archive (PGDMP) or a gzip (a base backup). */
export async function backupKind(file: string): Promise<BackupKind> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(5);
    await handle.read(head, 0, 5, 0);
    if (head.toString("ascii") === "PGDMP") return "pg_dump";
    if (head[0] === 0x1f && head[1] === 0x8b) return "base";
  } finally {
    await handle.close();
  }
  throw new Error(`${file} is not a Haven backup (neither a pg_dump custom archive nor a base backup)`);
}

/** What a database holds besides the system's own schemas: tables, views, sequences, functions, types. */
export async function databaseContents(databaseUrl: string): Promise<{ objects: number; examples: string[] }> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'
       union all
       select n.nspname || '.' || p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname not in ('pg_catalog', 'information_schema')
       order by 1`,
    );
    return { objects: rows.length, examples: rows.slice(0, 3).map((r) => r.name as string) };
  });
}

/** Restores a pg_dump archive into the (empty) database at `databaseUrl`, in one transaction. */
export async function restoreDump(options: { file: string; databaseUrl: string; settings?: BackupSettings }): Promise<{ detail: string }> {
  const settings = options.settings ?? backupSettings();
  const contents = await databaseContents(options.databaseUrl);
  const target = new URL(options.databaseUrl).pathname.slice(1);
  if (contents.objects > 0) {
    throw new Error(`the database ${target} is not empty (${contents.objects} objects, e.g. ${contents.examples.join(", ")}): restore into a new, empty database (createdb, then point DATABASE_URL at it)`);
  }
  const major = await withClient(options.databaseUrl, serverMajor);
  const { tool, found } = await pgDumpFor(major, settings);
  if (!tool) {
    throw new Error(`no pg_restore of version ${major} or newer found (${found.length ? `only ${found.map((t) => t.major).join(", ")}` : "none"}): install postgresql-client-${major} or set PG_DUMP_PATH`);
  }
  const { url, env } = splitPassword(options.databaseUrl);
  try {
    await execFileP(path.join(tool.bin, "pg_restore"), ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${url}`, options.file], { env, maxBuffer: 16 << 20 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`pg_restore failed, nothing was restored: ${stderr?.split("\n").find((l) => l.includes("error")) ?? stderr?.split("\n")[0] ?? (error as Error).message}`);
  }
  return { detail: `pg_restore ${tool.major} into ${target}` };
}

/** Why a folder cannot take a restored cluster, or null when it is absent or empty. */
export function dataDirRefusal(dataDir: string): string | null {
  if (!existsSync(dataDir)) return null;
  const entries = readdirSync(dataDir);
  if (entries.length === 0) return null;
  const what = entries.includes("PG_VERSION") ? "holds a PostgreSQL cluster" : `is not empty (${entries.length} entries)`;
  return `${dataDir} ${what}: restore into an empty folder (move it aside, e.g. mv ${dataDir} ${dataDir}.old, or set DATA_DIR)`;
}

/**
 * Extracts a base backup into an absent or empty data directory. The server replays the WAL in it at its next
 * start; the caller starts it once to check. As root, the files go to the 'postgres' user that runs the server.
 */
export async function restoreBase(options: { file: string; dataDir: string; expectMajor?: number }): Promise<{ files: number; serverMajor: number; takenAt: string }> {
  const refusal = dataDirRefusal(options.dataDir);
  if (refusal) throw new Error(refusal);
  // The parents stay open to the server's user; the cluster folder itself is private, as initdb makes it.
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    const { files, aside } = await extractTar(createReadStream(options.file).pipe(createGunzip()), options.dataDir, [META]);
    const meta = aside.get(META);
    if (!meta) throw new Error(`${options.file} is not a Haven base backup (no ${META})`);
    const info = JSON.parse(meta.toString("utf8")) as { serverMajor: number; takenAt: string };
    if (!existsSync(path.join(options.dataDir, "backup_label")) || !existsSync(path.join(options.dataDir, "global", "pg_control"))) {
      throw new Error(`${options.file} is incomplete (no backup_label or pg_control)`);
    }
    if (options.expectMajor !== undefined && info.serverMajor !== options.expectMajor) {
      throw new Error(`the backup is of PostgreSQL ${info.serverMajor}; this Haven's embedded Postgres is ${options.expectMajor}`);
    }
    if (process.getuid?.() === 0) await chownTree(options.dataDir, postgresIds());
    return { files, serverMajor: info.serverMajor, takenAt: info.takenAt };
  } catch (error) {
    // Leave no half-restored cluster that a later start would take for a real one.
    await rm(options.dataDir, { recursive: true, force: true });
    throw error;
  }
}

function postgresIds(): { uid: number; gid: number } {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) throw new Error("as root, the restored cluster belongs to a 'postgres' user, and there is none: run npm start once (it creates it), or useradd --system postgres");
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

async function chownTree(dir: string, ids: { uid: number; gid: number }): Promise<void> {
  await chown(dir, ids.uid, ids.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) await chownTree(target, ids);
    else await chown(target, ids.uid, ids.gid);
  }
}
