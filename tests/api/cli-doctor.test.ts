// `haven doctor` (docs/operations.md): against a healthy setup (a real local SMTP server, the Stripe stand-in holding
// the plans' prices, Haven answering at PUBLIC_URL, a fresh backup) every line is ok and the exit is 0; against a
// broken one (SMTP port closed, a wrong Stripe key, a pending migration, a proxy forwarding another Host) the failing
// lines say what to do and the exit is 1.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/db/embedded.js";
import { createStripeClient } from "../../src/modules/payments/index.js";
import { StripeBilling } from "../../src/modules/subscriptions/index.js";
import { runHaven } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";

let ctx: TestContext;
let smtp: Smtp;
let stripe: StripeStandIn;
let web: http.Server;
let publicUrl: string;
let backupDir: string;

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  smtp = await startSmtp();
  stripe = await StripeStandIn.start();
  // The plans' prices, made by Haven's own code as a purchase would (one per plan and reading).
  const billing = new StripeBilling(createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url));
  for (const plan of await ctx.container.plans.list())
    for (const dollars of [plan.price, plan.checkoutPrice]) await billing.priceFor(plan, Math.round(dollars * 100));
  web = http.createServer(ctx.app).listen(0, "127.0.0.1");
  await new Promise((resolve) => web.once("listening", resolve));
  publicUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  backupDir = mkdtempSync(path.join(os.tmpdir(), "haven-doctor-backups-"));
  writeFileSync(path.join(backupDir, `haven-${stamp(new Date(Date.now() - 3_600_000))}.dump`), "PGDMP");
});

afterAll(async () => {
  await new Promise((resolve) => web?.close(resolve));
  await stripe?.close();
  await smtp?.close();
  if (backupDir) rmSync(backupDir, { recursive: true, force: true });
  await ctx.close();
});

const healthy = () => ({
  ...stripe.env(),
  PAYMENTS_MODE: "stripe",
  SMTP_URL: smtp.url,
  MAIL_MODE: "smtp",
  PUBLIC_URL: publicUrl,
  BACKUP_DIR: backupDir,
  SESSION_SECRET: randomBytes(32).toString("hex"),
});

const lines = (stdout: string) => stdout.trim().split("\n");
const line = (stdout: string, name: string) =>
  lines(stdout).find((l) => new RegExp(`^\\S+ (ok|warn|fail|skip)\\s+${name}\\s{2}`).test(l)) ?? "";

describe("haven doctor", { timeout: 120_000 }, () => {
  it("a healthy setup: every check ok, exit 0", async () => {
    const r = await runHaven(ctx.url, ["doctor"], { env: healthy() });
    expect(r.stderr).toBe("");
    expect(r.code, r.stdout).toBe(0);
    for (const name of [
      "configuration",
      "session secret",
      "public url",
      "smtp",
      "stripe webhook",
      "stripe key",
      "stripe prices",
      "database",
      "migrations",
      "backups",
    ]) {
      expect(line(r.stdout, name), `${name} in\n${r.stdout}`).toMatch(/^✓ ok/);
    }
    expect(line(r.stdout, "stripe prices")).toContain("all 6 plan prices exist by lookup key");
    expect(line(r.stdout, "smtp")).toContain("accepts EHLO");
    // The embedded test server's data folder is on this machine; a server elsewhere is "not checked", never a failure.
    expect(line(r.stdout, "disk")).toMatch(/^(✓ ok .*GB free|- skip)/);
    expect(lines(r.stdout).at(-1)).toMatch(/^\d+ ok, 0 warning\(s\), 0 failed/);
    expect(smtp.received).toHaveLength(0);
  });

  it("a broken setup: the failing lines say what to do, exit 1", async () => {
    const latest = await ctx.db("knex_migrations").orderBy("id", "desc").first();
    await ctx.db("knex_migrations").where({ id: latest.id }).delete();
    const closed = await freePort();
    const r = await runHaven(ctx.url, ["doctor", "--host", "haven.internal:3000"], {
      env: { ...healthy(), SMTP_URL: `smtp://127.0.0.1:${closed}`, STRIPE_SECRET_KEY: "sk_test_not_the_right_key" },
    });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toBe("");
    expect(line(r.stdout, "smtp")).toMatch(
      new RegExp(
        `^✗ fail +smtp +cannot talk to the SMTP server at 127.0.0.1:${closed} \\(.*ECONNREFUSED.*→ check SMTP_URL`,
      ),
    );
    expect(line(r.stdout, "stripe key")).toMatch(
      /^✗ fail .*Stripe refused STRIPE_SECRET_KEY .*→ copy the secret key again/,
    );
    expect(line(r.stdout, "migrations")).toMatch(
      new RegExp(`^✗ fail .*1 pending: ${latest.name.replace(/\./g, "\\.")} → run haven db migrate`),
    );
    expect(line(r.stdout, "public url")).toMatch(
      /^✗ fail .*the proxy forwards Host haven.internal:3000 but PUBLIC_URL is http:\/\/127\.0\.0\.1:\d+.*→ set PUBLIC_URL/,
    );
    // What still works is still said.
    expect(line(r.stdout, "database")).toMatch(/^✓ ok/);
    expect(lines(r.stdout).at(-1)).toMatch(/4 failed/);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  });

  it("a configuration Haven refuses is one failing line", async () => {
    const r = await runHaven(ctx.url, ["doctor"], {
      env: { ...healthy(), NODE_ENV: "production", STRIPE_WEBHOOK_SECRET: "" },
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toHaveLength(2);
    expect(lines(r.stdout)[0]).toMatch(
      /^✗ fail +configuration +STRIPE_WEBHOOK_SECRET must be set in production .*→ fix that variable/,
    );
  });
});
