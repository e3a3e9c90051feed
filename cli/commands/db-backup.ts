import { existsSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { type Command, InvalidArgumentError } from "commander";
import { loadEnv } from "../../src/config/env.js";
import { openDatabase } from "../../src/db/database.js";
import { isPortTaken, startEmbeddedPostgres } from "../../src/db/embedded.js";
import {
  backupDatabase,
  backupSettings,
  damagedBackup,
  dataDirRefusal,
  databaseContents,
  readBackup,
  restoreBase,
  restoreDump,
} from "../../src/ops/backup.js";
import { loadCliDotenv, printJson, printLine } from "../context.js";

const keepCount = (value: string): number => {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 10_000)
    throw new InvalidArgumentError("Keep must be a whole number from 1 to 10000");
  return n;
};

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** --yes, or "yes" typed on a terminal; anything else (and no terminal) refuses. */
async function confirm(question: string, yes: boolean | undefined): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) throw new Error(`${question}? Add --yes to confirm (no terminal to ask on)`);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question}? Type yes to go ahead: `);
    if (answer.trim().toLowerCase() !== "yes") throw new Error("nothing restored: not confirmed");
  } finally {
    rl.close();
  }
}

/** `haven db backup` and `haven db restore` (docs/operations.md, "Backups"), on the `db` command. */
export function registerDbBackup(db: Command) {
  db.command("backup")
    .description("Write a compressed, dated backup of the database into a folder, and delete the oldest beyond --keep")
    .option("--dir <dir>", "where to write it (default BACKUP_DIR, else $DATA_DIR/backups)")
    .option("--keep <n>", "how many of Haven's backups to keep in the folder (default BACKUP_KEEP, else 14)", keepCount)
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nWith a pg_dump as new as the server (PG_DUMP_PATH, /usr/lib/postgresql/*/bin or PATH): a pg_dump custom archive,\nhaven-<time>.dump. Otherwise, for a server whose data directory is readable here (the embedded Postgres): a base\nbackup through PostgreSQL's low-level backup API with the WAL it needs, haven-<time>.base.tar.gz.\nExamples:\n  haven db backup\n  haven db backup --dir /backups --keep 30",
    )
    .action(async (options: { dir?: string; keep?: number; json?: boolean }) => {
      loadCliDotenv();
      const env = loadEnv();
      const settings = backupSettings();
      const dir = path.resolve(options.dir ?? settings.BACKUP_DIR ?? path.join(env.DATA_DIR, "backups"));
      const keep = options.keep ?? settings.BACKUP_KEEP;
      const database = await openDatabase(env, { reuseRunning: true });
      try {
        const result = await backupDatabase({ databaseUrl: database.url, dir, keep, settings });
        if (options.json) return await printJson(result);
        await printLine(`Backed up to ${result.file} (${megabytes(result.bytes)}): ${result.detail}.`);
        await printLine(
          result.deleted.length
            ? `Deleted ${result.deleted.length} older backup(s) beyond ${keep}: ${result.deleted.join(", ")}.`
            : `Keeping up to ${keep} backups in ${dir}.`,
        );
      } finally {
        await database.embedded?.stop();
      }
    });

  db.command("restore")
    .description(
      "Restore a backup made by `haven db backup` into an empty database (a pg_dump archive) or an empty embedded data folder (a base backup)",
    )
    .argument("<file>", "the backup file (haven-<time>.dump or haven-<time>.base.tar.gz)")
    .option("--yes", "go ahead without asking")
    .addHelpText(
      "after",
      "\nA .dump goes into the database DATABASE_URL names (or the embedded one), which must be empty: create a new one.\nA .base.tar.gz is a whole embedded cluster: it goes into $DATA_DIR/postgres, which must be absent or empty,\nwith Haven stopped.\nExamples:\n  DATABASE_URL=postgres://haven@db/haven_restored haven db restore backups/haven-20261101T025000Z.dump --yes\n  DATA_DIR=.data-restored haven db restore backups/haven-20261101T025000Z.base.tar.gz",
    )
    .action(async (file: string, options: { yes?: boolean }) => {
      loadCliDotenv();
      const env = loadEnv();
      if (!existsSync(file)) throw new Error(`no such file: ${file}`);
      // Read whole first (its checksum and listing): a damaged file is refused before anything is touched.
      const reading = await readBackup(file);
      if (reading.problem) throw new Error(damagedBackup(file, reading.problem));
      if (reading.kind === "base") {
        if (env.DATABASE_URL) {
          throw new Error(
            "this is a base backup of a whole embedded cluster: it restores into Haven's embedded Postgres (unset DATABASE_URL); a server elsewhere is restored from a pg_dump backup",
          );
        }
        const dataDir = path.resolve(env.DATA_DIR, "postgres");
        const refusal = dataDirRefusal(dataDir);
        if (refusal) throw new Error(refusal);
        if (await isPortTaken(env.EMBEDDED_PG_PORT))
          throw new Error(
            `a Postgres already listens on port ${env.EMBEDDED_PG_PORT} (is Haven running?): stop it, or set EMBEDDED_PG_PORT`,
          );
        await confirm(`Restore ${file} into ${dataDir}`, options.yes);
        const restored = await restoreBase({ file, dataDir });
        // The first start replays the WAL copied with the backup; it must come up before we say it worked.
        const server = await startEmbeddedPostgres({ dir: dataDir, port: env.EMBEDDED_PG_PORT, database: "haven" });
        let tables: number;
        try {
          tables = (await databaseContents(server.url)).objects;
        } finally {
          await server.stop();
        }
        await printLine(
          `Restored the base backup of ${restored.takenAt} (PostgreSQL ${restored.serverMajor}) into ${dataDir}: ${restored.files} files; the database haven holds ${tables} objects. Start Haven with this DATA_DIR.`,
        );
        return;
      }
      const database = await openDatabase(env, { reuseRunning: true });
      try {
        const target = new URL(database.url).pathname.slice(1);
        const contents = await databaseContents(database.url);
        if (contents.objects > 0) {
          throw new Error(
            `the database ${target} is not empty (${contents.objects} objects, e.g. ${contents.examples.join(", ")}): restore into a new, empty database (createdb, then point DATABASE_URL at it)`,
          );
        }
        await confirm(`Restore ${file} into the database ${target}`, options.yes);
        const result = await restoreDump({ file, databaseUrl: database.url });
        await printLine(`Restored ${file} (${result.detail}).`);
      } finally {
        await database.embedded?.stop();
      }
    });
}
