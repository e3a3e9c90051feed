// Graceful shutdown of real processes: on SIGTERM /readyz turns 503 at once while /livez stays
// 200, a request in flight completes, and a job in flight either finishes within SHUTDOWN_GRACE_S or goes
// back to the queue for another worker, which does it exactly once.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../support/ports.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { type HavenProcess, killAll, spawnHaven, until, waitUntilServing } from "../support/processes.js";
import { type GatedSmtp, type Mailbox, mailbox, startGatedSmtp } from "../support/smtp-gate.js";

let ctx: TestContext;
let dataDir: string;
const processes: HavenProcess[] = [];
const relays: GatedSmtp[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "haven-shutdown-"));
});
afterEach(async () => {
  await killAll(processes.splice(0));
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});
afterAll(async () => {
  await ctx.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment of a spawned process on this test's database; nothing comes from a `.env`. */
const baseEnv = (extra: Record<string, string>) => ({
  NODE_ENV: "test",
  LOG_LEVEL: "info",
  HOST: "127.0.0.1",
  DATABASE_URL: ctx.url,
  DATA_DIR: dataDir,
  ...extra,
});

async function spawnWeb(extra: Record<string, string> = {}): Promise<HavenProcess> {
  const proc = spawnHaven(
    "web",
    "src/server.ts",
    baseEnv({ PORT: String(await freePort()), WORKER_MODE: "separate", ...extra }),
  );
  processes.push(proc);
  await waitUntilServing(proc);
  return proc;
}

/** A worker-only process with its probes on WORKER_PORT, ready once its /readyz says so. */
async function spawnWorker(
  name: string,
  smtpUrl: string,
  extra: Record<string, string> = {},
): Promise<HavenProcess & { probes: string }> {
  const port = await freePort();
  const proc = spawnHaven(
    name,
    "src/worker.ts",
    baseEnv({ WORKER_PORT: String(port), MAIL_MODE: "smtp", SMTP_URL: smtpUrl, ...extra }),
  );
  processes.push(proc);
  await waitUntilServing({ ...proc, url: `http://127.0.0.1:${port}` });
  return Object.assign(proc, { probes: `http://127.0.0.1:${port}` });
}

async function relay(box: Mailbox): Promise<GatedSmtp> {
  const started = await startGatedSmtp(box);
  relays.push(started);
  return started;
}

/** The pino lines a process printed (JSON objects), skipping anything else. */
const logLines = (proc: HavenProcess) =>
  proc
    .output()
    .split("\n")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { level: number; msg: string; [key: string]: unknown }];
      } catch {
        return [];
      }
    });

/** A GET on a connection of its own (no pooled keep-alive socket), answered once its body is read. */
const getOnNewConnection = (url: string) =>
  new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(url, { agent: false }, (res) => res.resume().on("end", () => resolve(res))).on("error", reject);
  });

/**
 * A real request held by the database: the test takes the plans table, GET /api/plans waits for it while `held`
 * runs; then the table is let go and the request must still end 200 with the three plans.
 */
async function whileRequestHeld(web: HavenProcess, held: () => Promise<void>): Promise<void> {
  const holder = new pg.Client({ connectionString: ctx.url });
  await holder.connect();
  try {
    await holder.query("begin");
    await holder.query("lock table plans in access exclusive mode");
    const slow = fetch(`${web.url}/api/plans`);
    await until("GET /api/plans to wait on the lock", async () => {
      const { rows } = await holder.query(
        "select count(*)::int as n from pg_locks where relation = 'plans'::regclass and not granted",
      );
      return rows[0].n > 0;
    });
    await held();
    await holder.query("commit");
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(3);
  } finally {
    await holder.end();
  }
}

const jobs = async () =>
  (await ctx.db.raw("select id, locked_by, attempts from graphile_worker._private_jobs")).rows as {
    id: string;
    locked_by: string | null;
    attempts: number;
  }[];

describe("web shutdown", () => {
  it("keeps a request in flight at SIGTERM to its end: /readyz says 503 at once, /livez 200, then the process exits 0", async () => {
    const web = await spawnWeb({ SHUTDOWN_GRACE_S: "20" });
    // The start line is a pino line that says which worker mode runs.
    const started = await until("the start line", () =>
      logLines(web).find((l) => l.msg.startsWith("haven web listening at ")),
    );
    expect(started.msg).toMatch(/; WORKER_MODE=separate: the job worker runs separately \(src\/worker\.ts\)$/);
    expect(started).toMatchObject({ level: 30, workerMode: "separate" });

    await whileRequestHeld(web, async () => {
      web.child.kill("SIGTERM");
      const draining = await until("/readyz to say 503", async () => {
        const res = await fetch(`${web.url}/readyz`);
        return res.status === 503 ? ((await res.json()) as Record<string, unknown>) : false;
      });
      expect(draining).toMatchObject({ status: "not ready", draining: true, database: "up" });
      expect((await fetch(`${web.url}/livez`)).status).toBe(200);
      expect(web.exited()).toBe(false);
    });
    expect(await web.exit).toEqual({ code: 0, signal: null });
    const messages = logLines(web).map((l) => l.msg);
    expect(messages).toContain("SIGTERM received: draining (requests and jobs in flight get 20 s), then stopping");
    expect(messages).toContain("stopped");
  });

  it("after SIGTERM answers with Connection: close, then refuses new connections while a request in flight still ends 200", async () => {
    const web = await spawnWeb({ SHUTDOWN_GRACE_S: "20" });
    await whileRequestHeld(web, async () => {
      web.child.kill("SIGTERM");
      // While it still listens, every answer closes its connection: a proxy's next request opens a new one.
      const closing = await until("a draining answer", async () => {
        const res = await getOnNewConnection(`${web.url}/livez`);
        return res.headers.connection === "close" ? res : false;
      });
      expect(closing.statusCode).toBe(200);
      // Then new connections are refused (a proxy retries them on another replica) although a request is in flight.
      await until("new connections to be refused", async () => {
        try {
          await getOnNewConnection(`${web.url}/livez`);
          return false;
        } catch (error) {
          return (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
        }
      });
      expect(web.exited()).toBe(false);
    });
    expect(await web.exit).toEqual({ code: 0, signal: null });
  });
});

describe("worker shutdown", () => {
  const message = (subject: string) => ({ to: "jane.doe@example.com", subject, text: "Hello" });

  it("lets a job in flight at SIGTERM finish within the grace, once", async () => {
    const box = mailbox();
    const smtp = await relay(box);
    const worker = await spawnWorker("worker", smtp.url, { SHUTDOWN_GRACE_S: "20" });
    smtp.hold();
    await ctx.container.mail.enqueue(ctx.db, message("Finished before the exit"));
    await until("the worker to be in the middle of sending", () => smtp.held() === 1);

    worker.child.kill("SIGTERM");
    await until("the worker to start draining", () =>
      logLines(worker).some((l) => l.msg.startsWith("SIGTERM received")),
    );
    expect(worker.exited()).toBe(false);
    smtp.open();

    expect(await worker.exit).toEqual({ code: 0, signal: null });
    expect((await box.mails()).map((m) => m.subject)).toEqual(["Finished before the exit"]);
    expect(await jobs()).toEqual([]);
  });

  it("hands a job still running at the end of the grace back to the queue: the other worker does it, exactly once", async () => {
    const box = mailbox();
    const victimSmtp = await relay(box);
    const survivorSmtp = await relay(box);
    const victim = await spawnWorker("victim", victimSmtp.url, { SHUTDOWN_GRACE_S: "1" });
    victimSmtp.hold();
    await ctx.container.mail.enqueue(ctx.db, message("Handed over"));
    await until("the victim to be in the middle of sending", () => victimSmtp.held() === 1);
    const [inFlight] = await jobs();
    expect(inFlight?.locked_by).toBeTruthy();

    // The survivor starts now, so the job can only be the victim's until the victim lets go of it.
    const survivor = await spawnWorker("survivor", survivorSmtp.url);
    victim.child.kill("SIGTERM");
    expect(await victim.exit).toEqual({ code: 0, signal: null });
    expect(
      logLines(victim).find(
        (l) => l.msg === "jobs still running at the end of the shutdown grace went back to the queue",
      ),
    ).toMatchObject({ jobs: 1 });
    // The victim left without an answer from its relay: nothing it sent was accepted.
    expect(victimSmtp.drop()).toBe(1);

    await until(
      "the survivor to send the message and finish the job",
      async () => box.received.length === 1 && (await jobs()).length === 0,
      30_000,
    );
    expect((await box.mails()).map((m) => m.subject)).toEqual(["Handed over"]);
    // The survivor's own count says the same: it sent the message, once.
    const metrics = await (await fetch(`${survivor.probes}/metrics`)).text();
    expect(metrics).toMatch(/^haven_mail_sent_total\{transport="smtp"\} 1$/m);
    // Two workers started one after the other, then a wait of up to 30 s: more than the project's 30 s in all.
  }, 90_000);
});
