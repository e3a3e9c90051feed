import path from "node:path";
import type { Env } from "../config/env.js";
import { type EmbeddedServer, type ExitInfo, embeddedUrl, isPortTaken, startEmbeddedPostgres } from "./embedded.js";

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedServer | null;
}

/** DATABASE_URL when given; otherwise the embedded PostgreSQL in DATA_DIR/postgres. */
export async function openDatabase(
  env: Env,
  options: { reuseRunning?: boolean; onEmbeddedExit?: (info: ExitInfo) => void } = {},
): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: null };
  // The CLI joins the embedded server that `npm start` already runs instead of starting a second.
  if (options.reuseRunning && (await isPortTaken(env.EMBEDDED_PG_PORT))) {
    return { url: embeddedUrl(env.EMBEDDED_PG_PORT, "haven"), embedded: null };
  }
  const embedded = await startEmbeddedPostgres({
    dir: path.join(env.DATA_DIR, "postgres"),
    port: env.EMBEDDED_PG_PORT,
    database: "haven",
    onUnexpectedExit: options.onEmbeddedExit,
  });
  return { url: embedded.url, embedded };
}
