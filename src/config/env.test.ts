import { describe, expect, it } from "vitest";
import { PROVINCES } from "../modules/tax/index.js";
import { ConfigError, DEMO_BUSINESS, businessSettings, loadEnv } from "./env.js";

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

describe("the business's identity and tax settings (docs/decisions.md#32)", () => {
  const production = {
    NODE_ENV: "production",
    DATABASE_URL: "postgres://x/y",
    SESSION_SECRET: "s".repeat(40),
    PUBLIC_URL: "https://haven.example",
    STRIPE_SECRET_KEY: "sk_test_x",
    STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    STRIPE_WEBHOOK_SECRET: "whsec_x",
    SMTP_URL: "smtp://mail.example:587",
  };
  const identity = {
    BUSINESS_LEGAL_NAME: "Rideau Home Care Ltd.",
    BUSINESS_ADDRESS: "1 Main Street, Ottawa ON K1S 2B4",
    GST_HST_NUMBER: "987654321 RT0001",
  };

  it("has the demo identity, Ontario and no Stripe Tax by default outside production", () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ BUSINESS_PROVINCE: "ON", BUSINESS_TAX_REGISTERED: true, STRIPE_AUTOMATIC_TAX: false });
    expect(businessSettings(env)).toEqual({
      legalName: DEMO_BUSINESS.legalName,
      address: DEMO_BUSINESS.address,
      gstHstNumber: "123456789 RT0001",
      qstNumber: "1234567890 TQ0001",
      province: "ON",
      taxRegistered: true,
    });
  });

  it("reads the settings, writes the GST/HST number in one form and refuses a malformed one", () => {
    const env = loadEnv({
      ...identity,
      GST_HST_NUMBER: "987654321rt0001",
      BUSINESS_PROVINCE: "qc",
      STRIPE_AUTOMATIC_TAX: "true",
    });
    expect(businessSettings(env)).toMatchObject({
      legalName: "Rideau Home Care Ltd.",
      gstHstNumber: "987654321 RT0001",
      province: "QC",
    });
    expect(env.STRIPE_AUTOMATIC_TAX).toBe(true);
    expect(() => loadEnv({ GST_HST_NUMBER: "12345678 RT0001" })).toThrow(/GST_HST_NUMBER must be a business number/);
    expect(() => loadEnv({ GST_HST_NUMBER: "123456789 RC0001" })).toThrow(/like 123456789 RT0001/);
    // Revenu Québec's number, spaced as it prints (docs/decisions.md#51).
    expect(businessSettings(loadEnv({ QST_NUMBER: "1006123456tq0001" })).qstNumber).toBe("1006123456 TQ0001");
    expect(() => loadEnv({ QST_NUMBER: "123456789 RT0001" })).toThrow(/QST_NUMBER must be .*1234567890 TQ0001/);
    expect(() => loadEnv({ BUSINESS_PROVINCE: "ZZ" })).toThrow(/BUSINESS_PROVINCE must be one of/);
    expect(() => loadEnv({ BUSINESS_TAX_REGISTERED: "maybe" })).toThrow(
      /BUSINESS_TAX_REGISTERED must be true or false/,
    );
    expect(() => loadEnv({ STRIPE_AUTOMATIC_TAX: "yes please" })).toThrow(/STRIPE_AUTOMATIC_TAX must be true or false/);
  });

  it("knows the same provinces as the tax module", () => {
    expect(() => loadEnv({ BUSINESS_PROVINCE: "NU" })).not.toThrow();
    for (const province of PROVINCES) expect(loadEnv({ BUSINESS_PROVINCE: province }).BUSINESS_PROVINCE).toBe(province);
  });

  it("refuses production billing with Stripe without the identity, naming each missing setting", () => {
    expect(() => loadEnv(production)).toThrow(ConfigError);
    expect(() => loadEnv(production)).toThrow(
      /^Invalid configuration: BUSINESS_LEGAL_NAME, BUSINESS_ADDRESS, GST_HST_NUMBER must be set in production to bill with Stripe .*BUSINESS_TAX_REGISTERED=false/,
    );
    expect(() => loadEnv({ ...production, ...identity, GST_HST_NUMBER: "" })).toThrow(
      /^Invalid configuration: GST_HST_NUMBER must be set in production/,
    );
    expect(businessSettings(loadEnv({ ...production, ...identity }))).toMatchObject({
      legalName: "Rideau Home Care Ltd.",
      gstHstNumber: "987654321 RT0001",
    });
  });

  it("starts production without a number when the operator says the business is not registered, or takes no payments", () => {
    const unregistered = loadEnv({ ...production, ...identity, GST_HST_NUMBER: "", BUSINESS_TAX_REGISTERED: "false" });
    expect(businessSettings(unregistered)).toMatchObject({ gstHstNumber: null, taxRegistered: false });
    expect(loadEnv({ ...production, PAYMENTS_MODE: "demo" }).PAYMENTS_MODE).toBe("demo");
  });
});
