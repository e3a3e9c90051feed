import { createReadStream, existsSync } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { type BackupSettings, META, backupSettings, checksumFileOf, execFileP, sha256Of } from "./backup.common.js";
import { findPgDumps } from "./backup.pg-dump.js";
import { listTar } from "./tar.js";

// Whether a backup can be restored, read without restoring it: `haven doctor`, `haven db restore` before it
// touches anything, and a base backup read back before it counts (docs/operations.md, "Backups"). Two readings:
// the SHA-256 written beside the backup when it was made (`<file>.sha256`), and the archive's own listing
// (pg_restore --list for a .dump, the whole tar for a .base.tar.gz).

export type BackupKind = "pg_dump" | "base";

export interface BackupReading {
  kind: BackupKind | null;
  /** Why it cannot be restored (cut short, damaged, changed since it was written), or null. */
  problem: string | null;
  /** What was read and found whole. */
  read: string[];
  /** What could not be read from here, and why. */
  unread: string[];
}

const kindByName = (file: string): BackupKind | null =>
  file.endsWith(".dump") ? "pg_dump" : file.endsWith(".tar.gz") ? "base" : null;

async function kindByHead(file: string): Promise<BackupKind | null> {
  const handle = await open(file, "r");
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await handle.read(head, 0, 5, 0);
    if (bytesRead === 5 && head.toString("ascii") === "PGDMP") return "pg_dump";
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "base";
    return null;
  } finally {
    await handle.close();
  }
}

/** The SHA-256 beside the file: "match", "absent", or what is wrong. */
async function checksum(file: string): Promise<{ state: "match" | "absent" } | { state: "problem"; why: string }> {
  const sumFile = checksumFileOf(file);
  if (!existsSync(sumFile)) return { state: "absent" };
  const expected = /^([0-9a-f]{64})\s/.exec(await readFile(sumFile, "utf8"))?.[1];
  if (!expected) return { state: "problem", why: `${path.basename(sumFile)} is not "<sha256>  <file>"` };
  if ((await sha256Of(file)) === expected) return { state: "match" };
  return {
    state: "problem",
    why: `its SHA-256 is not the one written beside it when it was made (${path.basename(sumFile)}): it was cut short or changed since`,
  };
}

/** A gunzip or tar error in words: zlib's "unexpected end of file" is a file cut short. */
function archiveError(error: unknown): string {
  const e = error as { code?: string; message?: string };
  if (e.code === "Z_BUF_ERROR") return `it ends before its compressed data does (${e.message})`;
  if (e.code === "Z_DATA_ERROR") return `its compressed data is damaged (${e.message})`;
  return e.message ?? String(error);
}

/** The whole tar of a base backup, read through its end, and the files a restore needs. */
async function listBase(file: string): Promise<{ entries: number } | { why: string }> {
  const gunzip = createGunzip();
  createReadStream(file)
    .on("error", (error) => gunzip.destroy(error))
    .pipe(gunzip);
  let names: Set<string>;
  try {
    names = new Set((await listTar(gunzip)).map((e) => e.name));
  } catch (error) {
    gunzip.destroy();
    return { why: archiveError(error) };
  }
  const missing = [META, "backup_label", "global/pg_control"].filter((n) => !names.has(n));
  if (missing.length) return { why: `it is incomplete (no ${missing.join(", ")})` };
  return { entries: names.size };
}

/** pg_restore --list with the newest pg_restore found; "unread" when none here can read the archive. */
async function listDump(
  file: string,
  settings: BackupSettings,
): Promise<{ entries: number } | { why: string } | { unread: string }> {
  const [tool] = (await findPgDumps(settings)).sort((a, b) => b.major - a.major);
  if (!tool) return { unread: "no pg_restore here to list it" };
  try {
    const { stdout } = await execFileP(path.join(tool.bin, "pg_restore"), ["--list", file], { maxBuffer: 64 << 20 });
    return { entries: stdout.split("\n").filter((l) => l.trim() && !l.startsWith(";")).length };
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim() ?? (error as Error).message;
    const first = stderr.split("\n")[0] ?? "";
    // An archive of a newer pg_dump than any pg_restore here: not damaged, only unreadable from here.
    if (/unsupported version/.test(first)) return { unread: `pg_restore ${tool.major} here is older than it` };
    return { why: `pg_restore --list fails: ${first.replace(/^pg_restore: (error: )?/, "")}` };
  }
}

/** Reads a backup without restoring it: its checksum and its listing. */
export async function readBackup(file: string, settings: BackupSettings = backupSettings()): Promise<BackupReading> {
  const size = (await stat(file)).size;
  const named = kindByName(file);
  const head = size ? await kindByHead(file) : null;
  const reading: BackupReading = { kind: named ?? head, problem: null, read: [], unread: [] };
  if (size === 0) return { ...reading, problem: "it is empty" };
  if (named && head !== named)
    return {
      ...reading,
      problem: `it does not begin as a ${named === "pg_dump" ? "pg_dump custom archive" : "gzip file"} does (${size} bytes)`,
    };
  if (!reading.kind)
    return { ...reading, problem: "it is neither a pg_dump custom archive nor a base backup (.base.tar.gz)" };

  const sum = await checksum(file);
  if (sum.state === "problem") return { ...reading, problem: sum.why };
  if (sum.state === "match") reading.read.push("checksum matches");
  else reading.unread.push(`no checksum beside it (${path.basename(checksumFileOf(file))})`);

  const listing = reading.kind === "base" ? await listBase(file) : await listDump(file, settings);
  if ("why" in listing) return { ...reading, problem: listing.why };
  if ("unread" in listing) reading.unread.push(`not listed: ${listing.unread}`);
  else reading.read.push(`${reading.kind === "base" ? "tar" : "pg_restore --list"}: ${listing.entries} entries`);
  return reading;
}

/** The one line a restore refuses a damaged backup with: nothing was touched. */
export const damagedBackup = (file: string, problem: string) =>
  `${file} is truncated or corrupt (${problem}): nothing was restored`;
