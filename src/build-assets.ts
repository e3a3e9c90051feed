import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "./http/assets.js";

const MANIFEST = path.join(ROOT_DIR, "dist/public/.vite/manifest.json");
const SOURCES = ["islands", "public", "views", "vite.config.ts", "package-lock.json"];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when the build is missing or older than any source it is built from. */
export function assetsAreStale(): boolean {
  if (!existsSync(MANIFEST)) return true;
  const built = statSync(MANIFEST).mtimeMs;
  return SOURCES.some((source) => newestMtime(path.join(ROOT_DIR, source)) > built);
}

/** Builds the assets with Vite when they are missing or stale. */
export async function ensureAssets(log: (line: string) => void = console.log): Promise<void> {
  if (!assetsAreStale()) return;
  log("haven: building assets…");
  const { build } = await import("vite");
  // Vite sets NODE_ENV=production for its build; the app must not inherit that.
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build({ root: ROOT_DIR, configFile: path.join(ROOT_DIR, "vite.config.ts"), logLevel: "warn" });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
