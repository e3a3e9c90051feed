// Runtime settings from the environment: WORKER_MODE's one default, the pool size, the worker's
// concurrency, statement_timeout and the shutdown grace, with today's values when unset.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boot } from "../../src/boot.js";
import { loadEnv } from "../../src/config/env.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const env = (extra: Record<string, string>) =>
  loadEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", DATABASE_URL: ctx.url, ...extra });

describe("runtime settings", () => {
  it("default to one worker mode (inline) and today's pool, concurrency and timeouts", () => {
    const defaults = loadEnv({ NODE_ENV: "test" });
    expect(defaults).toMatchObject({
      WORKER_MODE: "inline",
      WORKER_CONCURRENCY: 2,
      DB_POOL_MAX: 10,
      // Each connection of the pool is bounded (docs/decisions.md#46).
      STATEMENT_TIMEOUT_MS: 30_000,
      LOCK_TIMEOUT_MS: 5_000,
      IDLE_IN_TRANSACTION_TIMEOUT_MS: 60_000,
      SHUTDOWN_GRACE_S: 25,
    });
    expect(defaults.WORKER_PORT).toBeUndefined();
    expect(defaults.METRICS_TOKEN).toBeUndefined();
    // docker-compose passes unset variables as empty strings.
    expect(loadEnv({ NODE_ENV: "test", WORKER_MODE: "", DB_POOL_MAX: "", SHUTDOWN_GRACE_S: "" })).toMatchObject({
      WORKER_MODE: "inline",
      DB_POOL_MAX: 10,
      SHUTDOWN_GRACE_S: 25,
    });
  });

  it("refuses bad values, naming the variable", () => {
    expect(() => loadEnv({ NODE_ENV: "test", WORKER_MODE: "both" })).toThrow(/WORKER_MODE/);
    expect(() => loadEnv({ NODE_ENV: "test", DB_POOL_MAX: "0" })).toThrow(/DB_POOL_MAX/);
    expect(() => loadEnv({ NODE_ENV: "test", WORKER_CONCURRENCY: "many" })).toThrow(/WORKER_CONCURRENCY/);
    expect(() => loadEnv({ NODE_ENV: "test", STATEMENT_TIMEOUT_MS: "-1" })).toThrow(/STATEMENT_TIMEOUT_MS/);
    expect(() => loadEnv({ NODE_ENV: "test", LOCK_TIMEOUT_MS: "soon" })).toThrow(/LOCK_TIMEOUT_MS/);
    expect(() => loadEnv({ NODE_ENV: "test", IDLE_IN_TRANSACTION_TIMEOUT_MS: "-5" })).toThrow(
      /IDLE_IN_TRANSACTION_TIMEOUT_MS/,
    );
    expect(() => loadEnv({ NODE_ENV: "test", METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN/);
  });

  it("a web process runs the worker as WORKER_MODE says", async () => {
    const inline = await boot({ web: false, worker: "mode", migrate: false, seedIfEmpty: false }, env({}));
    await inline.stop();
    expect(inline.runsWorker).toBe(true);
    const separate = await boot(
      { web: false, worker: "mode", migrate: false, seedIfEmpty: false },
      env({ WORKER_MODE: "separate" }),
    );
    await separate.stop();
    expect(separate.runsWorker).toBe(false);
  });

  it("sizes the pool and bounds statements from the environment", async () => {
    const running = await boot(
      { web: false, worker: false, migrate: false, seedIfEmpty: false },
      env({ DB_POOL_MAX: "3", STATEMENT_TIMEOUT_MS: "300" }),
    );
    try {
      const { db } = running.container;
      expect((db.client.pool as { max: number }).max).toBe(3);
      const { rows } = await db.raw("show statement_timeout");
      expect(rows[0].statement_timeout).toBe("300ms");
      await expect(db.raw("select pg_sleep(5)")).rejects.toThrow(/statement timeout/);
    } finally {
      await running.stop();
    }
  });
});
