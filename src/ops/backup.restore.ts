import { spawnSync } from "node:child_process";
import { createReadStream, existsSync, readdirSync } from "node:fs";
import { chown, mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { type BackupSettings, META, backupSettings, execFileP, serverMajor, withClient } from "./backup.common.js";
import { pgDumpFor, splitPassword } from "./backup.pg-dump.js";
import { damagedBackup } from "./backup.verify.js";
import { extractTar } from "./tar.js";

// `haven db restore`: a pg_dump archive into an empty database, or a base backup into an empty data directory.
// The CLI reads the file first (readBackup, backup.verify.ts) and refuses a damaged one before touching anything;
// a failure found only while restoring still leaves nothing restored, and says so.

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

/** pg_restore's words for an archive that ends early or is damaged (pg_backup_custom.c, pg_backup_archiver.c). */
const CUT_SHORT =
  /could not read from input file|unexpected end of file|did not find magic string|corrupt|could not uncompress|invalid compressed data/i;

/** Restores a pg_dump archive into the (empty) database at `databaseUrl`, in one transaction. */
export async function restoreDump(options: {
  file: string;
  databaseUrl: string;
  settings?: BackupSettings;
}): Promise<{ detail: string }> {
  const settings = options.settings ?? backupSettings();
  const contents = await databaseContents(options.databaseUrl);
  const target = new URL(options.databaseUrl).pathname.slice(1);
  if (contents.objects > 0) {
    throw new Error(
      `the database ${target} is not empty (${contents.objects} objects, e.g. ${contents.examples.join(", ")}): restore into a new, empty database (createdb, then point DATABASE_URL at it)`,
    );
  }
  const major = await withClient(options.databaseUrl, serverMajor);
  const { tool, found } = await pgDumpFor(major, settings);
  if (!tool) {
    throw new Error(
      `no pg_restore of version ${major} or newer found (${found.length ? `only ${found.map((t) => t.major).join(", ")}` : "none"}): install postgresql-client-${major} or set PG_DUMP_PATH`,
    );
  }
  const { url, env } = splitPassword(options.databaseUrl);
  try {
    await execFileP(
      path.join(tool.bin, "pg_restore"),
      ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${url}`, options.file],
      { env, maxBuffer: 16 << 20 },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    const line =
      stderr?.split("\n").find((l) => l.includes("error")) ?? stderr?.split("\n")[0] ?? (error as Error).message;
    // --single-transaction: the transaction rolled back. A file that ends early is said to be that.
    if (CUT_SHORT.test(line)) throw new Error(damagedBackup(options.file, line.replace(/^pg_restore: (error: )?/, "")));
    throw new Error(`pg_restore failed, nothing was restored: ${line}`);
  }
  return { detail: `pg_restore ${tool.major} into ${target}` };
}

/** Why a folder cannot take a restored cluster, or null when it is absent or empty. */
export function dataDirRefusal(dataDir: string): string | null {
  if (!existsSync(dataDir)) return null;
  const entries = readdirSync(dataDir);
  if (entries.length === 0) return null;
  const what = entries.includes("PG_VERSION")
    ? "holds a PostgreSQL cluster"
    : `is not empty (${entries.length} entries)`;
  return `${dataDir} ${what}: restore into an empty folder (move it aside, e.g. mv ${dataDir} ${dataDir}.old, or set DATA_DIR)`;
}

/**
 * Extracts a base backup into an absent or empty data directory. The server replays the WAL in it at its next
 * start; the caller starts it once to check. As root, the files go to the 'postgres' user that runs the server.
 */
export async function restoreBase(options: {
  file: string;
  dataDir: string;
  expectMajor?: number;
}): Promise<{ files: number; serverMajor: number; takenAt: string }> {
  const refusal = dataDirRefusal(options.dataDir);
  if (refusal) throw new Error(refusal);
  // The parents stay open to the server's user; the cluster folder itself is private, as initdb makes it.
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    const { files, aside } = await extractTar(createReadStream(options.file).pipe(createGunzip()), options.dataDir, [
      META,
    ]);
    const meta = aside.get(META);
    if (!meta) throw new Error(`${options.file} is not a Haven base backup (no ${META})`);
    const info = JSON.parse(meta.toString("utf8")) as { serverMajor: number; takenAt: string };
    if (
      !existsSync(path.join(options.dataDir, "backup_label")) ||
      !existsSync(path.join(options.dataDir, "global", "pg_control"))
    ) {
      throw new Error(`${options.file} is incomplete (no backup_label or pg_control)`);
    }
    if (options.expectMajor !== undefined && info.serverMajor !== options.expectMajor) {
      throw new Error(
        `the backup is of PostgreSQL ${info.serverMajor}; this Haven's embedded Postgres is ${options.expectMajor}`,
      );
    }
    if (process.getuid?.() === 0) await chownTree(options.dataDir, postgresIds());
    return { files, serverMajor: info.serverMajor, takenAt: info.takenAt };
  } catch (error) {
    // Leave no half-restored cluster that a later start would take for a real one.
    await rm(options.dataDir, { recursive: true, force: true });
    const e = error as { code?: string; message?: string };
    // gunzip's "unexpected end of file", or the tar cut short: the file, not the folder, is at fault.
    if (e.code?.startsWith("Z_") || /cut short|damaged/.test(e.message ?? ""))
      throw new Error(damagedBackup(options.file, e.message ?? String(error)));
    throw new Error(`${e.message ?? String(error)}; nothing was restored (${options.dataDir} was removed)`);
  }
}

function postgresIds(): { uid: number; gid: number } {
  const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error(
      "as root, the restored cluster belongs to a 'postgres' user, and there is none: run npm start once (it creates it), or useradd --system postgres",
    );
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
