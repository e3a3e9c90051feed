import pino from "pino";
import { loadDotenv, loadEnv } from "../src/config/env.js";
import { type Container, createContainer } from "../src/container.js";
import { openDatabase } from "../src/db/database.js";
import { createKnex } from "../src/db/knex.js";

/** Opens the database, runs one command against the container, then closes everything. */
export async function withContainer<T>(work: (container: Container) => Promise<T>): Promise<T> {
  loadDotenv();
  const env = loadEnv();
  const database = await openDatabase(env, { reuseRunning: true });
  const db = createKnex(database.url, { min: 0, max: 4 });
  const container = createContainer(env, database.url, db, { log: pino({ level: "warn" }) });
  try {
    return await work(container);
  } finally {
    await db.destroy();
    await database.embedded?.stop();
  }
}
