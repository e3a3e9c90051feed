// a database outage answers 503 (never 500) and heals by itself, with no Haven restart.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { loadEnv } from "../../src/config/env.js";
import { createContainer } from "../../src/container.js";
import { type EmbeddedServer, startEmbeddedPostgres } from "../../src/db/embedded.js";
import { freePort } from "../support/ports.js";
import { createKnex, migrateLatest } from "../../src/db/knex.js";
import { UNAVAILABLE_MESSAGE } from "../../src/http/errors.js";

let dir: string;
let server: EmbeddedServer;
let db: ReturnType<typeof createKnex>;
let app: ReturnType<typeof createApp>;
let exits = 0;

beforeAll(async () => {
  // A Postgres of its own: this test stops it, which the shared test server must never be.
  // Durable like `npm start`'s: a throwaway cluster (synchronous_commit off) loses its last commits
  // to a SIGKILL, such as the migrations just run.
  dir = mkdtempSync(path.join(os.tmpdir(), "haven-outage-"));
  chmodSync(dir, 0o755);
  server = await startEmbeddedPostgres({
    dir: path.join(dir, "data"),
    port: await freePort(),
    durable: true,
    database: "haven",
    onUnexpectedExit: () => exits++,
  });
  db = createKnex(server.url, { min: 0, max: 5 });
  await migrateLatest(db);
  const env = loadEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: server.url });
  const container = createContainer(env, server.url, db, { log: pino({ level: "silent" }) });
  await container.plans.seed();
  app = createApp(container);
});

afterAll(async () => {
  await db?.destroy();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const agent = () => supertest(app);
const URLS = ["/api/plans", "/api/properties", "/api/inspection-bookings", "/api/auth/user"];

async function waitFor(check: () => Promise<boolean>, what: string) {
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("a database outage", () => {
  it("answers 503 with Retry-After while Postgres is gone mid-load, then heals without a restart", async () => {
    await agent().get("/api/plans").expect(200);

    // Load in flight while the server is killed.
    const load = Promise.all(Array.from({ length: 40 }, (_, i) => agent().get(URLS[i % URLS.length]!)));
    process.kill(server.pid()!, "SIGKILL");
    const during = await load;
    during.forEach((res, i) => {
      expect([200, 401, 503], URLS[i % URLS.length]).toContain(res.status);
    });
    await waitFor(async () => (await agent().get("/healthz")).status === 503, "healthz to say 503");
    expect(exits).toBe(1);

    // While it is down: only 503s, with Retry-After and the JSON message; pages show "Be right back".
    const plans = await agent().get("/api/plans");
    expect(plans.status).toBe(503);
    expect(plans.headers["retry-after"]).toBe("5");
    expect(plans.body).toEqual({ message: UNAVAILABLE_MESSAGE });
    // Calls that need no database for an anonymous caller (an empty list) still answer.
    for (const url of URLS) expect([200, 401, 503], url).toContain((await agent().get(url)).status);
    const booking = await agent()
      .post("/api/inspection-bookings")
      .send({ propertyId: 1, scheduledDate: "2030-01-07", timeSlot: "morning" });
    expect([400, 503]).toContain(booking.status);

    // Postgres comes back (boot.ts restarts the embedded one by itself): the same app recovers.
    await server.restart();
    await waitFor(async () => (await agent().get("/healthz")).status === 200, "healthz to recover");
    for (const url of ["/api/plans", "/api/properties"]) await agent().get(url).expect(200);
  });

  it("a staff page shows the short 'Be right back' page while the database is down", async () => {
    // The same app and pool as the first case: connections that died with the killed server must not fail this login.
    const staff = supertest.agent(app).set("Sec-Fetch-Site", "same-origin");
    const email = "outage@haven.test";
    await createContainer(loadEnv({ NODE_ENV: "test", DATABASE_URL: server.url }), server.url, db, {
      log: pino({ level: "silent" }),
    }).users.create({
      email,
      password: "correct horse battery",
      firstName: "Olive",
      lastName: "Outage",
    });
    await staff.post("/api/auth/login").send({ email, password: "correct horse battery" }).expect(200);
    await server.stop();
    try {
      const res = await staff.get("/admin");
      expect(res.status).toBe(503);
      expect(res.headers["retry-after"]).toBe("5");
      expect(res.text).toContain("Be right back");
      // The login page needs no database: it still renders.
      await agent().get("/login").expect(200);
    } finally {
      await server.restart();
    }
    await waitFor(async () => (await staff.get("/api/auth/user")).status === 200, "the staff session to work again");
  });
});
