import { existsSync } from "node:fs";
import path from "node:path";
import pino from "pino";
import { loadDotenv, loadEnv } from "../src/config/env.js";
import { type Container, createContainer } from "../src/container.js";
import { openDatabase } from "../src/db/database.js";
import { createKnex } from "../src/db/knex.js";
import { asActor } from "../src/modules/audit/index.js";
import { NO_SITE_ADDRESS, siteAddress } from "../src/ops/site-address.js";

/** The checkout's own folder: `npm start` runs the web process there, so its .env is the one the site reads. */
const PROJECT_DIR = path.resolve(import.meta.dirname, "..");

/**
 * The .env the CLI reads: the working folder's, else the project's, so that `haven` run from any folder makes
 * e-mailed links with the same PUBLIC_URL as the web process (README "Configuration"). Variables already set win.
 */
export function cliDotenvFile(cwd = process.cwd(), projectDir = PROJECT_DIR): string | null {
  for (const dir of [cwd, projectDir]) {
    const file = path.join(dir, ".env");
    if (existsSync(file)) return file;
  }
  return null;
}

/** Loads the CLI's .env (cliDotenvFile), if there is one. */
export function loadCliDotenv(): void {
  const file = cliDotenvFile();
  if (file) loadDotenv(file);
}

/**
 * Opens the database, runs one command against the container, then closes everything. A command that e-mails or
 * prints a link says `links: true`: its links point at PUBLIC_URL when it is set here, else at the address the
 * running site recorded (src/ops/site-address.ts); with neither, it refuses before doing anything.
 */
export async function withContainer<T>(
  work: (container: Container) => Promise<T>,
  options: { links?: boolean } = {},
): Promise<T> {
  loadCliDotenv();
  const env = loadEnv();
  const database = await openDatabase(env, { reuseRunning: true });
  const db = createKnex(database.url, { min: 0, max: 4 });
  try {
    let site = env;
    if (options.links) {
      const address = await siteAddress(db, process.env);
      if (!address) throw new Error(NO_SITE_ADDRESS);
      if (address.differs)
        console.error(
          `haven: the links use PUBLIC_URL (${address.url}); the running site announced ${address.differs.url} at ${address.differs.at.toISOString()}`,
        );
      site = { ...env, PUBLIC_URL: address.url };
    }
    const container = createContainer(site, database.url, db, { log: pino({ level: "warn" }) });
    // What a command changes, the audit trail puts down to "cli" (src/modules/audit/README.md).
    return await asActor("cli", () => work(container));
  } finally {
    await db.destroy();
    await database.embedded?.stop();
  }
}

/**
 * Writes to standard output and resolves once Node has handed it to the OS. A pipe takes 64 KB at a time;
 * what it has not taken yet waits in this process, so a command awaits this before it returns.
 */
export function writeOut(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (error) => (error ? reject(error) : resolve()));
  });
}

/** One line of output (console.log's), awaited as writeOut. */
export const printLine = (text = "") => writeOut(`${text}\n`);

/** A value as indented JSON on standard output (every --json and the customer export), awaited as writeOut. */
export const printJson = (value: unknown) => printLine(JSON.stringify(value, null, 2));

/** Resolves when everything written to the stream so far has reached the OS, or the reader went away. */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || !stream.writable) return Promise.resolve();
  // Writes complete in order: the callback of an empty one comes after every earlier write's.
  return new Promise((resolve) => stream.write("", () => resolve()));
}
