import { existsSync, readdirSync, statSync } from "node:fs";
import { realpath, rm } from "node:fs/promises";
import path from "node:path";
import {
  type BackupResult,
  type BackupSettings,
  backupSettings,
  execFileP,
  sealBackup,
  stamp,
} from "./backup.common.js";

// The pg_dump method (custom format), for any server a pg_dump of its major version or newer is found for.

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
  if (settings.PG_DUMP_PATH)
    candidates.push(
      existsSync(settings.PG_DUMP_PATH) && statSync(settings.PG_DUMP_PATH).isDirectory()
        ? path.join(settings.PG_DUMP_PATH, "pg_dump")
        : settings.PG_DUMP_PATH,
    );
  if (existsSync("/usr/lib/postgresql"))
    for (const v of readdirSync("/usr/lib/postgresql"))
      candidates.push(path.join("/usr/lib/postgresql", v, "bin", "pg_dump"));
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).filter(Boolean))
    candidates.push(path.join(dir, "pg_dump"));
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
export async function pgDumpFor(
  serverMajor: number,
  settings: BackupSettings,
): Promise<{ tool: PgTool | null; found: PgTool[] }> {
  const found = await findPgDumps(settings);
  const fit = found.filter((t) => t.major >= serverMajor).sort((a, b) => b.major - a.major);
  return { tool: fit[0] ?? null, found };
}

/**
 * The connection string without its password, and the password for PGPASSWORD (kept out of `ps`). pg_dump and
 * pg_restore turn off statement_timeout, lock_timeout and idle_in_transaction_session_timeout themselves.
 */
export function splitPassword(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = "";
  return { url: u.toString(), env: password ? { ...process.env, PGPASSWORD: password } : { ...process.env } };
}

export async function dumpWith(
  tool: PgTool,
  databaseUrl: string,
  dir: string,
  now: Date,
): Promise<Omit<BackupResult, "deleted">> {
  const file = path.join(dir, `haven-${stamp(now)}.dump`);
  const partial = `${file}.partial`;
  const { url, env } = splitPassword(databaseUrl);
  try {
    await execFileP(
      path.join(tool.bin, "pg_dump"),
      ["--format=custom", "--no-owner", `--file=${partial}`, `--dbname=${url}`],
      { env, maxBuffer: 16 << 20 },
    );
    // The archive reads back whole: its table of contents lists what it holds.
    await execFileP(path.join(tool.bin, "pg_restore"), ["--list", partial], { maxBuffer: 64 << 20 });
    await sealBackup(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`pg_dump failed: ${stderr?.split("\n")[0] ?? (error as Error).message}`);
  }
  return {
    file,
    method: "pg_dump",
    bytes: statSync(file).size,
    detail: `pg_dump ${tool.major} (${tool.bin}), custom format`,
  };
}
