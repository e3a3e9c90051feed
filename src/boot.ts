import type { Server } from "node:http";
import type { Runner } from "graphile-worker";
import { createApp } from "./app.js";
import { ConfigError, type Env, loadDotenv, loadEnv } from "./config/env.js";
import { type Container, createContainer } from "./container.js";
import { type DatabaseHandle, openDatabase } from "./db/database.js";
import { type EmbeddedServer, EmbeddedStartError, type ExitInfo, PortInUseError } from "./db/embedded.js";
import { createKnex, migrateLatest } from "./db/knex.js";
import { startWorker } from "./worker-runner.js";

export interface BootOptions {
  web: boolean;
  worker: boolean;
  /** Migrate to the latest schema before serving. */
  migrate: boolean;
  /** Seed plans and demo data when the database is new. */
  seedIfEmpty: boolean;
}

export interface Running {
  env: Env;
  container: Container;
  url: string | null;
  stop(): Promise<void>;
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
      console.error(`haven: the embedded Postgres stopped (${how}) again, ${restarts.length} times in a minute: giving up. Check ${env.DATA_DIR}/postgres, then start Haven again.`);
      process.exit(1);
    }
    console.error(`haven: the embedded Postgres stopped unexpectedly (${how}); restarting it…`);
    restartEmbedded(database.embedded!).then(
      () => console.error("haven: the embedded Postgres is running again."),
      (error: Error) => {
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
  const db = createKnex(database.url);
  const container = createContainer(env, database.url, db);
  let server: Server | null = null;
  let worker: Runner | null = null;
  // Ctrl-C stays quick whatever state the database is in: idle keep-alive sockets close now, and each
  // step that waits on the database (a job in flight, the pool) gets a few seconds at most.
  const stop = async () => {
    stopping = true;
    const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeIdleConnections?.();
    await withinSeconds(3, closed);
    server?.closeAllConnections?.();
    await withinSeconds(5, worker?.stop());
    await withinSeconds(3, db.destroy());
    await database.embedded?.stop();
  };
  try {
    try {
      await db.raw("select 1");
    } catch (error) {
      throw new StartupError(`Cannot reach the database: ${(error as Error).message}`);
    }
    if (options.migrate) await migrateLatest(db);
    // Demo data and the published demo login are for local use only.
    if (options.seedIfEmpty && env.NODE_ENV !== "production") {
      const { seedIfEmpty } = await import("../seeds/index.js");
      await seedIfEmpty(container);
    }
    // Plans are reference data every deployment needs; only missing ones are inserted.
    if (options.migrate) await container.plans.seed();
    if (options.worker) worker = await startWorker(container);
    let url: string | null = null;
    if (options.web) {
      const app = createApp(container);
      server = await listen(app, env.PORT, env.HOST);
      url = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
    }
    return { env, container, url, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** Waits for the work, or for `seconds`, whichever comes first (a stuck step must not hold up Ctrl-C). */
async function withinSeconds(seconds: number, work: Promise<unknown> | undefined): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, seconds * 1000)))]);
  clearTimeout(timer);
}

/** Starts a dead embedded Postgres again, retrying while its old processes finish exiting. */
async function restartEmbedded(server: EmbeddedServer): Promise<void> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      return await server.restart();
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
  throw lastError;
}

function listen(app: ReturnType<typeof createApp>, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.once("listening", () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new StartupError(`Port ${port} is already in use: stop what uses it or set PORT to another port.`)
          : error,
      );
    });
  });
}

/** Runs a process entry: one clear line on a known failure, a clean stop on Ctrl-C. */
export async function runMain(options: BootOptions, announce: (running: Running) => void): Promise<void> {
  let running: Running;
  try {
    loadDotenv();
    running = await boot(options);
  } catch (error) {
    if (error instanceof StartupError || error instanceof ConfigError) {
      console.error(`haven: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  announce(running);
  let stopping = false;
  const shutdown = async (signal: string) => {
    // A second Ctrl-C does not wait.
    if (stopping) process.exit(130);
    stopping = true;
    setTimeout(() => {
      console.error("haven: stopping took too long; exiting.");
      process.exit(1);
    }, 15_000).unref();
    console.log(`\nhaven: ${signal} received, stopping…`);
    await running.stop().catch((error) => console.error(`haven: stop failed: ${(error as Error).message}`));
    console.log("haven: stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
