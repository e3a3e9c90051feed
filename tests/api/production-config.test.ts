// Modes that cannot be mistaken: production refuses, in one line naming the variable, to
// start without real payments or real mail unless PAYMENTS_MODE=demo / MAIL_MODE=outbox say so; the
// explicit demo modes start, warn, and (payments) show a banner on every customer page.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "../../src/config/env.js";
import { freePort } from "../support/ports.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type HavenProcess, killAll, spawnHaven, waitUntilServing } from "../support/processes.js";
import { type Smtp, startSmtp } from "../support/smtp.js";
import { STAND_IN_KEYS } from "../support/stripe-stand-in.js";

const BANNER = "Demo payments: no card is charged";

// Every variable production needs, with real payments and real mail.
const PRODUCTION = {
  NODE_ENV: "production",
  DATABASE_URL: "postgres://haven:secret@db:5432/haven",
  SESSION_SECRET: "s".repeat(48),
  PUBLIC_URL: "https://haven.example.com",
  ...STAND_IN_KEYS,
  SMTP_URL: "smtp://mail.example.com:587",
  // The business's identity: production bills with Stripe only with it (docs/decisions.md#32).
  BUSINESS_LEGAL_NAME: "Haven Home Health Inc.",
  BUSINESS_ADDRESS: "200 Elgin Street, Ottawa ON K2P 1L5",
  GST_HST_NUMBER: "123456789 RT0001",
} as const;

const without = (...names: (keyof typeof PRODUCTION)[]) =>
  Object.fromEntries(Object.entries(PRODUCTION).filter(([name]) => !names.includes(name as keyof typeof PRODUCTION)));

/** The one line loadEnv refuses with. */
function refusal(source: Record<string, string>): string {
  try {
    loadEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("loadEnv accepted the configuration");
}

describe("production configuration", () => {
  it("starts with every key, in stripe and smtp modes", () => {
    expect(loadEnv({ ...PRODUCTION })).toMatchObject({ PAYMENTS_MODE: "stripe", MAIL_MODE: "smtp" });
  });

  it("refuses each missing variable in one line that names it", () => {
    const cases: [Record<string, string>, string][] = [
      [
        without("STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY"),
        "Invalid configuration: STRIPE_SECRET_KEY is not set; set it, or PAYMENTS_MODE=demo to take no real payments",
      ],
      [
        without("SMTP_URL"),
        "Invalid configuration: SMTP_URL is not set; set it, or MAIL_MODE=outbox to write e-mail to files instead of sending it",
      ],
      [
        without("STRIPE_WEBHOOK_SECRET"),
        "Invalid configuration: STRIPE_WEBHOOK_SECRET must be set in production when Stripe is on",
      ],
      [
        without("STRIPE_PUBLISHABLE_KEY"),
        "Invalid configuration: STRIPE_PUBLISHABLE_KEY must be set when STRIPE_SECRET_KEY is",
      ],
      [without("PUBLIC_URL"), "Invalid configuration: PUBLIC_URL must be set in production"],
      [
        { ...PRODUCTION, PAYMENTS_MODE: "stripe", STRIPE_SECRET_KEY: "" },
        "Invalid configuration: STRIPE_SECRET_KEY is not set",
      ],
      [{ ...PRODUCTION, MAIL_MODE: "smtp", SMTP_URL: " " }, "Invalid configuration: SMTP_URL is not set"],
    ];
    for (const [source, message] of cases) {
      const line = refusal(source);
      expect(line.startsWith(message), `${line}\nshould start with\n${message}`).toBe(true);
      expect(line).not.toContain("\n");
    }
  });

  it("runs demo payments and the mail outbox only when they are said on purpose", () => {
    const demo = loadEnv({
      ...without("STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"),
      PAYMENTS_MODE: "demo",
    });
    expect(demo).toMatchObject({ PAYMENTS_MODE: "demo", MAIL_MODE: "smtp" });
    const outbox = loadEnv({ ...without("SMTP_URL"), MAIL_MODE: "outbox" });
    expect(outbox).toMatchObject({ PAYMENTS_MODE: "stripe", MAIL_MODE: "outbox" });
    // Demo payments need no webhook secret: Stripe is off.
    expect(loadEnv({ ...PRODUCTION, STRIPE_WEBHOOK_SECRET: "", PAYMENTS_MODE: "demo" }).PAYMENTS_MODE).toBe("demo");
  });
});

describe("a production start", () => {
  let ctx: TestContext;
  let smtp: Smtp;
  let dataDir: string;
  const processes: HavenProcess[] = [];

  beforeAll(async () => {
    ctx = await createTestContext();
    smtp = await startSmtp();
    dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-prod-config-"));
  });
  afterAll(async () => {
    await killAll(processes);
    await smtp?.close();
    await ctx?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** A production web process on the test database; unset variables are passed blank (blank counts as unset). */
  async function start(name: string, env: Record<string, string>) {
    const port = await freePort();
    const blank = {
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      STRIPE_API_BASE: "",
      SMTP_URL: "",
      PAYMENTS_MODE: "",
      MAIL_MODE: "",
    };
    const proc = spawnHaven(name, "src/server.ts", {
      ...blank,
      ...PRODUCTION,
      DATABASE_URL: ctx.url,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      WORKER_MODE: "off",
      LOG_LEVEL: "info",
      ...env,
    });
    processes.push(proc);
    return proc;
  }

  // loadEnv's tests above cover every refusal; these show the real process says it in one line and exits 1.
  it("refuses with one line on stderr and exit code 1", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ STRIPE_SECRET_KEY: "", STRIPE_PUBLISHABLE_KEY: "" }, "STRIPE_SECRET_KEY is not set"],
      [{ SMTP_URL: "" }, "SMTP_URL is not set"],
    ];
    const started = await Promise.all(cases.map(async ([env], i) => start(`refused-${i}`, env)));
    const exits = await Promise.all(started.map((proc) => proc.exit));
    cases.forEach(([, message], i) => {
      expect(exits[i], started[i]!.output()).toEqual({ code: 1, signal: null });
      const lines = started[i]!.output().trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^haven: Invalid configuration: ${message}`));
    });
  }, 60_000);

  it("starts with PAYMENTS_MODE=demo: a warning at start and the banner on every customer page", async () => {
    const proc = await start("demo-payments", {
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      PAYMENTS_MODE: "demo",
      SMTP_URL: smtp.url,
    });
    await waitUntilServing(proc);
    const warning = proc
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((entry) => entry.msg.startsWith(BANNER));
    expect(warning?.level, proc.output()).toBe(40);
    expect(proc.output()).not.toContain("MAIL_MODE=outbox");
    for (const page of ["/", "/pricing", "/contact", "/checkout?plan=basic"]) {
      const res = await fetch(`${proc.url}${page}`);
      expect(res.status, page).toBe(200);
      expect(await res.text(), page).toContain(`<div role="status" class="demo-banner`);
    }
  }, 90_000);

  it("starts with MAIL_MODE=outbox and Stripe on: a warning about mail, and no banner", async () => {
    const proc = await start("mail-outbox", { MAIL_MODE: "outbox", SMTP_URL: "" });
    await waitUntilServing(proc);
    expect(proc.output()).toContain("E-mail is written to $DATA_DIR/outbox, not sent (MAIL_MODE=outbox)");
    expect(proc.output()).not.toContain(BANNER);
    const res = await fetch(`${proc.url}/pricing`);
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(BANNER);
  }, 90_000);
});

describe("the demo payments banner", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Tests run like development: no Stripe keys, so demo payments by default.
    ctx = await createTestContext();
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  it("shows on customer pages as a status region, never on staff pages", async () => {
    expect(ctx.env.PAYMENTS_MODE).toBe("demo");
    for (const page of ["/", "/pricing", "/haven-health-report", "/book-inspection"]) {
      const res = await ctx.agent().get(page).expect(200);
      expect(
        res.text.match(/<div role="status" class="demo-banner[^>]*>Demo payments: no card is charged<\/div>/g),
        page,
      ).toHaveLength(1);
    }
    const { agent } = await signInStaff(ctx);
    for (const page of ["/admin", "/admin/inspections"]) {
      const res = await agent.get(page).expect(200);
      expect(res.text, page).not.toContain(BANNER);
    }
  });

  it("is absent when Stripe takes the payments", async () => {
    const stripe = await createTestContext({ ...STAND_IN_KEYS });
    try {
      expect(stripe.env.PAYMENTS_MODE).toBe("stripe");
      await stripe.container.plans.seed();
      const res = await stripe.agent().get("/pricing").expect(200);
      expect(res.text).not.toContain(BANNER);
    } finally {
      await stripe.close();
    }
  });
});
