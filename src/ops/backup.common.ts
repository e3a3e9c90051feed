import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import pg from "pg";
import { z } from "zod";

// What the backup methods and the restores share (src/ops/backup.ts is the entry that re-exports them).

export const execFileP = promisify(execFile);

/** The description stored first in a base backup (never written into the restored data directory). */
export const META = "haven-backup.json";

const settingsSchema = z.object({
  BACKUP_DIR: z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined), z.string().optional()),
  BACKUP_KEEP: z.preprocess(
    (v) => (typeof v === "string" && v.trim() ? v : undefined),
    z.coerce.number().int().min(1).max(10_000).default(14),
  ),
  PG_DUMP_PATH: z.preprocess((v) => (typeof v === "string" && v.trim() ? v.trim() : undefined), z.string().optional()),
});
export type BackupSettings = z.infer<typeof settingsSchema>;

/** BACKUP_DIR (where backups go; the daily job runs only when set), BACKUP_KEEP (how many to keep, 14) and PG_DUMP_PATH. */
export function backupSettings(source: NodeJS.ProcessEnv = process.env): BackupSettings {
  const parsed = settingsSchema.safeParse(source);
  if (!parsed.success)
    throw new Error(
      `Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}

export interface BackupResult {
  file: string;
  method: "pg_dump" | "base";
  bytes: number;
  /** What the method was, in one line (which pg_dump, or the WAL range). */
  detail: string;
  deleted: string[];
}

/** The UTC time in a backup's name, as listBackups (backup.ts) reads it back. */
export const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");

/**
 * A backup takes as long as the data: no time limit that Haven's pool connections (src/db/knex.ts), the role or the
 * database may set cuts its session, idle while a base backup copies files. Set with SET rather than startup
 * options, which poolers refuse; only those the server has (idle_session_timeout is PostgreSQL 14+).
 */
const NO_TIMEOUTS = `select set_config(name, '0', false) from pg_settings
  where name in ('statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout', 'idle_session_timeout', 'transaction_timeout')`;

/** The checksum written beside each backup when it is made: `<file>.sha256`, in sha256sum's format. */
export const checksumFileOf = (file: string) => `${file}.sha256`;

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/**
 * Makes a finished, read-back `partial` the backup `file`: its SHA-256 goes beside it first (`<file>.sha256`,
 * which `sha256sum -c` reads), both reach the disk, then the rename. So a backup under its final name always has
 * the checksum of the bytes that were read back whole.
 */
export async function sealBackup(partial: string, file: string): Promise<void> {
  const sum = checksumFileOf(file);
  await writeFile(`${sum}.partial`, `${await sha256Of(partial)}  ${path.basename(file)}\n`);
  await syncFile(`${sum}.partial`);
  await rename(`${sum}.partial`, sum);
  await syncFile(partial);
  await rename(partial, file);
}

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query(NO_TIMEOUTS);
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function serverMajor(client: pg.Client): Promise<number> {
  const { rows } = await client.query("select current_setting('server_version_num')::int / 10000 as major");
  return Number(rows[0].major);
}

export async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
