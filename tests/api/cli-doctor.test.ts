// `haven doctor` (docs/operations.md): against a healthy setup (a real local SMTP server, the Stripe stand-in holding
// the plans' prices, Haven answering at PUBLIC_URL, a fresh backup that reads whole) every line is ok and the exit is
// 0; against a broken one (SMTP port closed, a wrong Stripe key, a pending migration, a proxy forwarding another Host,
// a damaged backup) the failing lines say what to do and the exit is 1. The backup line reads the newest backup: its
// checksum and its archive's listing, and its age.
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/ports.js";
import { META, sealBackup } from "../../src/ops/backup.common.js";
import { backupCheck } from "../../src/ops/doctor.js";
import { TarWriter } from "../../src/ops/tar.js";
import { createStripeClient } from "../../src/modules/payments/index.js";
import { StripeBilling } from "../../src/modules/subscriptions/index.js";
import { runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";

let ctx: TestContext;
let smtp: Smtp;
let stripe: StripeStandIn;
let web: http.Server;
let publicUrl: string;
let backupDir: string;
let brokenBackupDir: string;

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
/** The one moment the backups' ages are measured from: made and checked against it, however long set-up takes. */
const NOW = new Date();
const hoursAgo = (h: number, now = NOW) => new Date(now.getTime() - h * 3_600_000);

/** A small base backup as `haven db backup` writes one: the tar's entries a restore needs, gzip, its checksum beside. */
async function baseBackupIn(dir: string, takenAt: Date, complete = true): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `haven-${stamp(takenAt)}.base.tar.gz`);
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(`${file}.partial`));
  const tar = new TarWriter(gzip);
  await tar.buffer(META, Buffer.from('{"format":"haven-base-backup","version":1}\n'));
  if (complete)
    await tar.buffer("backup_label", Buffer.from("START WAL LOCATION: 0/2000028 (file 000000010000000000000002)\n"));
  await tar.dir("global");
  await tar.buffer("global/pg_control", randomBytes(8192));
  await tar.end();
  gzip.end();
  await written;
  await sealBackup(`${file}.partial`, file);
  return file;
}

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
  await baseBackupIn(backupDir, hoursAgo(1));
  // The newest backup there is a 2-byte .dump.
  brokenBackupDir = path.join(backupDir, "broken");
  await baseBackupIn(brokenBackupDir, hoursAgo(30));
  writeFileSync(path.join(brokenBackupDir, `haven-${stamp(hoursAgo(2))}.dump`), "PG");
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
    const r = await runHavenHere(ctx.url, ["doctor"], { env: healthy() });
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
    const r = await runHavenHere(ctx.url, ["doctor", "--host", "haven.internal:3000"], {
      env: {
        ...healthy(),
        SMTP_URL: `smtp://127.0.0.1:${closed}`,
        STRIPE_SECRET_KEY: "sk_test_not_the_right_key",
        BACKUP_DIR: brokenBackupDir,
      },
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
    expect(line(r.stdout, "backups")).toMatch(
      /^✗ fail +backups +the newest backup, haven-\d{8}T\d{6}Z\.dump \(0\.0 MB, 2\.0 h old\) cannot be restored: it does not begin as a pg_dump custom archive does \(2 bytes\) → do not count on it/,
    );
    // What still works is still said.
    expect(line(r.stdout, "database")).toMatch(/^✓ ok/);
    expect(lines(r.stdout).at(-1)).toMatch(/5 failed/);
    expect(r.stdout).not.toMatch(/\n\s+at /);
  });

  it("a configuration Haven refuses is one failing line", async () => {
    const r = await runHavenHere(ctx.url, ["doctor"], {
      env: { ...healthy(), NODE_ENV: "production", STRIPE_WEBHOOK_SECRET: "" },
    });
    expect(r.code).toBe(1);
    expect(lines(r.stdout)).toHaveLength(2);
    expect(lines(r.stdout)[0]).toMatch(
      /^✗ fail +configuration +STRIPE_WEBHOOK_SECRET must be set in production .*→ fix that variable/,
    );
  });
});

describe("haven doctor's backup line", () => {
  const check = (dir: string) => backupCheck({ BACKUP_DIR: dir }, NOW);
  const fresh = () => mkdtempSync(path.join(backupDir, "case-"));

  it("is ok for a whole, fresh backup: its checksum matches and its tar lists through its end", async () => {
    const c = await check(backupDir);
    expect(c.status).toBe("ok");
    expect(c.message).toMatch(
      /^the newest backup, haven-\S+\.base\.tar\.gz \(0\.0 MB, 1\.0 h old\); checksum matches; tar: 4 entries$/,
    );
  });

  it("fails on a truncated base backup, with or without its checksum", async () => {
    const dir = fresh();
    const file = await baseBackupIn(dir, hoursAgo(1));
    truncateSync(file, Math.floor(statSync(file).size / 2));
    const withSum = await check(dir);
    expect(withSum.status).toBe("fail");
    expect(withSum.message).toContain(
      "cannot be restored: its SHA-256 is not the one written beside it when it was made",
    );
    rmSync(`${file}.sha256`);
    const bare = await check(dir);
    expect(bare.status).toBe("fail");
    expect(bare.message).toContain(
      "cannot be restored: it ends before its compressed data does (unexpected end of file)",
    );
    expect(bare.fix).toContain("run haven db backup now");
  });

  it("fails on a base backup whose tar lacks what a restore needs, and on a changed one", async () => {
    const incomplete = fresh();
    await baseBackupIn(incomplete, hoursAgo(1), false);
    const noLabel = await check(incomplete);
    expect(noLabel.status).toBe("fail");
    expect(noLabel.message).toContain("cannot be restored: it is incomplete (no backup_label)");

    const dir = fresh();
    const file = await baseBackupIn(dir, hoursAgo(1));
    // Another backup's bytes under this name: the checksum beside it no longer matches.
    const other = await baseBackupIn(path.join(dir, "other"), hoursAgo(1));
    copyFileSync(other, file);
    const changed = await check(dir);
    expect(changed.status).toBe("fail");
    expect(changed.message).toContain("its SHA-256 is not the one written beside it");
  });

  it("fails when the newest whole backup is older than 36 hours, and warns past 26", async () => {
    const old = fresh();
    await baseBackupIn(old, hoursAgo(37));
    const stale = await check(old);
    expect(stale.status).toBe("fail");
    expect(stale.message).toMatch(/37\.0 h old\): none in 36 h$/);
    const late = fresh();
    await baseBackupIn(late, hoursAgo(30));
    expect((await check(late)).status).toBe("warn");
  });
});
