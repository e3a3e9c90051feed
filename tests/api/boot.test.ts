import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StartupError, boot } from "../../src/boot.js";
import { loadEnv } from "../../src/config/env.js";
import { startEmbeddedPostgres } from "../../src/db/embedded.js";
import { freePort } from "../support/ports.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
let blocker: net.Server;
let takenPort: number;

beforeAll(async () => {
  ctx = await createTestContext();
  takenPort = await freePort();
  blocker = net.createServer().listen(takenPort, "127.0.0.1");
  await new Promise((resolve) => blocker.once("listening", resolve));
});
afterAll(async () => {
  blocker?.close();
  await ctx.close();
});

const env = (extra: Record<string, string>) =>
  loadEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", HOST: "127.0.0.1", ...extra });

describe("boot", () => {
  it("serves, migrates and seeds plans, then stops cleanly", async () => {
    const port = await freePort();
    const running = await boot(
      { web: true, worker: true, migrate: true, seedIfEmpty: true },
      env({ DATABASE_URL: ctx.url, PORT: String(port) }),
    );
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await res.json()).toEqual({ status: "ok", database: "up" });
      expect(await ctx.db("plans").count({ n: "*" })).toEqual([{ n: 3 }]);
      // The demo login (an owner) and the demo data's three inspectors (docs/decisions.md#37).
      expect(await ctx.db("staff_users").select("role").count({ n: "*" }).groupBy("role").orderBy("role")).toEqual([
        { role: "inspector", n: 3 },
        { role: "owner", n: 1 },
      ]);
    } finally {
      await running.stop();
    }
    // A second boot finds the data and seeds nothing again.
    const again = await boot(
      { web: false, worker: false, migrate: true, seedIfEmpty: true },
      env({ DATABASE_URL: ctx.url }),
    );
    await again.stop();
    expect(await ctx.db("staff_users").count({ n: "*" })).toEqual([{ n: 4 }]);
  });

  it("says in one line when the web port is taken", async () => {
    const attempt = boot(
      { web: true, worker: false, migrate: false, seedIfEmpty: false },
      env({ DATABASE_URL: ctx.url, PORT: String(takenPort) }),
    );
    await expect(attempt).rejects.toThrow(StartupError);
    await expect(attempt).rejects.toThrow(
      `Port ${takenPort} is already in use: stop what uses it or set PORT to another port.`,
    );
  });

  it("says in one line when the embedded Postgres port is taken", async () => {
    const attempt = boot(
      { web: false, worker: false, migrate: false, seedIfEmpty: false },
      env({ EMBEDDED_PG_PORT: String(takenPort), DATA_DIR: "/tmp/haven-boot-test" }),
    );
    await expect(attempt).rejects.toThrow(`Port ${takenPort} for the embedded Postgres is taken`);
  });

  it("says in one line when the database cannot be reached", async () => {
    const closedPort = await freePort();
    const attempt = boot(
      { web: false, worker: false, migrate: true, seedIfEmpty: false },
      env({ DATABASE_URL: `postgres://nobody:x@127.0.0.1:${closedPort}/none` }),
    );
    await expect(attempt).rejects.toThrow(/^Cannot reach the database: /);
  });

  it("says in one line when another Haven already runs on the embedded Postgres folder", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "haven-boot-busy-"));
    chmodSync(dir, 0o755);
    const first = await startEmbeddedPostgres({
      dir: path.join(dir, "postgres"),
      port: await freePort(),
      durable: false,
      database: "haven",
    });
    try {
      const attempt = boot(
        { web: false, worker: false, migrate: false, seedIfEmpty: false },
        env({ DATA_DIR: dir, EMBEDDED_PG_PORT: String(await freePort()) }),
      );
      await expect(attempt).rejects.toThrow(StartupError);
      await expect(attempt).rejects.toThrow(
        /postgres is already in use by Postgres process \d+ \(is another Haven running\?\): stop it first, or set DATA_DIR\.$/,
      );
    } finally {
      await first.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
