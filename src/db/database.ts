import path from "node:path";
import type { Env } from "../config/env.js";
import { type EmbeddedServer, startEmbeddedPostgres } from "./embedded.js";

export interface DatabaseHandle {
  url: string;
  embedded: EmbeddedServer | null;
}

/** DATABASE_URL when given; otherwise the embedded PostgreSQL in DATA_DIR/postgres. */
export async function openDatabase(env: Env): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dir: path.join(env.DATA_DIR, "postgres"),
    port: env.EMBEDDED_PG_PORT,
    database: "haven",
  });
  return { url: embedded.url, embedded };
}
