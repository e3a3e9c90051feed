import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env.js";

describe("loadEnv", () => {
  it("has working development defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ NODE_ENV: "development", PORT: 3000, BUSINESS_TZ: "America/Toronto", WORKER_MODE: "inline" });
  });

  it("refuses the default session secret in production", () => {
    expect(() => loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://x/y" })).toThrow(/SESSION_SECRET must be set in production/);
  });

  it("refuses production without DATABASE_URL", () => {
    expect(() => loadEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(40) })).toThrow(ConfigError);
  });

  it("names each invalid variable", () => {
    expect(() => loadEnv({ PORT: "http", SESSION_SECRET: "short" })).toThrow(/PORT: .*SESSION_SECRET: SESSION_SECRET must be at least 32 characters/);
  });
});
