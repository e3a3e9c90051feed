import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../src/db/embedded.js";
import { freePort } from "./ports.js";
import { createKnex, migrateLatest } from "../../src/db/knex.js";

export interface ProvisionedServer {
  adminUrl: string;
  template: string;
  source: "TEST_DATABASE_URL" | "testcontainers" | "embedded";
  stop(): Promise<void>;
}

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

async function dockerAnswers(): Promise<boolean> {
  if (!process.env.DOCKER_HOST && !existsSync("/var/run/docker.sock")) return false;
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

/**
 * docs/architecture.md (tests): TEST_DATABASE_URL if set; else testcontainers when a Docker engine
 * answers; else one embedded PostgreSQL for the whole run.
 */
async function startServer(): Promise<Omit<ProvisionedServer, "template">> {
  if (process.env.TEST_DATABASE_URL) {
    return { adminUrl: process.env.TEST_DATABASE_URL, source: "TEST_DATABASE_URL", stop: async () => undefined };
  }
  if (await dockerAnswers()) {
    const { PostgreSqlContainer } = await import("@testcontainers/postgresql");
    const container = await new PostgreSqlContainer("postgres:17-alpine").start();
    return {
      adminUrl: container.getConnectionUri(),
      source: "testcontainers",
      stop: async () => void (await container.stop()),
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "haven-test-pg-"));
  // As root the server runs as a 'postgres' user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dir: path.join(dir, "data"),
    port: await freePort(),
    durable: false,
    database: "postgres",
  });
  return {
    adminUrl: server.adminUrl,
    source: "embedded",
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function provisionServer(): Promise<ProvisionedServer> {
  const server = await startServer();
  const template = `haven_template_${process.pid}`;
  await adminQuery(server.adminUrl, `drop database if exists "${template}"`);
  await adminQuery(server.adminUrl, `create database "${template}"`);
  const db = createKnex(withDatabase(server.adminUrl, template), { min: 0, max: 2 });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
  return {
    ...server,
    template,
    stop: async () => {
      await adminQuery(server.adminUrl, `drop database if exists "${template}" with (force)`).catch(() => undefined);
      await server.stop();
    },
  };
}

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template. */
export async function cloneTemplate(adminUrl: string, template: string, name: string): Promise<string> {
  await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`);
  await adminQuery(adminUrl, `create database "${name}" template "${template}"`);
  return withDatabase(adminUrl, name);
}
