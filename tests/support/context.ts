import { randomBytes } from "node:crypto";
import type { Express } from "express";
import type { Knex } from "knex";
import pino from "pino";
import supertest from "supertest";
import { inject } from "vitest";
import { createApp } from "../../src/app.js";
import { type Env, loadEnv } from "../../src/config/env.js";
import { type Container, createContainer } from "../../src/container.js";
import { createKnex } from "../../src/db/knex.js";
import { adminQuery, cloneTemplate } from "./provision.js";

export interface TestContext {
  env: Env;
  /** The connection string of this context's own database. */
  url: string;
  db: Knex;
  container: Container;
  app: Express;
  /** A supertest agent that keeps cookies and, like a browser on this site, says its requests are same-origin (CSRF). */
  agent(): ReturnType<typeof supertest.agent>;
  close(): Promise<void>;
}

/** A real, freshly migrated database of its own and the app built on it. */
export async function createTestContext(envOverrides: Record<string, string> = {}): Promise<TestContext> {
  const { adminUrl, template } = inject("testDb");
  const name = `haven_t_${process.env.VITEST_POOL_ID ?? "0"}_${randomBytes(4).toString("hex")}`;
  const url = await cloneTemplate(adminUrl, template, name);
  const env = loadEnv({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: ".data/test",
    ...envOverrides,
    DATABASE_URL: url,
  });
  const db = createKnex(url, { min: 0, max: 5 });
  const container = createContainer(env, url, db, { log: pino({ level: "silent" }) });
  const app = createApp(container);
  return {
    env,
    url,
    db,
    container,
    app,
    agent: () => supertest.agent(app).set("Sec-Fetch-Site", "same-origin"),
    async close() {
      await db.destroy();
      await adminQuery(adminUrl, `drop database if exists "${name}" with (force)`).catch(() => undefined);
    },
  };
}

/** Signs a supertest agent in as a new staff user. */
export async function signInStaff(ctx: TestContext, agent = ctx.agent()) {
  const email = `staff-${randomBytes(3).toString("hex")}@haven.test`;
  const password = "correct horse battery";
  const user = await ctx.container.users.create({ email, password, firstName: "Sam", lastName: "Inspector" });
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return { agent, user, email, password };
}
