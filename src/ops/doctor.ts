import { statfs } from "node:fs/promises";
import type { Knex } from "knex";
import pg from "pg";
import { ConfigError, type Env, loadEnv } from "../config/env.js";
import { openDatabase } from "../db/database.js";
import { compareSchema, createKnex } from "../db/knex.js";
import { backupSettings, listBackups, readBackup, readableDataDir } from "./backup.js";
import { type Check, type Status, fail, ok, reason, skip, warn } from "./doctor.common.js";
import { type PlanPrice, publicUrl, smtp, stripe } from "./doctor.services.js";
import { qstCheck } from "./doctor.tax.js";

// `haven doctor` (docs/operations.md, "haven doctor"): what an operator gets wrong, one line per check with what to
// do. The rules for the variables are src/config/env.ts's own (loadEnv); every check over the network is bounded
// in time, and a failure is a line, never a crash.

export interface DoctorOptions {
  /** The variables (process.env after .env). */
  source?: NodeJS.ProcessEnv;
  /** The Host the proxy forwards; compared with PUBLIC_URL's without a request. */
  host?: string;
  /** Bound on each network check. */
  timeoutMs?: number;
  now?: Date;
}

const GB = 1024 ** 3;
/** The newest backup may be a day old plus the time a run takes and a little slack; then a warning. */
const BACKUP_WARN_H = 26;
/** A missed day and its retries: past this, a failure (docs/decisions.md#47). */
const BACKUP_FAIL_H = 36;

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

/**
 * The newest backup in BACKUP_DIR, read (its checksum and its archive's listing, backup.verify.ts): a damaged one,
 * or none newer than BACKUP_MAX_AGE_H while BACKUP_DIR is set, fails; one older than a day and its run warns.
 */
export async function backupCheck(source: NodeJS.ProcessEnv, now: Date): Promise<Check> {
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
  const what = `the newest backup, ${newest.name} (${(newest.bytes / 1024 / 1024).toFixed(1)} MB, ${age} old)`;
  const logs = "the worker's log for 'database backup' (compose: docker compose logs backup)";
  let reading: Awaited<ReturnType<typeof readBackup>>;
  try {
    reading = await readBackup(newest.file, settings);
  } catch (error) {
    reading = { kind: newest.method, problem: `it cannot be read (${reason(error)})`, read: [], unread: [] };
  }
  if (reading.problem)
    return fail(
      "backups",
      `${what} cannot be restored: ${reading.problem}`,
      `do not count on it; look at ${logs}, and run haven db backup now`,
    );
  if (hours > BACKUP_FAIL_H)
    return fail("backups", `${what}: none in ${BACKUP_FAIL_H} h`, `look at ${logs}; run haven db backup now`);
  const said = [...reading.read, ...reading.unread].join("; ");
  if (!reading.read.length)
    return warn(
      "backups",
      `${what} could not be read from here: ${said}`,
      "run haven doctor where pg_restore is (the backup service), or check it with pg_restore --list",
    );
  if (hours > BACKUP_WARN_H) return warn("backups", `${what}; ${said}`, `look at ${logs}; run haven db backup now`);
  return ok("backups", `${what}; ${said}`);
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
    if (db.db) checks.push(await qstCheck(env, db.db));
    checks.push(await backupCheck(source, now));
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
