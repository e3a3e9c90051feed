import { statfs } from "node:fs/promises";
import type { Knex } from "knex";
import nodemailer from "nodemailer";
import pg from "pg";
import { ConfigError, type Env, loadEnv } from "../config/env.js";
import { openDatabase } from "../db/database.js";
import { compareSchema, createKnex } from "../db/knex.js";
import { createStripeClient } from "../modules/payments/index.js";
import { priceLookupKey } from "../modules/subscriptions/index.js";
import { backupSettings, listBackups, readableDataDir } from "./backup.js";

// `haven doctor` (docs/operations.md, "haven doctor"): what an operator gets wrong, one line per check with what to
// do. The rules for the variables are src/config/env.ts's own (loadEnv); every check over the network is bounded
// in time, and a failure is a line, never a crash.

export type Status = "ok" | "warn" | "fail" | "skip";

export interface Check {
  name: string;
  status: Status;
  /** What was found. */
  message: string;
  /** What to do about it (warn and fail). */
  fix?: string;
}

export interface DoctorOptions {
  /** The variables (process.env after .env). */
  source?: NodeJS.ProcessEnv;
  /** The Host the proxy forwards; compared with PUBLIC_URL's without a request. */
  host?: string;
  /** Bound on each network check. */
  timeoutMs?: number;
  now?: Date;
}

const ok = (name: string, message: string): Check => ({ name, status: "ok", message });
const warn = (name: string, message: string, fix: string): Check => ({ name, status: "warn", message, fix });
const fail = (name: string, message: string, fix: string): Check => ({ name, status: "fail", message, fix });
const skip = (name: string, message: string): Check => ({ name, status: "skip", message });

const reason = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  const first = (e.message ?? String(error)).split("\n")[0] ?? "";
  return e.code && !first.includes(e.code) ? `${e.code}: ${first}` : first;
};

const GB = 1024 ** 3;
/** The newest backup may be a day old plus the time a run takes and a little slack. */
const BACKUP_MAX_AGE_H = 26;

/** The variables as loadEnv reads them: a refusal is the one failing line, and nothing else can be checked. */
function configuration(source: NodeJS.ProcessEnv): { env: Env | null; checks: Check[] } {
  let env: Env;
  try {
    env = loadEnv(source);
  } catch (error) {
    if (error instanceof ConfigError)
      return {
        env: null,
        checks: [
          fail(
            "configuration",
            error.message.replace(/^Invalid configuration: /, ""),
            "fix that variable (README, Configuration); the other checks need a valid configuration",
          ),
        ],
      };
    throw error;
  }
  const production = env.NODE_ENV === "production";
  const checks: Check[] = [
    ok(
      "configuration",
      `NODE_ENV=${env.NODE_ENV}, PAYMENTS_MODE=${env.PAYMENTS_MODE}, MAIL_MODE=${env.MAIL_MODE}, BUSINESS_TZ=${env.BUSINESS_TZ}`,
    ),
  ];
  // loadEnv refuses the development secret in production; outside it, the default is expected.
  if (source.SESSION_SECRET?.trim()) {
    const distinct = new Set(env.SESSION_SECRET).size;
    checks.push(
      distinct < 10
        ? warn(
            "session secret",
            `SESSION_SECRET has only ${distinct} distinct characters`,
            "use 32+ random characters: openssl rand -hex 32",
          )
        : ok("session secret", `SESSION_SECRET is set (${env.SESSION_SECRET.length} characters)`),
    );
  } else {
    checks.push(ok("session secret", "the development value (production refuses to start with it)"));
  }
  if (env.PAYMENTS_MODE === "demo") {
    checks.push(
      production
        ? warn(
            "payments",
            "PAYMENTS_MODE=demo: no card is charged",
            "set STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET for real payments",
          )
        : ok("payments", "demo payments (no card is charged)"),
    );
  }
  if (env.MAIL_MODE === "outbox") {
    checks.push(
      production
        ? warn("mail", "MAIL_MODE=outbox: e-mail is written to files, never sent", "set SMTP_URL for real mail")
        : ok("mail", `outbox: e-mail is written to ${env.DATA_DIR}/outbox`),
    );
  }
  if (production && env.PUBLIC_URL.startsWith("http://")) {
    checks.push(
      warn(
        "public url",
        `PUBLIC_URL is ${env.PUBLIC_URL}: cookies are Secure in production and a browser drops them over http`,
        "serve Haven over https and set PUBLIC_URL=https://…",
      ),
    );
  }
  if (production && env.PUBLIC_URL.startsWith("https://") && env.TRUST_PROXY === false) {
    checks.push(
      warn(
        "proxy",
        "PUBLIC_URL is https but TRUST_PROXY is off: behind a TLS proxy Haven sees http, and the login limits see the proxy's address",
        "set TRUST_PROXY to the proxies in front (compose's Caddy: 1)",
      ),
    );
  }
  return { env, checks };
}

/** PUBLIC_URL against the Host the proxy forwards: given (--host), or by a request through the proxy. */
async function publicUrl(env: Env, host: string | undefined, timeoutMs: number): Promise<Check> {
  const expected = new URL(env.PUBLIC_URL).host.toLowerCase();
  if (host !== undefined) {
    const given = host.trim().toLowerCase();
    return given === expected
      ? ok("public url", `the forwarded Host ${given} is PUBLIC_URL's`)
      : fail(
          "public url",
          `the proxy forwards Host ${given} but PUBLIC_URL is ${env.PUBLIC_URL}: production answers 400 to every page`,
          `set PUBLIC_URL to the address people use (https://${given}?), or have the proxy pass the public Host`,
        );
  }
  // robots.txt is a page: it goes through the production Host check, unlike /readyz.
  const url = `${env.PUBLIC_URL}/robots.txt`;
  try {
    const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return ok("public url", `${url} answers ${res.status}: the Host the proxy forwards is accepted`);
    if (res.status === 400)
      return fail(
        "public url",
        `${url} answers 400: the proxy forwards a Host that is not ${expected}`,
        "have the proxy pass the public Host (Caddy does by default), or set PUBLIC_URL to the address people use",
      );
    return warn(
      "public url",
      `${url} answers ${res.status}`,
      "check the proxy in front of Haven and that web is running (docker compose ps)",
    );
  } catch (error) {
    return warn(
      "public url",
      `${url} did not answer from here (${reason(error)})`,
      "check DNS, the proxy and that Haven runs; or compare offline: haven doctor --host <the Host the proxy forwards>",
    );
  }
}

async function smtp(env: Env, timeoutMs: number): Promise<Check | null> {
  if (env.MAIL_MODE !== "smtp" || !env.SMTP_URL) return null;
  const target = new URL(env.SMTP_URL);
  const where = `${target.hostname}:${target.port || (target.protocol === "smtps:" ? 465 : 587)}`;
  const transport = nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  } as never);
  try {
    await transport.verify();
    return ok("smtp", `${where} answers and accepts EHLO${target.username ? " and the login" : ""} (no mail sent)`);
  } catch (error) {
    const e = error as { code?: string; responseCode?: number };
    if (e.code === "EAUTH")
      return fail(
        "smtp",
        `${where} refused the login (${reason(error)})`,
        "check the user and password in SMTP_URL (URL-encode special characters)",
      );
    return fail(
      "smtp",
      `cannot talk to the SMTP server at ${where} (${reason(error)})`,
      "check SMTP_URL's host and port, that the server runs and that this machine may connect to it",
    );
  } finally {
    transport.close();
  }
}

type PlanPrice = { type: string; readings: number[] };

async function stripe(env: Env, plans: PlanPrice[] | null, timeoutMs: number): Promise<Check[]> {
  if (env.PAYMENTS_MODE !== "stripe" || !env.STRIPE_SECRET_KEY) return [];
  const checks: Check[] = [];
  const secretLive = env.STRIPE_SECRET_KEY.includes("_live_");
  if (env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_PUBLISHABLE_KEY.includes("_live_") !== secretLive) {
    checks.push(
      fail(
        "stripe keys",
        "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are of different modes (one live, one test)",
        "take both keys from the same Stripe mode (Developers → API keys)",
      ),
    );
  }
  if (env.NODE_ENV === "production" && !secretLive)
    checks.push(
      warn(
        "stripe keys",
        "a test key in production: no real card is charged",
        "use the live keys (sk_live_…, pk_live_…)",
      ),
    );
  if (!env.STRIPE_WEBHOOK_SECRET)
    checks.push(
      warn(
        "stripe webhook",
        "STRIPE_WEBHOOK_SECRET is not set: Stripe's events are refused",
        "add an endpoint for $PUBLIC_URL/api/stripe/webhook in Stripe and set its signing secret (whsec_…)",
      ),
    );
  else if (!env.STRIPE_WEBHOOK_SECRET.startsWith("whsec_"))
    checks.push(
      warn(
        "stripe webhook",
        "STRIPE_WEBHOOK_SECRET does not start with whsec_",
        "copy the endpoint's signing secret, not an API key",
      ),
    );
  else checks.push(ok("stripe webhook", "STRIPE_WEBHOOK_SECRET is set"));

  const keys = (plans ?? []).flatMap((p) =>
    p.readings.map((dollars) => ({
      plan: p.type,
      cents: Math.round(dollars * 100),
      key: priceLookupKey(p.type as never, Math.round(dollars * 100)),
    })),
  );
  const client = createStripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE);
  let found: {
    lookup_key: string | null;
    unit_amount: number | null;
    currency: string;
    recurring: { interval: string } | null;
    active: boolean;
  }[];
  try {
    const list = await Promise.race([
      client.prices.list({ lookup_keys: keys.length ? keys.map((k) => k.key) : undefined, active: true, limit: 100 }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref(),
      ),
    ]);
    found = list.data;
  } catch (error) {
    const e = error as { type?: string; statusCode?: number };
    if (e.type === "StripeAuthenticationError" || e.statusCode === 401) {
      checks.push(
        fail(
          "stripe key",
          `Stripe refused STRIPE_SECRET_KEY (${reason(error)})`,
          "copy the secret key again from Stripe (Developers → API keys); a rolled key stops working",
        ),
      );
    } else if (e.type === "StripePermissionError" || e.statusCode === 403) {
      checks.push(
        fail(
          "stripe key",
          `STRIPE_SECRET_KEY may not read prices (${reason(error)})`,
          "use the secret key, or a restricted key allowed to read and write prices, customers, subscriptions and Checkout",
        ),
      );
    } else {
      checks.push(
        fail(
          "stripe key",
          `Stripe did not answer (${reason(error)})`,
          "check this machine's access to api.stripe.com (or STRIPE_API_BASE)",
        ),
      );
    }
    return checks;
  }
  checks.push(ok("stripe key", "Stripe answers with STRIPE_SECRET_KEY"));
  if (!plans) return [...checks, skip("stripe prices", "the plans could not be read (see database)")];
  if (!plans.length) return [...checks, warn("stripe prices", "no plans in the database", "run haven plans seed")];
  const missing: string[] = [];
  const wrong: string[] = [];
  for (const k of keys) {
    const price = found.find((p) => p.lookup_key === k.key);
    if (!price) missing.push(k.key);
    else if (price.unit_amount !== k.cents || price.currency !== "cad" || price.recurring?.interval !== "month") {
      wrong.push(`${k.key} is ${price.unit_amount} ${price.currency} per ${price.recurring?.interval ?? "one time"}`);
    }
  }
  if (wrong.length)
    checks.push(
      fail(
        "stripe prices",
        `prices that do not match their lookup key: ${wrong.join("; ")}`,
        "archive them in Stripe: Haven makes the right ones at the next purchase",
      ),
    );
  else if (missing.length)
    checks.push(
      warn(
        "stripe prices",
        `no Stripe price yet for ${missing.join(", ")}`,
        "Haven makes each at its first purchase; buy once in test mode to see them, or ignore",
      ),
    );
  else
    checks.push(
      ok("stripe prices", `all ${keys.length} plan prices exist by lookup key (haven_<plan>_monthly_<cents>)`),
    );
  return checks;
}

/** Migrations, and the plans' prices for the Stripe check. */
async function database(
  databaseUrl: string | undefined,
): Promise<{ checks: Check[]; plans: PlanPrice[] | null; db: Knex | null }> {
  if (!databaseUrl)
    return {
      checks: [
        fail("database", "no database to check", "set DATABASE_URL, or start Haven's embedded Postgres (npm start)"),
      ],
      plans: null,
      db: null,
    };
  const db = createKnex(databaseUrl, { min: 0, max: 2 });
  const where = (() => {
    const u = new URL(databaseUrl);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  })();
  try {
    await db.raw("select 1");
  } catch (error) {
    await db.destroy();
    return {
      checks: [
        fail("database", `cannot connect to ${where} (${reason(error)})`, "check DATABASE_URL and that Postgres runs"),
      ],
      plans: null,
      db: null,
    };
  }
  const checks: Check[] = [ok("database", `${where} answers`)];
  try {
    const { pending, unknown, blocking } = await compareSchema(db);
    if (blocking.length) {
      const [b] = blocking;
      checks.push(
        fail(
          "migrations",
          `the schema is newer and drops what this version reads (${b?.migration} needs ${b?.oldestReader})`,
          `run an image that has ${b?.oldestReader} or newer`,
        ),
      );
    } else if (pending.length) {
      checks.push(
        fail(
          "migrations",
          `${pending.length} pending: ${pending.join(", ")}`,
          "run haven db migrate (compose: the migrate service does at each up)",
        ),
      );
    } else if (unknown.length) {
      checks.push(
        warn(
          "migrations",
          `the database has ${unknown.length} newer migration(s) this version does not know (${unknown.join(", ")}); they only add`,
          "upgrade this image to the version that migrated it",
        ),
      );
    } else {
      checks.push(ok("migrations", "current: none pending, none unknown"));
    }
  } catch (error) {
    checks.push(fail("migrations", `cannot read them (${reason(error)})`, "run haven db migrate"));
  }
  let plans: PlanPrice[] | null = null;
  try {
    const rows = (await db("plans").orderBy("id").select("type", "monthly_price", "checkout_price")) as {
      type: string;
      monthly_price: number;
      checkout_price: number;
    }[];
    plans = rows.map((r) => ({
      type: r.type,
      readings: [...new Set([Number(r.monthly_price), Number(r.checkout_price)])],
    }));
  } catch {
    plans = null;
  }
  return { checks, plans, db };
}

function backups(source: NodeJS.ProcessEnv, now: Date): Check {
  let settings: ReturnType<typeof backupSettings>;
  try {
    settings = backupSettings(source);
  } catch (error) {
    return fail("backups", reason(error), "fix BACKUP_DIR or BACKUP_KEEP (a whole number of backups to keep)");
  }
  if (!settings.BACKUP_DIR)
    return warn(
      "backups",
      "BACKUP_DIR is not set: no scheduled backups",
      "set BACKUP_DIR (the worker then backs up daily), or run haven db backup from cron; see docs/operations.md, Backups",
    );
  const newest = listBackups(settings.BACKUP_DIR).at(-1);
  if (!newest)
    return warn(
      "backups",
      `no backup in ${settings.BACKUP_DIR} yet`,
      "run haven db backup now, and check that the worker (or compose's backup service) runs",
    );
  const hours = (now.getTime() - newest.takenAt.getTime()) / 3_600_000;
  const age = hours < 1 ? `${Math.round(hours * 60)} min` : `${hours.toFixed(1)} h`;
  if (hours > BACKUP_MAX_AGE_H)
    return warn(
      "backups",
      `the newest backup, ${newest.name}, is ${age} old`,
      "check the worker's log for 'database backup' (or compose's backup service); run haven db backup now",
    );
  return ok(
    "backups",
    `the newest backup, ${newest.name} (${(newest.bytes / 1024 / 1024).toFixed(1)} MB), is ${age} old`,
  );
}

async function disk(databaseUrl: string | undefined): Promise<Check> {
  if (!databaseUrl) return skip("disk", "no database");
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on("error", () => undefined);
  let dir: string | null;
  let why: string;
  try {
    await client.connect();
    ({ dir, why } = await readableDataDir(client));
  } catch (error) {
    return skip("disk", `not checked (${reason(error)})`);
  } finally {
    await client.end().catch(() => undefined);
  }
  if (!dir) return skip("disk", `Postgres's disk is not visible from here: ${why}; watch it where Postgres runs`);
  const s = await statfs(dir);
  const free = s.bavail * s.bsize;
  const share = s.blocks ? s.bavail / s.blocks : 0;
  const text = `${(free / GB).toFixed(1)} GB free (${Math.round(share * 100)} %) for Postgres's data in ${dir}`;
  if (free < 0.5 * GB || share < 0.02)
    return fail(
      "disk",
      text,
      "free space now: Postgres stops writing when the disk is full (old backups, logs, a bigger volume)",
    );
  if (free < 2 * GB || share < 0.1)
    return warn("disk", text, "plan more space: a dump needs about the photos' size again, and WAL grows under load");
  return ok("disk", text);
}

/** Every check, in the order they are printed. */
export async function runDoctor(options: DoctorOptions = {}): Promise<Check[]> {
  const source = options.source ?? process.env;
  const timeoutMs = options.timeoutMs ?? 5000;
  const now = options.now ?? new Date();
  const { env, checks } = configuration(source);
  if (!env) return checks;
  // DATABASE_URL, else the embedded Postgres (joined when it runs, else started for the check, as every command does).
  let opened: Awaited<ReturnType<typeof openDatabase>> | null = null;
  let openError = "";
  try {
    opened = await openDatabase(env, { reuseRunning: true });
  } catch (error) {
    openError = reason(error);
  }
  const db = opened
    ? await database(opened.url)
    : {
        checks: [
          fail(
            "database",
            `the embedded Postgres did not start (${openError})`,
            "see the line above; or set DATABASE_URL",
          ),
        ],
        plans: null,
        db: null,
      };
  try {
    const [url, mail, payments] = await Promise.all([
      publicUrl(env, options.host, timeoutMs),
      smtp(env, timeoutMs),
      stripe(env, db.plans, timeoutMs),
    ]);
    checks.push(url);
    if (mail) checks.push(mail);
    checks.push(...payments, ...db.checks);
    checks.push(backups(source, now));
    checks.push(await disk(db.db ? opened?.url : undefined));
    return checks;
  } finally {
    await db.db?.destroy();
    await opened?.embedded?.stop();
  }
}

const MARK: Record<Status, string> = { ok: "✓ ok  ", warn: "! warn", fail: "✗ fail", skip: "- skip" };

/** The report as printed: one line per check, what to do after an arrow, and the counts. */
export function formatChecks(checks: Check[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  const lines = checks.map(
    (c) => `${MARK[c.status]}  ${c.name.padEnd(width)}  ${c.message}${c.fix ? ` → ${c.fix}` : ""}`,
  );
  const count = (s: Status) => checks.filter((c) => c.status === s).length;
  lines.push(
    `${count("ok")} ok, ${count("warn")} warning(s), ${count("fail")} failed${count("skip") ? `, ${count("skip")} not checked` : ""}.`,
  );
  return lines.join("\n");
}
