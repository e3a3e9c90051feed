// Scale-out (B10): two web processes and two workers, real and separate, on one Postgres. Mixed traffic goes
// through both web processes; halfway through, one web process and one worker die by SIGKILL. Every e-mail,
// task, claim, reminder and webhook must still happen exactly once, and nothing acknowledged may be lost.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import { MAINTENANCE_EXPAND_TASK, MAINTENANCE_REMINDERS_TASK } from "../../src/modules/maintenance/index.js";
import { MAIL_SEND_TASK } from "../../src/modules/mail/mail.schemas.js";
import { QUOTE_REPORT_MAIL_TASK } from "../../src/modules/quotes/index.js";
import { SHARE_MAIL_TASK } from "../../src/modules/sharing/index.js";
import { freePort } from "../support/ports.js";
import { runHaven } from "../support/cli.js";
import { type TestContext, createTestContext } from "../support/context.js";
import {
  GiveUp,
  type HavenProcess,
  killAll,
  spawnHaven,
  until,
  waitUntil,
  waitUntilServing,
} from "../support/processes.js";
import { type GatedSmtp, mailbox, startGatedSmtp } from "../support/smtp-gate.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";
import { sharedReportFixture } from "./sharing-fixtures.js";

const PUBLIC_URL = "https://haven.example";
const STAFF = { email: "scale-staff@haven.test", password: "correct horse battery" };

// biome-ignore lint/suspicious/noExplicitAny: JSON answers of many shapes, read field by field
type Answer = { status: number; body: any };

/** A browser of the site behind a load balancer: its own cookies, sent to whichever web process it is given. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async send(
    base: string,
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(`${base}${url}`, {
      method,
      redirect: "manual",
      headers: {
        Origin: PUBLIC_URL,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(cookie ? { Cookie: cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      this.cookies.set(pair.slice(0, pair.indexOf("=")).trim(), pair.slice(pair.indexOf("=") + 1));
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: res.status, body: parsed };
  }
}

/** The answer's status, with its body in the failure message. */
const statusOf = (answer: Answer, expected: number) =>
  expect(answer.status, JSON.stringify(answer.body)).toBe(expected);

let ctx: TestContext;
let dataDir: string;
const box = mailbox();
// One relay per worker: when the victim dies, whatever it was sending is known to be its own.
let victimRelay: GatedSmtp;
let survivorRelay: GatedSmtp;
let webA: HavenProcess;
let webB: HavenProcess;
let victim: HavenProcess;
let survivor: HavenProcess;
const processes: HavenProcess[] = [];
const staff = new Browser();

/** What the site acknowledged, so what must be e-mailed: one line per expected message, "to kind". */
const acknowledged = {
  bookings: new Map<number, string>(),
  shares: [] as string[],
  quoteReports: [] as string[],
  /** Each move to quoted that was answered 200: the homeowner hears once that the quote is ready. */
  quotesReady: [] as string[],
};

const holderOf = (proc: HavenProcess) => `${os.hostname()}:${proc.pid}`;
const rows = async <T = Record<string, unknown>>(sql: string, bindings: unknown[] = []) =>
  (await ctx.db.raw(sql, bindings as never)).rows as T[];
const count = async (sql: string, bindings: unknown[] = []) => Number((await rows<{ n: number }>(sql, bindings))[0]!.n);
const addJob = (task: string) => ctx.db.raw("select graphile_worker.add_job(?)", [task]);

/** Waits until no job of these tasks is left; a job that failed ends the wait at once, with its error. */
async function drained(tasks: string[], timeoutMs = 45_000) {
  await until(
    `the ${tasks.join(", ")} jobs to finish`,
    async () => {
      const jobs = await rows<{ task_identifier: string; last_error: string | null }>(
        "select task_identifier, last_error from graphile_worker.jobs where task_identifier = any(?)",
        [tasks],
      );
      const failed = jobs.find((j) => j.last_error);
      if (failed) throw new GiveUp(`${failed.task_identifier} failed: ${failed.last_error}`);
      return jobs.length === 0;
    },
    timeoutMs,
  );
}

/**
 * The workers and CLI runs that race from a starting line wait there on the line's table lock until the last of them
 * has started (a CLI run takes seconds to start on a busy machine): their lock_timeout outlasts that wait, which the
 * default 5 s (LOCK_TIMEOUT_MS) did not. What they race for is then decided by the app's own locks.
 */
const RACERS = { LOCK_TIMEOUT_MS: "60000" };

/**
 * A starting line: holds an exclusive lock on `table` while `start` launches its runs, until `waiters` sessions
 * queue behind the lock, then lets them all go at once (so they truly race, whatever each took to start).
 */
async function together<T>(table: string, waiters: number, start: () => Promise<T>): Promise<T> {
  const trx = await ctx.db.transaction();
  await trx.raw(`lock table ${table} in access exclusive mode`);
  const runs = start();
  try {
    // Cloned databases share relation ids: count this database's waiters only.
    const waiting = `select count(*)::int as n from pg_locks where not granted and relation = ?::regclass
      and database = (select oid from pg_database where datname = current_database())`;
    await until(`${waiters} runs to queue on ${table}`, async () => (await count(waiting, [table])) >= waiters, 45_000);
  } finally {
    await trx.commit();
  }
  return runs;
}

const wizard = (email: string) => ({
  propertyAddress: `${email.length} Scale Street, Ottawa, ON K1A 0A6`,
  propertyType: "single-family",
  propertySize: "2000",
  yearBuilt: "1990",
  firstName: "Sam",
  lastName: "Scale",
  email,
  phone: "613-555-0100",
  scheduledDate: ctx.container.bookings.calendar().minDate,
  timeSlot: "9:30 AM",
  accessMethod: "meet-inspector",
  accessCode: "",
  accessInstructions: "",
  specialRequests: "",
});

/** A new booking through `base`; acknowledged ones are remembered with their client's e-mail. */
async function book(base: string, email: string, browser = new Browser(), headers: Record<string, string> = {}) {
  const answer = await browser.send(base, "POST", "/api/inspection-bookings", wizard(email), headers);
  statusOf(answer, 201);
  acknowledged.bookings.set(answer.body.id, answer.body.clientEmail);
  return answer.body as { id: number; propertyId: number; clientEmail: string };
}

/** A report shared through `base`: its token, after the share was acknowledged. */
async function share(base: string, reportId: number, clientEmail: string) {
  const answer = await staff.send(base, "POST", `/api/reports/${reportId}/share`, { clientEmail });
  statusOf(answer, 201);
  acknowledged.shares.push(clientEmail);
  return (answer.body.reportLink as string).split("/client-report/")[1]!;
}

beforeAll(async () => {
  victimRelay = await startGatedSmtp(box);
  survivorRelay = await startGatedSmtp(box);
  ctx = await createTestContext({ SMTP_URL: survivorRelay.url, PUBLIC_URL });
  await ctx.container.plans.seed();
  await ctx.container.users.create({
    email: STAFF.email,
    password: STAFF.password,
    firstName: "Sky",
    lastName: "Scale",
  });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-scale-"));
  // What every process shares: the database, the session secret, the public address.
  const shared = {
    DATABASE_URL: ctx.url,
    NODE_ENV: "test",
    LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PUBLIC_URL,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    TRUST_PROXY: "false",
    MAIL_MODE: "smtp",
    STRIPE_WEBHOOK_SECRET: STAND_IN_KEYS.STRIPE_WEBHOOK_SECRET,
    DATA_DIR: dataDir,
  };
  const [portA, portB] = [await freePort(), await freePort()];
  webA = spawnHaven("web A", "src/server.ts", {
    ...shared,
    PORT: String(portA),
    WORKER_MODE: "separate",
    SMTP_URL: survivorRelay.url,
  });
  webB = spawnHaven("web B", "src/server.ts", {
    ...shared,
    PORT: String(portB),
    WORKER_MODE: "separate",
    SMTP_URL: survivorRelay.url,
  });
  victim = spawnHaven("worker 1", "src/worker.ts", {
    ...shared,
    ...RACERS,
    WORKER_MODE: "separate",
    SMTP_URL: victimRelay.url,
  });
  survivor = spawnHaven("worker 2", "src/worker.ts", {
    ...shared,
    ...RACERS,
    WORKER_MODE: "separate",
    SMTP_URL: survivorRelay.url,
  });
  processes.push(webA, webB, victim, survivor);
  // A worker is ready once its graphile-worker ids hold leases.
  const leased = (proc: HavenProcess) => async () =>
    (await count("select count(*)::int as n from worker_leases where holder = ?", [holderOf(proc)])) > 0;
  await Promise.all([
    waitUntilServing(webA),
    waitUntilServing(webB),
    waitUntil(victim, "its leases", leased(victim)),
    waitUntil(survivor, "its leases", leased(survivor)),
  ]);
}, 120_000);

afterAll(async () => {
  await killAll(processes);
  await ctx?.close();
  await Promise.all([victimRelay?.close(), survivorRelay?.close()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

// A failure shows what the four processes said.
beforeEach((context) => {
  context.onTestFailed(() => {
    for (const proc of processes) console.log(`--- ${proc.name} (pid ${proc.pid})\n${proc.output()}`);
  });
});

describe("two web processes and two workers on one Postgres", () => {
  const reports: { id: number; propertyId: number; taskIds: number[] }[] = [];

  it("keep sessions, bookings, link claims, client responses, quote moves and webhooks exact across both web processes", async () => {
    const A = webA.url!;
    const B = webB.url!;
    for (let i = 0; i < 3; i++) {
      const fixture = await sharedReportFixture(ctx, `${i + 1} Replica Road`);
      reports.push({ id: fixture.report.id, propertyId: fixture.propertyId, taskIds: fixture.taskIds });
    }

    // A session sealed by one process is good on the other (shared SESSION_SECRET, sessions in Postgres).
    statusOf(await staff.send(A, "POST", "/api/auth/login", STAFF), 200);
    statusOf(await staff.send(B, "GET", "/api/quote-requests"), 200);

    // Bookings through both, at once; a double submission split across the two is still one booking.
    await Promise.all(Array.from({ length: 6 }, (_, i) => book(i % 2 ? B : A, `booking-${i}@example.com`)));
    const twice = new Browser();
    const key = randomUUID();
    const [first, second] = await Promise.all(
      [A, B].map((base) => book(base, "twice@example.com", twice, { "Idempotency-Key": key })),
    );
    expect(second!.id).toBe(first!.id);
    expect(await count("select count(*)::int as n from inspection_bookings")).toBe(acknowledged.bookings.size);

    // Shares from both; each link opened at once through both processes by two browsers: one claim wins.
    const tokens = await Promise.all(reports.map((r, i) => share(i % 2 ? B : A, r.id, `share-${i}@example.com`)));
    const winners: Browser[] = [];
    for (const token of tokens) {
      const browsers = [new Browser(), new Browser()];
      const opened = await Promise.all(
        browsers.map((browser, i) => browser.send(i ? B : A, "GET", `/api/client-report/${token}`)),
      );
      expect(opened.map((o) => o.status).sort()).toEqual([200, 410]);
      winners.push(browsers[opened.findIndex((o) => o.status === 200)]!);
    }
    expect(await count("select count(*)::int as n from report_shares where claimed_at is not null")).toBe(
      tokens.length,
    );

    // The client's responses, submitted twice at once through both: one is recorded.
    for (const [i, token] of tokens.entries()) {
      const responses = reports[i]!.taskIds.map((id) => ({
        maintenanceTaskId: id,
        action: "request_quote",
        notes: null,
      }));
      const sent = await Promise.all(
        [A, B].map((base) => winners[i]!.send(base, "POST", `/api/client-report/${token}/responses`, { responses })),
      );
      expect(sent.map((s) => s.status).sort()).toEqual([201, 409]);
    }
    const quoteCount = reports.reduce((n, r) => n + r.taskIds.length, 0);
    expect(await count("select count(*)::int as n from quote_requests")).toBe(quoteCount);

    // Quote moves racing through both: 'quoted' on A and 'declined' on B; exactly one lands.
    for (const report of reports) {
      const listed = await staff.send(B, "GET", `/api/quote-requests?propertyId=${report.propertyId}`);
      const [raced, ...rest] = listed.body as { id: number }[];
      const moves = await Promise.all([
        staff.send(A, "PATCH", `/api/quote-requests/${raced!.id}`, { status: "quoted", quotedAmount: "$400" }),
        staff.send(B, "PATCH", `/api/quote-requests/${raced!.id}`, { status: "declined" }),
      ]);
      expect(moves.map((m) => m.status).sort()).toEqual([200, 409]);
      if (moves[0]!.status === 200) acknowledged.quotesReady.push(moves[0]!.body.clientEmail);
      for (const quote of rest) {
        const quoted = await staff.send(A, "PATCH", `/api/quote-requests/${quote.id}`, {
          status: "quoted",
          quotedAmount: "$250",
        });
        statusOf(quoted, 200);
        acknowledged.quotesReady.push(quoted.body.clientEmail);
      }
      const generated = await staff.send(B, "POST", `/api/properties/${report.propertyId}/generate-quote-report`);
      statusOf(generated, 201);
      acknowledged.quoteReports.push(generated.body.clientEmail);
    }

    // Recurring schedules through both (daily from today: each has a task tomorrow, for the reminders' day).
    const today = ctx.container.maintenance.today();
    for (const [i, report] of reports.slice(0, 2).entries()) {
      const created = await staff.send(i ? B : A, "POST", "/api/maintenance-schedules", {
        propertyId: report.propertyId,
        title: `Filter check ${i}`,
        category: "hvac",
        recurrenceType: "daily",
        startDate: today,
      });
      statusOf(created, 201);
      expect(created.body.tasksCreated).toBeGreaterThan(1);
    }

    // One Stripe event delivered to both processes at once (Stripe retries, or two load balancer paths): one payment.
    const event = StripeStandIn.signedEvent("checkout.session.completed", {
      id: `cs_test_${randomBytes(8).toString("hex")}`,
      object: "checkout.session",
      payment_status: "paid",
      status: "complete",
      amount_total: 41200,
      currency: "cad",
      metadata: { plan: "standard" },
      customer_details: { email: "payer@example.com", name: "Pat Payer" },
    });
    const deliveries = await Promise.all(
      [A, B, A, B].map((base) =>
        new Browser().send(base, "POST", "/api/stripe/webhook", event.payload, { "Stripe-Signature": event.header }),
      ),
    );
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    expect(deliveries.filter((d) => d.body.recorded)).toHaveLength(1);
    expect(
      await count("select count(*)::int as n from payments where provider_id = ?", [
        JSON.parse(event.payload).data.object.id,
      ]),
    ).toBe(1);

    await drained([MAIL_SEND_TASK, SHARE_MAIL_TASK, QUOTE_REPORT_MAIL_TASK]);
  }, 120_000);

  it("expand schedules and send the reminders' day once, run from both workers and the CLI at once", async () => {
    // Schedules whose expansion never ran (an interrupted run, a restore): daily from the day after tomorrow.
    const today = ctx.container.maintenance.today();
    const start = addDays(today, 2);
    const propertyId = reports[2]!.propertyId;
    const schedules = Array.from({ length: 150 }, (_, i) => ({
      property_id: propertyId,
      title: `Gutter round ${i}`,
      category: "exterior",
      recurrence_type: "daily",
      start_date: start,
    }));
    const ids = (await ctx.db("maintenance_schedules").insert(schedules).returning("id")).map(
      (r: { id: number }) => r.id,
    );
    // Four expansion jobs (two on each worker) and the CLI, let go together at their first read of the schedules:
    // each batch's schedules go to the run that locks them first, and the others skip them.
    const cli = await together("maintenance_schedules", 5, async () => {
      const run = runHaven(ctx.url, ["maintenance", "expand", "--json"], { env: { LOG_LEVEL: "silent", ...RACERS } });
      for (let i = 0; i < 4; i++) await addJob(MAINTENANCE_EXPAND_TASK);
      return run;
    });
    expect(cli.code, cli.stderr).toBe(0);
    await drained([MAINTENANCE_EXPAND_TASK]);
    // Every schedule: one task a day from its start to where it is expanded through, none twice, none missing.
    const perSchedule = await rows<{
      id: number;
      tasks: number;
      dates: number;
      first: string;
      last: string;
      through: string;
    }>(
      `select s.id, count(t.id)::int as tasks, count(distinct t.scheduled_date)::int as dates, min(t.scheduled_date)::text as first,
              max(t.scheduled_date)::text as last, s.expanded_through::text as through
       from maintenance_schedules s left join maintenance_tasks t on t.schedule_id = s.id where s.id = any(?) group by s.id`,
      [ids],
    );
    expect(perSchedule).toHaveLength(ids.length);
    for (const s of perSchedule) {
      expect(s.first).toBe(start);
      expect(s.last).toBe(s.through);
      const days = (Date.parse(s.through) - Date.parse(start)) / 86_400_000 + 1;
      expect({ tasks: s.tasks, dates: s.dates }).toEqual({ tasks: days, dates: days });
    }

    // The reminders' day: two acknowledged bookings are now tomorrow (as when their visit comes near), next to
    // the two schedules' tasks. Four reminder jobs (two on each worker) and two CLI runs claim them at once.
    const tomorrow = addDays(today, 1);
    const booked = [...acknowledged.bookings.keys()].slice(0, 2);
    await ctx.db("inspection_bookings").whereIn("id", booked).update({ scheduled_date: tomorrow });
    const clis = await together("maintenance_reminders", 6, async () => {
      const runs = Promise.all(
        [0, 1].map(() => runHaven(ctx.url, ["maintenance", "reminders"], { env: { LOG_LEVEL: "silent", ...RACERS } })),
      );
      for (let i = 0; i < 4; i++) await addJob(MAINTENANCE_REMINDERS_TASK);
      return runs;
    });
    for (const run of clis) expect(run.code, run.stderr).toBe(0);
    await drained([MAINTENANCE_REMINDERS_TASK, MAIL_SEND_TASK]);
    const reminders = await rows<{ kind: string; item_id: number; due_date: string }>(
      "select kind, item_id, due_date::text from maintenance_reminders order by kind, item_id",
    );
    const dueTasks = await rows<{ id: number }>(
      "select id from maintenance_tasks where scheduled_date = ? and status not in ('completed','cancelled') order by id",
      [tomorrow],
    );
    expect(reminders).toEqual([
      ...booked.sort((a, b) => a - b).map((id) => ({ kind: "booking", item_id: id, due_date: tomorrow })),
      ...dueTasks.map((t) => ({ kind: "task", item_id: t.id, due_date: tomorrow })),
    ]);
    expect(dueTasks).toHaveLength(2);
  }, 90_000);

  it("lose nothing acknowledged when a web process and a worker die by SIGKILL; the survivors finish the jobs left behind", async () => {
    const A = webA.url!;
    const B = webB.url!;
    // Both relays hold their answers, so each worker is caught in the middle of sending.
    victimRelay.hold();
    survivorRelay.hold();
    await Promise.all(Array.from({ length: 6 }, (_, i) => book(i % 2 ? B : A, `midway-${i}@example.com`)));
    await share(A, reports[0]!.id, "midway-share@example.com");
    const victimIds = (
      await rows<{ worker_id: string }>("select worker_id from worker_leases where holder = ?", [holderOf(victim)])
    ).map((r) => r.worker_id);
    expect(victimIds.length).toBeGreaterThan(0);
    const lockedByVictim = () =>
      rows<{ id: string; task_identifier: string }>(
        "select id::text, task_identifier from graphile_worker.jobs where locked_by = any(?)",
        [victimIds],
      );
    await until(
      "the doomed worker to be sending",
      async () => victimRelay.held() > 0 && (await lockedByVictim()).length > 0,
    );
    const leftBehind = await lockedByVictim();

    // SIGKILL: no shutdown code runs. What the dead worker was sending was never accepted by its relay.
    await Promise.all([webA.signal("SIGKILL"), victim.signal("SIGKILL")]);
    expect(victimRelay.drop()).toBeGreaterThan(0);
    survivorRelay.open();
    await expect(fetch(`${A}/healthz`)).rejects.toThrow();

    // The site carries on through web B, with the staff session web A sealed.
    await book(B, "after-0@example.com");
    await book(B, "after-1@example.com");
    statusOf(await staff.send(B, "GET", "/api/quote-requests"), 200);

    // The jobs the dead worker held run on the survivor once its lease runs out: done once, not in 4 hours.
    await until(
      "the jobs left behind to finish",
      async () =>
        (await count("select count(*)::int as n from graphile_worker.jobs where id = any(?::bigint[])", [
          leftBehind.map((j) => j.id),
        ])) === 0,
      30_000,
    );
    await drained([MAIL_SEND_TASK, SHARE_MAIL_TASK]);
    expect(await count("select count(*)::int as n from worker_leases where holder = ?", [holderOf(victim)])).toBe(0);
    expect(survivor.exited()).toBe(false);
    // Nothing acknowledged was lost: every booking any web process answered 201 for is there.
    const stored = (await rows<{ id: number }>("select id from inspection_bookings"))
      .map((r) => r.id)
      .sort((a, b) => a - b);
    expect(stored).toEqual([...acknowledged.bookings.keys()].sort((a, b) => a - b));

    // The reminders' day again, on the survivors: nothing is sent twice.
    const before = await count("select count(*)::int as n from maintenance_reminders");
    await addJob(MAINTENANCE_REMINDERS_TASK);
    const cli = await runHaven(ctx.url, ["maintenance", "reminders"], { env: { LOG_LEVEL: "silent" } });
    expect(cli.code, cli.stderr).toBe(0);
    await drained([MAINTENANCE_REMINDERS_TASK, MAIL_SEND_TASK]);
    expect(await count("select count(*)::int as n from maintenance_reminders")).toBe(before);
  }, 90_000);

  it("send every e-mail once: one per acknowledged booking, share, quote ready and quote report, and per reminder", async () => {
    const kindOf = (subject: string) =>
      /^Your Haven inspection is booked/.test(subject)
        ? "booking"
        : /^Your Haven Health Report is ready/.test(subject)
          ? "share"
          : /^Your Haven quote for/.test(subject)
            ? "quote report"
            : /^Your Haven quote is ready:/.test(subject)
              ? "quote ready"
              : /^Reminder:/.test(subject)
                ? "reminder"
                : `other (${subject})`;
    const reminders = await rows<{ email: string }>("select email from maintenance_reminders");
    const expected = [
      ...[...acknowledged.bookings.values()].map((to) => `${to} booking`),
      ...acknowledged.shares.map((to) => `${to} share`),
      ...acknowledged.quoteReports.map((to) => `${to} quote report`),
      ...acknowledged.quotesReady.map((to) => `${to} quote ready`),
      ...reminders.map((r) => `${r.email} reminder`),
    ].map((line) => line.toLowerCase());
    const received = (await box.mails()).map((mail) => {
      const to = (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address ?? "";
      return `${to} ${kindOf(mail.subject ?? "")}`.toLowerCase();
    });
    expect(received.sort()).toEqual(expected.sort());
  });
});
