import { existsSync } from "node:fs";
import path from "node:path";
import type { Knex } from "knex";
import type { Logger } from "pino";
import { AssetsMissingError, PUBLIC_BUILD_DIR, loadAssets } from "../http/assets.js";
import { compareSchema, schemaFits } from "../db/knex.js";
import { Outage, backoffMs } from "../db/reconnect.js";

/** What a process tells its health checks: set `draining` at SIGTERM and /readyz answers 503 at once. */
export interface Lifecycle {
  draining: boolean;
}

export const newLifecycle = (): Lifecycle => ({ draining: false });

export interface Readiness {
  ready: boolean;
  checks: {
    draining: boolean;
    database: "up" | "down";
    migrations: "current" | "pending" | "unknown";
    assets?: "present" | "missing";
  };
}

/** Every built file a page links to exists (a web process serves them). */
export function assetsPresent(): boolean {
  try {
    const assets = loadAssets();
    return [...assets.css, assets.siteJs, assets.islandsJs, assets.adminJs].every((file) =>
      existsSync(path.join(PUBLIC_BUILD_DIR, file)),
    );
  } catch (error) {
    if (error instanceof AssetsMissingError || error instanceof SyntaxError) return false;
    throw error;
  }
}

/**
 * Whether this code can serve on the database: every migration it knows applied, and no newer contract
 * migration. A newer release's additive ones are fine: that is the previous image after an upgrade.
 */
async function migrationsCurrent(db: Knex): Promise<boolean> {
  return schemaFits(await compareSchema(db));
}

/**
 * Ready to take traffic: not shutting down, the database answers, its schema is this code's, and (for a
 * web process) the built assets are there. Each check is reported, so a 503 says which one failed.
 */
export async function readiness(
  db: Knex,
  lifecycle: Lifecycle,
  options: { assets: boolean; timeoutMs?: number },
): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  let database: "up" | "down" = "down";
  let migrations: Readiness["checks"]["migrations"] = "unknown";
  if (await watchOf(db).answers(timeoutMs)) {
    database = "up";
    migrations = (await within(timeoutMs, migrationsCurrent(db))) === true ? "current" : "pending";
  }
  const checks: Readiness["checks"] = { draining: lifecycle.draining, database, migrations };
  if (options.assets) checks.assets = assetsPresent() ? "present" : "missing";
  const ready = !checks.draining && database === "up" && migrations === "current" && checks.assets !== "missing";
  return { ready, checks };
}

/** The work's result, or undefined when it fails or takes longer than `ms`. */
async function within<T>(ms: number, work: PromiseLike<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([Promise.resolve(work).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness probe's view of the database (docs/operations.md "Outages"). One `select 1` at a
 * time, whatever the number of probes; while the database is away, probes within a short jittered backoff
 * (at most 2 s, so /readyz turns 200 within seconds of its return) answer "down" without trying; the outage
 * is logged once when it starts and once when it ends.
 */
class DatabaseWatch {
  private pending: Promise<boolean> | null = null;
  private failures = 0;
  private retryAt = 0;
  outage: Outage | null = null;

  constructor(private readonly db: Knex) {}

  async answers(timeoutMs: number): Promise<boolean> {
    if (this.failures > 0 && Date.now() < this.retryAt) return false;
    // A query that hangs (rather than fails) stays the one attempt in flight until it ends.
    this.pending ??= this.db.raw("select 1").then(
      () => {
        this.failures = 0;
        this.outage?.back();
        this.pending = null;
        return true;
      },
      (error: unknown) => {
        this.failed(error);
        this.pending = null;
        return false;
      },
    );
    const up = await within(timeoutMs, this.pending);
    if (up === undefined) this.failed(new Error(`the database did not answer within ${timeoutMs} ms`));
    return up === true;
  }

  private failed(error: unknown) {
    this.failures++;
    this.retryAt = Date.now() + backoffMs(this.failures - 1, { capMs: 2000 });
    this.outage?.lost(error);
  }
}

const watches = new WeakMap<Knex, DatabaseWatch>();
const watchOf = (db: Knex) => {
  const watch = watches.get(db) ?? new DatabaseWatch(db);
  watches.set(db, watch);
  return watch;
};

/** Logs the outages the readiness checks see on this pool, once when each starts and once when it ends. */
export function logDatabaseOutages(db: Knex, log: Logger): void {
  watchOf(db).outage = new Outage(
    log,
    "database connection",
    "database connection lost; /readyz answers 503 until it is back",
  );
}
