import { existsSync } from "node:fs";
import path from "node:path";
import type { Knex } from "knex";
import { AssetsMissingError, PUBLIC_BUILD_DIR, loadAssets } from "../http/assets.js";
import { compareSchema, schemaFits } from "../db/knex.js";

/** What a process tells its health checks: set `draining` at SIGTERM and /readyz answers 503 at once. */
export interface Lifecycle {
  draining: boolean;
}

export const newLifecycle = (): Lifecycle => ({ draining: false });

export interface Readiness {
  ready: boolean;
  checks: { draining: boolean; database: "up" | "down"; migrations: "current" | "pending" | "unknown"; assets?: "present" | "missing" };
}

/** Every built file a page links to exists (a web process serves them). */
export function assetsPresent(): boolean {
  try {
    const assets = loadAssets();
    return [...assets.css, assets.siteJs, assets.islandsJs, assets.adminJs].every((file) => existsSync(path.join(PUBLIC_BUILD_DIR, file)));
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
export async function readiness(db: Knex, lifecycle: Lifecycle, options: { assets: boolean; timeoutMs?: number }): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2000;
  let database: "up" | "down" = "down";
  let migrations: Readiness["checks"]["migrations"] = "unknown";
  // A database that hangs (rather than refuses) must not hang the health check with it.
  if (await within(timeoutMs, db.raw("select 1"))) {
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
