import type { Server } from "node:http";
import type { Express } from "express";
import { createApp } from "./app.js";
import { ConfigError, type Env, loadDotenv, loadEnv } from "./config/env.js";
import { type Container, createContainer } from "./container.js";
import { type DatabaseHandle, openDatabase } from "./db/database.js";
import { type EmbeddedServer, EmbeddedStartError, type ExitInfo, PortInUseError } from "./db/embedded.js";
import { SchemaTooNewError, createAppKnex, migrateLatest, refuseNewerSchema } from "./db/knex.js";
import { backoffMs, pause } from "./db/reconnect.js";
import { logDatabaseOutages, newLifecycle } from "./observability/health.js";
import { createLogger, logProcessFailures } from "./observability/logger.js";
import { createOpsApp } from "./observability/ops.routes.js";
import { recordSiteAddress } from "./ops/site-address.js";
import { type RunningWorker, startWorker } from "./worker-runner.js";

export interface BootOptions {
  web: boolean;
  /** Run the job worker in this process; "mode": as WORKER_MODE says (inline runs it). */
  worker: boolean | "mode";
  /** Migrate to the latest schema before serving. */
  migrate: boolean;
  /** Seed plans and demo data when the database is new. */
  seedIfEmpty: boolean;
}

export interface Running {
  env: Env;
  container: Container;
  url: string | null;
  /** Whether this process runs the job worker. */
  runsWorker: boolean;
  /**
   * Stops gracefully: /readyz turns 503 at once, requests and jobs in flight get `graceSeconds`
   * (default SHUTDOWN_GRACE_S) to finish, jobs still running then go back to the queue.
   */
  stop(graceSeconds?: number, options?: { keepListeningMs?: number }): Promise<void>;
}

/** A failure we can explain in one line; anything else is a bug and keeps its stack. */
export class StartupError extends Error {}

export async function boot(options: BootOptions, env = loadEnv()): Promise<Running> {
  let database: DatabaseHandle;
  let stopping = false;
  const restarts: number[] = [];
  // The embedded Postgres died under us: say so in one line and start it again; give up (exit 1) when it
  // keeps dying. Requests meanwhile get 503s, and the pools reconnect once it is back.
  const onEmbeddedExit = (info: ExitInfo) => {
    if (stopping) return;
    const how = info.signal ? `signal ${info.signal}` : `exit code ${info.code}`;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    if (restarts.length > 3) {
      console.error(
        `haven: the embedded Postgres stopped (${how}) again, ${restarts.length} times in a minute: giving up. Check ${env.DATA_DIR}/postgres, then start Haven again.`,
      );
      process.exit(1);
    }
    console.error(`haven: the embedded Postgres stopped unexpectedly (${how}); restarting it…`);
    restartEmbedded(database.embedded!, () => stopping).then(
      (running) => {
        if (running) console.error("haven: the embedded Postgres is running again.");
      },
      (error: Error) => {
        // A shutdown that began meanwhile stops Postgres itself; only a failed restart is fatal.
        if (stopping) return;
        console.error(`haven: the embedded Postgres could not restart: ${error.message.split("\n")[0]}`);
        process.exit(1);
      },
    );
  };
  try {
    database = await openDatabase(env, { onEmbeddedExit });
  } catch (error) {
    if (error instanceof PortInUseError || error instanceof EmbeddedStartError) throw new StartupError(error.message);
    throw new StartupError(`Postgres could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const db = createAppKnex(database.url, env);
  const container = createContainer(env, database.url, db, { log: createLogger(env.LOG_LEVEL) });
  logDatabaseOutages(db, container.log);
  const runsWorker = options.worker === "mode" ? env.WORKER_MODE === "inline" : options.worker;
  const lifecycle = newLifecycle();
  let server: Served | null = null;
  let worker: RunningWorker | null = null;
  // Draining: /readyz says 503 from the first moment, so a balancer stops sending; the server keeps
  // answering until its requests in flight are done (or the grace ends), while the worker finishes or
  // hands back its jobs. Whatever state the database is in, each step is bounded.
  const stop = async (graceSeconds = env.SHUTDOWN_GRACE_S, options: { keepListeningMs?: number } = {}) => {
    stopping = true;
    lifecycle.draining = true;
    const graceMs = graceSeconds * 1000;
    await Promise.all([server?.drain(graceMs, options.keepListeningMs), worker?.stop(graceMs).catch(() => undefined)]);
    await withinSeconds(3, db.destroy());
    await database.embedded?.stop();
  };
  try {
    try {
      await db.raw("select 1");
    } catch (error) {
      throw new StartupError(`Cannot reach the database: ${(error as Error).message}`);
    }
    // Workers do not migrate, but an older image must not run on a newer schema either.
    if (options.migrate) await migrateLatest(db);
    else await refuseNewerSchema(db);
    warnAboutModes(container);
    // Demo data and the published demo login are for local use only.
    if (options.seedIfEmpty && env.NODE_ENV !== "production") {
      const { seedIfEmpty } = await import("../seeds/index.js");
      await seedIfEmpty(container);
    }
    // Plans are reference data every deployment needs; only missing ones are inserted.
    if (options.migrate) await container.plans.seed();
    if (runsWorker) worker = await startWorker(container);
    const workerPool = () => worker?.pool ?? null;
    let url: string | null = null;
    if (options.web) {
      server = await listen(createApp(container, { lifecycle, workerPool }), env.PORT, env.HOST);
      url = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
      // Where the CLI finds the site's address for the links it e-mails (src/ops/site-address.ts).
      await recordSiteAddress(db, url).catch((error: Error) =>
        container.log.warn({ err: error }, "could not record the site's address for the CLI's links"),
      );
    } else if (runsWorker && env.WORKER_PORT) {
      // A worker-only process answers probes and scrapes on a port of its own.
      server = await listen(
        createOpsApp(container, { lifecycle, checkAssets: false, workerPool }),
        env.WORKER_PORT,
        env.HOST,
        "WORKER_PORT",
      );
    }
    return { env, container, url, runsWorker, stop };
  } catch (error) {
    await stop(3).catch(() => undefined);
    throw error;
  }
}

/** Modes that take no real payments or send no real mail are said at every start (README "Payments, e-mail and time"). */
function warnAboutModes({ env, log }: Container): void {
  if (env.PAYMENTS_MODE === "demo")
    log.warn({ PAYMENTS_MODE: "demo" }, "Demo payments: no card is charged (PAYMENTS_MODE=demo)");
  if (env.MAIL_MODE === "outbox")
    log.warn(
      { MAIL_MODE: "outbox", DATA_DIR: env.DATA_DIR },
      "E-mail is written to $DATA_DIR/outbox, not sent (MAIL_MODE=outbox)",
    );
}

/** Waits for the work, or for `seconds`, whichever comes first (a stuck step must not hold up Ctrl-C). */
async function withinSeconds(seconds: number, work: Promise<unknown> | undefined): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    work.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, seconds * 1000))),
  ]);
  clearTimeout(timer);
}

/**
 * Starts a dead embedded Postgres again, retrying with backoff while its old processes finish exiting. Gives
 * up when a shutdown begins (false), so that no Postgres is started behind a stopping process.
 */
async function restartEmbedded(server: EmbeddedServer, stopping: () => boolean): Promise<boolean> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    if (stopping()) return false;
    try {
      await server.restart();
      if (!stopping()) return true;
      await server.stop();
      return false;
    } catch (error) {
      lastError = error;
      await pause(500 + backoffMs(attempt, { baseMs: 500, capMs: 5000 }));
    }
  }
  throw lastError;
}

export interface Served {
  server: Server;
  /**
   * Answers with `Connection: close`, keeps accepting for `keepListeningMs`, then stops listening, waits for the
   * requests in flight (until `graceMs` from the start) and closes every connection.
   */
  drain(graceMs: number, keepListeningMs?: number): Promise<void>;
}

/**
 * How long an idle keep-alive connection stays open. Above Caddy's 2 minutes (its reverse_proxy default,
 * which the Caddyfile keeps): the proxy always closes an idle upstream connection first, so it never sends a
 * request on a socket Node is closing (a 502, or a POST lost). docs/operations.md "Keep-alive between Caddy and Node".
 */
export const KEEP_ALIVE_TIMEOUT_S = 125;

/** After SIGTERM, how long a draining server still accepts new connections (health probes, a proxy's last requests). */
export const LISTEN_WHILE_DRAINING_MS = 3000;

/** Serves `app` on host:port, with the keep-alive above the proxy's; `drain` ends it gracefully. */
export function listen(app: Express, port: number, host: string, portVariable = "PORT"): Promise<Served> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_S * 1000;
    // Above the keep-alive, or the headers timer could end an idle kept-alive socket first.
    server.headersTimeout = (KEEP_ALIVE_TIMEOUT_S + 5) * 1000;
    // Requests in flight: a response counts until it is finished or its client has gone.
    let inFlight = 0;
    let draining = false;
    let onIdle: (() => void) | null = null;
    // Before Express's own listener, so the header is set before any answer is written.
    server.prependListener("request", (_req, res) => {
      inFlight++;
      // While draining, every answer ends its connection, so the proxy opens its next one elsewhere.
      if (draining) res.setHeader("Connection", "close");
      res.once("close", () => {
        inFlight--;
        if (inFlight === 0) onIdle?.();
      });
    });
    const drain = async (graceMs: number, keepListeningMs = 0) => {
      draining = true;
      const deadline = Date.now() + graceMs;
      // Still listening for a moment, so probes read /readyz's 503; then new connections are refused and the
      // proxy retries them on another replica (docs/operations.md "The proxy during an upgrade"). Under steady
      // load the requests in flight thus run out, instead of being cut at the end of the grace.
      if (keepListeningMs > 0)
        await new Promise<void>((done) => setTimeout(done, Math.min(keepListeningMs, graceMs)).unref());
      const closed = new Promise<void>((done) => server.close(() => done()));
      if (inFlight > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((done) => {
          onIdle = done;
          timer = setTimeout(done, Math.max(0, deadline - Date.now()));
        });
        clearTimeout(timer);
      }
      // Idle keep-alive sockets, and any request still running past the grace, end now.
      server.closeAllConnections();
      await withinSeconds(1, closed);
    };
    server.once("listening", () => resolve({ server, drain }));
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new StartupError(
              `Port ${port} is already in use: stop what uses it or set ${portVariable} to another port.`,
            )
          : error,
      );
    });
  });
}

/** Ctrl-C is someone at a terminal: it waits this long at most, whatever SHUTDOWN_GRACE_S says. */
const INTERACTIVE_GRACE_S = 5;

/** Runs a process entry: one clear line on a known failure, a graceful stop on SIGTERM and Ctrl-C. */
export async function runMain(options: BootOptions, announce: (running: Running) => void): Promise<void> {
  let running: Running;
  try {
    loadDotenv();
    running = await boot(options);
  } catch (error) {
    if (error instanceof StartupError || error instanceof ConfigError || error instanceof SchemaTooNewError) {
      console.error(`haven: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const { log } = running.container;
  logProcessFailures(log);
  announce(running);
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A second Ctrl-C does not wait.
    if (stopping) process.exit(130);
    stopping = true;
    const graceSeconds =
      signal === "SIGINT" ? Math.min(running.env.SHUTDOWN_GRACE_S, INTERACTIVE_GRACE_S) : running.env.SHUTDOWN_GRACE_S;
    // The grace bounds each step; this bounds the whole, should a step hang regardless.
    setTimeout(
      () => {
        log.error({ graceSeconds }, "stopping took too long; exiting");
        process.exit(1);
      },
      (graceSeconds + 10) * 1000,
    ).unref();
    log.info(
      { signal, graceSeconds },
      `${signal} received: draining (requests and jobs in flight get ${graceSeconds} s), then stopping`,
    );
    // An orchestrator's SIGTERM: probes get a moment to read the 503 before new connections are refused.
    const keepListeningMs = signal === "SIGTERM" ? LISTEN_WHILE_DRAINING_MS : 0;
    await running.stop(graceSeconds, { keepListeningMs }).catch((error) => log.error({ err: error }, "stop failed"));
    log.info({ signal }, "stopped");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
