import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { baseBackup, readableDataDir } from "./backup.base.js";
import {
  type BackupResult,
  type BackupSettings,
  backupSettings,
  checksumFileOf,
  serverMajor,
  withClient,
} from "./backup.common.js";
import { dumpWith, pgDumpFor } from "./backup.pg-dump.js";

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

// Each method has its file (backup.pg-dump.ts, backup.base.ts), restores are in backup.restore.ts; this file
// chooses the method, keeps the folder pruned, and is the one the CLI, the worker and doctor import.

export { type BackupResult, type BackupSettings, backupSettings } from "./backup.common.js";
export { readableDataDir } from "./backup.base.js";
export { dataDirRefusal, databaseContents, restoreBase, restoreDump } from "./backup.restore.js";
export { damagedBackup, readBackup } from "./backup.verify.js";

export const BACKUP_TASK = "db:backup";
/** graphile-worker crontab line (UTC), when BACKUP_DIR is set: daily at 02:50, `fill=1d` catches up a missed day. */
export const BACKUP_CRONTAB_LINE = `50 2 * * * ${BACKUP_TASK} ?fill=1d`;

const NAME = /^haven-(\d{8}T\d{6}Z)\.(dump|base\.tar\.gz)$/;

/** The crontab lines the worker adds: the daily backup when BACKUP_DIR is set, else none. */
export const backupCrontab = (source: NodeJS.ProcessEnv = process.env): string[] =>
  backupSettings(source).BACKUP_DIR ? [BACKUP_CRONTAB_LINE] : [];

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
      const takenAt = new Date(
        `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`,
      );
      const file = path.join(dir, name);
      return {
        file,
        name,
        method: match[2] === "dump" ? ("pg_dump" as const) : ("base" as const),
        takenAt,
        bytes: statSync(file).size,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Writes a compressed, dated backup of the database into `dir` (a `.partial` file, read back whole, its SHA-256
 * written beside it as `<file>.sha256`, then renamed), then deletes the oldest of Haven's backups there beyond `keep`.
 */
export async function backupDatabase(options: {
  databaseUrl: string;
  dir: string;
  keep: number;
  now?: Date;
  settings?: BackupSettings;
}): Promise<BackupResult> {
  const settings = options.settings ?? backupSettings();
  await mkdir(options.dir, { recursive: true });
  const now = options.now ?? new Date();
  const result = await withClient(options.databaseUrl, async (client) => {
    const major = await serverMajor(client);
    const { tool, found } = await pgDumpFor(major, settings);
    if (tool) return dumpWith(tool, options.databaseUrl, options.dir, now);
    const data = await readableDataDir(client);
    if (data.dir) return baseBackup(client, data.dir, options.dir, now);
    const have = found.length
      ? `found only ${found.map((t) => `version ${t.major} (${t.bin})`).join(", ")}`
      : "found none";
    throw new Error(
      `cannot back up this PostgreSQL ${major} server: no pg_dump of version ${major} or newer (${have}; install postgresql-client-${major} or set PG_DUMP_PATH), and ${data.why}`,
    );
  });
  const deleted = await prune(options.dir, options.keep);
  return { ...result, deleted };
}

/** Deletes the oldest of Haven's backups in `dir` beyond `keep`, each with its checksum; returns the names deleted. */
export async function prune(dir: string, keep: number): Promise<string[]> {
  const all = listBackups(dir);
  const old = all.slice(0, Math.max(0, all.length - keep));
  for (const b of old) {
    await rm(b.file, { force: true });
    await rm(checksumFileOf(b.file), { force: true });
  }
  return old.map((b) => b.name);
}
