import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env.js";

describe("loadEnv", () => {
  it("has working development defaults", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      PORT: 3000,
      BUSINESS_TZ: "America/Toronto",
      WORKER_MODE: "inline",
    });
  });

  it("refuses the default session secret in production", () => {
    expect(() => loadEnv({ NODE_ENV: "production", DATABASE_URL: "postgres://x/y" })).toThrow(
      /SESSION_SECRET must be set in production/,
    );
  });

  it("refuses production without DATABASE_URL", () => {
    expect(() => loadEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(40) })).toThrow(ConfigError);
  });

  it("names each invalid variable", () => {
    expect(() => loadEnv({ PORT: "http", SESSION_SECRET: "short" })).toThrow(
      /PORT: .*SESSION_SECRET: SESSION_SECRET must be at least 32 characters/,
    );
  });

  it("refuses a BUSINESS_TZ that is not a time zone, and names it", () => {
    expect(() => loadEnv({ BUSINESS_TZ: "Mars/Olympus_Mons" })).toThrow(ConfigError);
    expect(() => loadEnv({ BUSINESS_TZ: "Mars/Olympus_Mons" })).toThrow(
      /BUSINESS_TZ: "Mars\/Olympus_Mons" is not a time zone/,
    );
    expect(() => loadEnv({ BUSINESS_TZ: "Toronto" })).toThrow(/BUSINESS_TZ/);
  });

  it("accepts IANA time zones, and a blank BUSINESS_TZ means the default", () => {
    expect(loadEnv({ BUSINESS_TZ: "America/Regina" }).BUSINESS_TZ).toBe("America/Regina");
    expect(loadEnv({ BUSINESS_TZ: "UTC" }).BUSINESS_TZ).toBe("UTC");
    expect(loadEnv({ BUSINESS_TZ: "" }).BUSINESS_TZ).toBe("America/Toronto");
  });

  it("refuses STRIPE_SECRET_KEY without STRIPE_PUBLISHABLE_KEY, naming the missing variable", () => {
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(ConfigError);
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY must be set when STRIPE_SECRET_KEY is/,
    );
    expect(() => loadEnv({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "  " })).toThrow(
      /STRIPE_PUBLISHABLE_KEY/,
    );
    expect(loadEnv({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" })).toMatchObject({
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    });
  });

  it("picks the payment and mail modes from the keys outside production, and follows explicit ones", () => {
    expect(loadEnv({})).toMatchObject({ PAYMENTS_MODE: "demo", MAIL_MODE: "outbox" });
    const stripe = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" };
    expect(loadEnv({ ...stripe, SMTP_URL: "smtp://mail:1025" })).toMatchObject({
      PAYMENTS_MODE: "stripe",
      MAIL_MODE: "smtp",
    });
    // Explicit demo and outbox win over keys that are set.
    expect(
      loadEnv({ ...stripe, SMTP_URL: "smtp://mail:1025", PAYMENTS_MODE: "demo", MAIL_MODE: "outbox" }),
    ).toMatchObject({ PAYMENTS_MODE: "demo", MAIL_MODE: "outbox" });
    // Demo needs no publishable key, even with a secret key set.
    expect(loadEnv({ STRIPE_SECRET_KEY: "sk_test_x", PAYMENTS_MODE: "demo" }).PAYMENTS_MODE).toBe("demo");
  });

  it("refuses an explicit stripe or smtp mode without its keys, anywhere", () => {
    expect(() => loadEnv({ PAYMENTS_MODE: "stripe" })).toThrow(
      "Invalid configuration: STRIPE_SECRET_KEY is not set; set it, or PAYMENTS_MODE=demo to take no real payments",
    );
    expect(() => loadEnv({ MAIL_MODE: "smtp" })).toThrow(
      "Invalid configuration: SMTP_URL is not set; set it, or MAIL_MODE=outbox to write e-mail to files instead of sending it",
    );
    expect(() => loadEnv({ PAYMENTS_MODE: "test" })).toThrow(/PAYMENTS_MODE: /);
    expect(() => loadEnv({ MAIL_MODE: "log" })).toThrow(/MAIL_MODE: /);
  });

  it("treats blank optional variables as unset (docker-compose passes an unset variable as an empty string)", () => {
    const env = loadEnv({
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      SMTP_URL: "",
      PUBLIC_URL: "",
    });
    expect(env.STRIPE_SECRET_KEY).toBeUndefined();
    expect(env.STRIPE_PUBLISHABLE_KEY).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    // PUBLIC_URL then has its development default.
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
  });
});
