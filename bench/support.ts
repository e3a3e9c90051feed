import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import type { Express } from "express";
import pino from "pino";
import { createApp } from "../src/app.js";
import { loadEnv } from "../src/config/env.js";
import { type Container, createContainer } from "../src/container.js";
import { freePort, startEmbeddedPostgres } from "../src/db/embedded.js";
import { createKnex, migrateLatest } from "../src/db/knex.js";
import { seedAll } from "../seeds/index.js";

export interface BenchApp {
  container: Container;
  app: Express;
  baseUrl: string;
  stop(): Promise<void>;
}

/** A real Haven on a throwaway embedded Postgres (or BENCH_DATABASE_URL), seeded and listening. */
export async function startBenchApp(): Promise<BenchApp> {
  let url = process.env.BENCH_DATABASE_URL;
  let stopDb = async () => {};
  if (!url) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "haven-bench-pg-"));
    chmodSync(dir, 0o755);
    const pg = await startEmbeddedPostgres({
      dir: path.join(dir, "data"),
      port: await freePort(),
      durable: false,
      database: "haven_bench",
    });
    url = pg.url;
    stopDb = async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  // Production settings, said on purpose: demo payments, mail written to files, and the address it listens at
  // (PUBLIC_URL is the CSRF origin, so the port is chosen before the app is made).
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-bench-data-"));
  const env = loadEnv({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    DATABASE_URL: url,
    SESSION_SECRET: "bench-session-secret-0123456789-abcdefghij",
    PUBLIC_URL: baseUrl,
    PAYMENTS_MODE: "demo",
    MAIL_MODE: "outbox",
    DATA_DIR: dataDir,
  });
  const db = createKnex(url, { min: 0, max: 10 });
  await migrateLatest(db);
  const container = createContainer(env, url, db, { log: pino({ level: "silent" }) });
  await seedAll(container);
  const app = createApp(container);
  const { server } = await listen(app, port);
  return {
    container,
    app,
    baseUrl,
    async stop() {
      await close(server);
      await db.destroy();
      await stopDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function listen(app: Express, wanted?: number): Promise<{ server: Server; baseUrl: string }> {
  const port = wanted ?? (await freePort());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(port, "127.0.0.1", () => resolve(s));
  });
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-CA", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function verdict(ok: boolean): string {
  return ok ? "within budget" : "OVER BUDGET";
}

export interface BenchStaff {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Creates the bench's staff user when missing, signs it in over HTTP and returns the session cookie to send. */
export async function staffCookie(
  haven: { container: Container; baseUrl: string },
  staff: BenchStaff,
): Promise<string> {
  await haven.container.users.ensure(staff);
  const res = await fetch(`${haven.baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: haven.baseUrl, "Sec-Fetch-Site": "same-origin" },
    body: JSON.stringify({ email: staff.email, password: staff.password }),
  });
  if (!res.ok) throw new Error(`bench login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** The p-th percentile of ascending-sorted figures (nearest rank). */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
