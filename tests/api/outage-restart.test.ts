// A Postgres that restarts under real processes: the embedded server of `npm start`'s setup (src/server.ts without
// DATABASE_URL boots it the same way, without building assets or seeding demo data) killed twice, and one Postgres
// stopped and started under a separate web and worker. Each time Haven heals by itself (/readyz 200, a job
// queued afterwards runs), says so in a few log lines rather than thousands, and keeps its memory and its
// Postgres connections bounded; SIGTERM during an outage still stops the processes at once.
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { loadEnv } from "../../src/config/env.js";
import { createContainer } from "../../src/container.js";
import {
  type EmbeddedServer,
  embeddedUrl,
  freePort,
  isPortTaken,
  startEmbeddedPostgres,
} from "../../src/db/embedded.js";
import { createKnex } from "../../src/db/knex.js";
import { type HavenProcess, killAll, spawnHaven, until, waitUntilServing } from "../support/processes.js";
import { type GatedSmtp, mailbox, startGatedSmtp } from "../support/smtp-gate.js";

const DB_POOL_MAX = 4;
const WORKER_CONCURRENCY = 2;
// The web pool, the worker's pool (WORKER_CONCURRENCY + 2, docs: README "DB_POOL_MAX") and its lease connection.
const CONNECTIONS_ALLOWED = DB_POOL_MAX + WORKER_CONCURRENCY + 2 + 1;
/** Log lines about a lost or regained connection, per outage, at most (the bug wrote thousands a second). */
const LINES_PER_OUTAGE = 20;

const processes: HavenProcess[] = [];
const folders: string[] = [];
const servers: EmbeddedServer[] = [];
const relays: GatedSmtp[] = [];
afterEach(async (context) => {
  if (context.task.result?.state === "fail")
    for (const proc of processes) console.log(`--- ${proc.name} (pid ${proc.pid})\n${proc.output().slice(-20_000)}`);
  await killAll(processes.splice(0));
  for (const server of servers.splice(0)) await server.stop();
  await Promise.all(relays.splice(0).map((relay) => relay.close()));
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A data folder; as root, the embedded cluster it links to (/var/lib/haven/clusters/…) goes with it. */
function dataFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "haven-pg-restart-"));
  folders.push(dir);
  return dir;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

/** Lines about the database connection: what an outage may add to the log, a few per outage. */
const connectionLines = (proc: HavenProcess) =>
  proc
    .output()
    .split("\n")
    .filter((line) => /lost|connection/i.test(line));

/** The database's connections other than this test's own, and the most seen so far. */
async function connections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return rows[0].n as number;
  } finally {
    await client.end();
  }
}

/** A customer My Home knows, so that a sign-in request queues an e-mail. */
async function addCustomer(url: string, email: string) {
  const db = createKnex(url, { min: 0, max: 1 });
  try {
    const container = createContainer(loadEnv({ NODE_ENV: "test", DATABASE_URL: url }), url, db, {
      log: pino({ level: "silent" }),
    });
    await container.plans.seed();
    await container.customers.createWithProperty(
      { email, name: "Rae Restart", phone: "613-555-0109", subscriptionPlan: "basic" },
      {
        address: "9 Restart Road",
        city: "Ottawa",
        province: "ON",
        postalCode: "K1A 0A9",
        squareFootage: 1500,
        yearBuilt: 1990,
      },
    );
  } finally {
    await db.destroy();
  }
}

const outboxFiles = (dataDir: string) =>
  existsSync(path.join(dataDir, "outbox"))
    ? readdirSync(path.join(dataDir, "outbox")).filter((f) => f.endsWith(".eml"))
    : [];

/** Asks `web` for a My Home sign-in e-mail: a job for the worker. */
async function signIn(web: HavenProcess, email: string) {
  const res = await fetch(`${web.url}/my-home/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams({ email }).toString(),
  });
  expect(res.status).toBe(200);
}

/** Asks for a sign-in e-mail and waits for the worker to write it to the outbox. */
async function signInMailIsSent(web: HavenProcess, dataDir: string, email: string) {
  const before = outboxFiles(dataDir).length;
  await signIn(web, email);
  await until("the sign-in e-mail in the outbox", () => outboxFiles(dataDir).length > before, 30_000);
}

async function jobsLeft(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("select count(*)::int as n from graphile_worker.jobs")).rows[0].n as number;
  } finally {
    await client.end();
  }
}

/** /readyz answers 200 (the database answers again); the connections seen meanwhile are recorded. */
async function readyAgain(url: string, dbUrl: string, seen: number[], timeoutMs = 30_000) {
  await until(
    `${url}/readyz to say 200`,
    async () => {
      seen.push(await connections(dbUrl).catch(() => 0));
      return (await fetch(`${url}/readyz`)).status === 200;
    },
    timeoutMs,
    250,
  );
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);

describe("a Postgres restart", () => {
  it("heals Haven twice when its embedded Postgres is killed: the log says so in a few lines, memory and connections stay bounded, and SIGTERM still stops it", async () => {
    const dataDir = dataFolder();
    const [port, pgPort] = [await freePort(), await freePort()];
    const haven = spawnHaven("haven (embedded Postgres)", "src/server.ts", {
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      MAIL_MODE: "outbox",
      WORKER_MODE: "inline",
      DB_POOL_MAX: String(DB_POOL_MAX),
      WORKER_CONCURRENCY: String(WORKER_CONCURRENCY),
    });
    processes.push(haven);
    await waitUntilServing(haven);
    if (existsSync(path.join(dataDir, "postgres"))) folders.push(realpathSync(path.join(dataDir, "postgres")));
    const dbUrl = embeddedUrl(pgPort, "haven");
    const email = "rae.restart@example.com";
    await addCustomer(dbUrl, email);
    await signInMailIsSent(haven, dataDir, email);
    const rssBefore = rssMb(haven.pid);

    for (let kill = 1; kill <= 2; kill++) {
      const linesBefore = connectionLines(haven).length;
      const victim = postmasterPid(dataDir);
      process.kill(victim, "SIGKILL");
      await until(
        "Haven to start its Postgres again",
        () => haven.output().split("the embedded Postgres is running again").length - 1 === kill,
        30_000,
      );
      const seen: number[] = [];
      await readyAgain(haven.url!, dbUrl, seen);
      expect(postmasterPid(dataDir)).not.toBe(victim);
      await signInMailIsSent(haven, dataDir, email);
      seen.push(await connections(dbUrl));

      const lines = connectionLines(haven).slice(linesBefore);
      expect(lines.length, lines.join("\n")).toBeLessThan(LINES_PER_OUTAGE);
      expect(Math.max(...seen), `connections seen: ${seen.join(", ")}`).toBeLessThanOrEqual(CONNECTIONS_ALLOWED);
      expect(rssMb(haven.pid)).toBeLessThan(rssBefore + 100);
      // The worker takes its lease again too (it may come back a little after the pool, its backoff is its own).
      await until(
        "the worker lease to be taken again",
        () => (haven.output().match(/worker lease connection back after/g)?.length ?? 0) === kill,
        30_000,
      );
    }
    // The lease says once that its connection went and once that it came back, per outage.
    expect(haven.output().match(/worker lease connection lost/g)?.length).toBe(2);
    expect(haven.output().match(/worker lease connection back after \d+\.\d s/g)?.length).toBe(2);

    // Killed once more and stopped while Haven restarts it: Haven exits 0 at once and leaves no Postgres behind.
    process.kill(postmasterPid(dataDir), "SIGKILL");
    await until(
      "Haven to notice",
      () => haven.output().split("the embedded Postgres stopped unexpectedly").length - 1 === 3,
      30_000,
    );
    const asked = Date.now();
    haven.child.kill("SIGTERM");
    expect(await haven.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - asked).toBeLessThan(10_000);
    await until("its Postgres to be gone", async () => !(await isPortTaken(pgPort)), 15_000);
  }, 90_000);

  it("heals a separate web and worker when their Postgres stops and starts mid-job, and SIGTERM during an outage stops them promptly", async () => {
    const dataDir = dataFolder();
    const server = await startEmbeddedPostgres({
      dir: path.join(dataDir, "pg"),
      port: await freePort(),
      database: "haven",
      durable: false,
    });
    servers.push(server);
    folders.push(server.dataDir);
    const box = mailbox();
    const relay = await startGatedSmtp(box);
    relays.push(relay);
    const shared = {
      DATABASE_URL: server.url,
      DATA_DIR: dataDir,
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      WORKER_MODE: "separate",
      DB_POOL_MAX: String(DB_POOL_MAX),
      SHUTDOWN_GRACE_S: "20",
    };
    const web = spawnHaven("web", "src/server.ts", { ...shared, PORT: String(await freePort()), MAIL_MODE: "outbox" });
    processes.push(web);
    await waitUntilServing(web);
    // One job at a time: a worker lost mid-job leaves none, unless the runner is started again.
    const workerPort = await freePort();
    const worker = spawnHaven("worker", "src/worker.ts", {
      ...shared,
      WORKER_PORT: String(workerPort),
      WORKER_CONCURRENCY: "1",
      MAIL_MODE: "smtp",
      SMTP_URL: relay.url,
    });
    processes.push(worker);
    const workerProbes = `http://127.0.0.1:${workerPort}`;
    await waitUntilServing({ ...worker, url: workerProbes });
    const email = "sam.separate@example.com";
    await addCustomer(server.url, email);
    const sent = async () => (await box.mails()).filter((m) => m.subject?.startsWith("Your Haven sign-in")).length;
    await signIn(web, email);
    await until("the first sign-in e-mail", async () => (await sent()) === 1);
    const rssBefore = { web: rssMb(web.pid), worker: rssMb(worker.pid) };
    const linesBefore = { web: connectionLines(web).length, worker: connectionLines(worker).length };

    // A job in flight when Postgres stops: it finishes while the database is away, so cannot be marked done.
    relay.hold();
    await signIn(web, email);
    await until("the worker to be sending", () => relay.held() === 1);
    await server.stop();
    await until("the worker to notice", () => /worker lease connection lost/.test(worker.output()), 20_000);
    relay.open();
    await until("the worker's runner to stop", () => /job runner stopped/.test(worker.output()), 20_000);
    await until("web's /readyz to say 503", async () => (await fetch(`${web.url}/readyz`)).status === 503, 20_000);
    await server.restart();
    const seen: number[] = [];
    await readyAgain(web.url!, server.url, seen);
    await readyAgain(workerProbes, server.url, seen);
    // The web process's readiness checks saw the outage: said once when it began, once when it ended.
    expect(web.output().match(/"msg":"database connection lost/g)).toHaveLength(1);
    expect(web.output()).toMatch(/"msg":"database connection back after \d+\.\d s"/);
    // The job cut off goes back to the queue (sent again: at least once), and one queued now is sent too.
    await signIn(web, email);
    await until("the e-mails queued before and after the restart", async () => (await sent()) >= 4, 30_000);
    await until("the queue to be empty", async () => (await jobsLeft(server.url)) === 0);
    seen.push(await connections(server.url));
    for (const proc of [web, worker]) {
      const lines = connectionLines(proc).slice(proc === web ? linesBefore.web : linesBefore.worker);
      expect(lines.length, `${proc.name}:\n${lines.join("\n")}`).toBeLessThan(LINES_PER_OUTAGE);
    }
    expect(worker.output()).toMatch(/job runner back after \d+\.\d s/);
    expect(Math.max(...seen), `connections seen: ${seen.join(", ")}`).toBeLessThanOrEqual(CONNECTIONS_ALLOWED);
    expect(rssMb(web.pid)).toBeLessThan(rssBefore.web + 100);
    expect(rssMb(worker.pid)).toBeLessThan(rssBefore.worker + 100);

    // Down again, and stopped meanwhile: both exit 0 within seconds, however the database fares.
    await server.stop();
    await until(
      "the worker to notice again",
      // At least once more than before: its lease check may say so more than once while Postgres stays down.
      () => (worker.output().match(/worker lease connection lost/g)?.length ?? 0) >= 2,
      30_000,
    );
    const asked = Date.now();
    web.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await worker.exit).toEqual({ code: 0, signal: null });
    expect(await web.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - asked).toBeLessThan(10_000);
  }, 90_000);
});
