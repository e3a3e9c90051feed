import type { Server } from "node:http";
import type { Runner } from "graphile-worker";
import { createApp } from "./app.js";
import { ConfigError, type Env, loadDotenv, loadEnv } from "./config/env.js";
import { type Container, createContainer } from "./container.js";
import { type DatabaseHandle, openDatabase } from "./db/database.js";
import { EmbeddedStartError, PortInUseError } from "./db/embedded.js";
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
  try {
    database = await openDatabase(env);
  } catch (error) {
    if (error instanceof PortInUseError || error instanceof EmbeddedStartError) throw new StartupError(error.message);
    throw new StartupError(`Postgres could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const db = createKnex(database.url);
  const container = createContainer(env, database.url, db);
  let server: Server | null = null;
  let worker: Runner | null = null;
  const stop = async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server?.closeAllConnections?.();
    await worker?.stop();
    await db.destroy();
    await database.embedded?.stop();
  };
  try {
    try {
      await db.raw("select 1");
    } catch (error) {
      throw new StartupError(`Cannot reach the database: ${(error as Error).message}`);
    }
    if (options.migrate) await migrateLatest(db);
    if (options.seedIfEmpty) {
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
    if (stopping) return;
    stopping = true;
    console.log(`\nhaven: ${signal} received, stopping…`);
    await running.stop().catch((error) => console.error(`haven: stop failed: ${(error as Error).message}`));
    console.log("haven: stopped.");
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
