// GET /metrics: Prometheus text that parses, counters that move with traffic, job and pool
// gauges read from the database, and access only with METRICS_TOKEN or from the machine itself.
// Also the probes: /livez and /readyz.
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { freePort } from "../support/ports.js";
import { createKnex } from "../../src/db/knex.js";
import { MailService } from "../../src/modules/mail/index.js";
import { isLoopback } from "../../src/observability/ops.routes.js";
import { routeLabel } from "../../src/observability/metrics.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// The text exposition format, line by line: HELP, TYPE, or `name{label="value",…} number`.
const HELP = /^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/;
const TYPE = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/;
const SAMPLE =
  /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\.)*",?)*)\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|[Nn]a[Nn]|\+Inf|-Inf))$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\.)*)"/g;

/** Parses the exposition text strictly: a line that is none of the three shapes fails the test. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  const typed = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const type = TYPE.exec(line);
    if (type) {
      typed.add(type[1]!);
      continue;
    }
    if (HELP.test(line)) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels = Object.fromEntries([...(sample[2] ?? "").matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  // Every sample belongs to a declared metric (histograms add _bucket, _sum and _count).
  for (const { name } of samples)
    expect(typed.has(name) || typed.has(name.replace(/_(bucket|sum|count)$/, "")), name).toBe(true);
  return samples;
}

async function scrape(agent = ctx.agent()): Promise<Sample[]> {
  const res = await agent.get("/metrics").expect(200);
  expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers["cache-control"]).toBe("no-store");
  return parse(res.text);
}

/** The value of the one sample with this name and these labels (0 when absent: a counter not yet moved). */
const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value ?? 0;

const requests = (samples: Sample[], route: string, status: string) =>
  value(samples, "haven_http_request_duration_seconds_count", { method: "GET", route, status });

describe("GET /metrics", () => {
  it("serves Prometheus text that parses, with Node's own figures", async () => {
    const samples = await scrape();
    expect(samples.length).toBeGreaterThan(20);
    expect(samples.some((s) => s.name === "process_resident_memory_bytes")).toBe(true);
  });

  it("counts requests by route pattern and status: never the raw URL, unmatched ones as such", async () => {
    const before = await scrape();
    await ctx.agent().get("/api/plans").expect(200);
    await ctx.agent().get("/api/plans").expect(200);
    await ctx.agent().get("/api/reports/987654").expect(401);
    await ctx.agent().get("/no/such/page/424242").expect(404);
    const after = await scrape();
    expect(requests(after, "/api/plans", "200") - requests(before, "/api/plans", "200")).toBe(2);
    expect(requests(after, "/api/reports/:id", "401") - requests(before, "/api/reports/:id", "401")).toBe(1);
    expect(requests(after, "unmatched", "404") - requests(before, "unmatched", "404")).toBe(1);
    const routes = after
      .filter((s) => s.name === "haven_http_request_duration_seconds_count")
      .map((s) => s.labels.route);
    expect(routes.filter((route) => /987654|424242/.test(route ?? ""))).toEqual([]);
    // Buckets and sum come with the count.
    expect(
      value(after, "haven_http_request_duration_seconds_bucket", { route: "/api/plans", status: "200", le: "+Inf" }),
    ).toBe(requests(after, "/api/plans", "200"));
  });

  it("reports the job queue by state: queued, running, failed", async () => {
    const jobs = (samples: Sample[]) => ({
      queued: value(samples, "haven_jobs", { state: "queued" }),
      running: value(samples, "haven_jobs", { state: "running" }),
      failed: value(samples, "haven_jobs", { state: "failed" }),
    });
    const message = { to: "metrics@example.com", subject: "Queued", text: "Hello" };
    for (let i = 0; i < 3; i++) await ctx.container.mail.enqueue(ctx.db, message);
    expect(jobs(await scrape())).toEqual({ queued: 3, running: 0, failed: 0 });

    const ids = (await ctx.db.raw("select id from graphile_worker._private_jobs order by id")).rows.map(
      (r: { id: string }) => r.id,
    );
    await ctx.db.raw(
      "update graphile_worker._private_jobs set locked_at = now(), locked_by = 'worker-test' where id = ?",
      [ids[0]],
    );
    await ctx.db.raw("update graphile_worker._private_jobs set attempts = max_attempts where id = ?", [ids[1]]);
    expect(jobs(await scrape())).toEqual({ queued: 1, running: 1, failed: 1 });
    await ctx.db.raw("delete from graphile_worker._private_jobs");
    expect(jobs(await scrape())).toEqual({ queued: 0, running: 0, failed: 0 });
  });

  it("reports the database pool: in use, idle and waiting", async () => {
    const samples = await scrape();
    const pool = samples
      .filter((s) => s.name === "haven_db_pool_connections" && s.labels.pool === "app")
      .map((s) => s.labels.state);
    expect(pool.sort()).toEqual(["idle", "in_use", "waiting"]);
    // Held connections show as in use, and requests beyond the pool's five as waiting.
    const held = await Promise.all([0, 1, 2, 3, 4].map(() => ctx.db.client.acquireConnection()));
    const waiting = Promise.resolve(ctx.db.raw("select 1"));
    try {
      const busy = await scrape();
      expect(value(busy, "haven_db_pool_connections", { pool: "app", state: "in_use" })).toBe(5);
      expect(value(busy, "haven_db_pool_connections", { pool: "app", state: "waiting" })).toBe(1);
    } finally {
      for (const connection of held) await ctx.db.client.releaseConnection(connection);
      await waiting;
    }
  });

  it("counts e-mails sent and failed", async () => {
    const log = pino({ level: "silent" });
    const outbox = new MailService(
      { from: "Haven <no-reply@haven.test>", outboxDir: path.join(ctx.env.DATA_DIR, "outbox") },
      log,
    );
    const closedPort = await freePort();
    const unreachable = new MailService(
      { from: "Haven <no-reply@haven.test>", smtpUrl: `smtp://127.0.0.1:${closedPort}`, outboxDir: "unused" },
      log,
    );
    const mail = { to: "counted@example.com", subject: "Counted", text: "Hello" };
    const before = await scrape();
    await outbox.send(mail);
    await outbox.send(mail);
    await expect(unreachable.send(mail)).rejects.toThrow();
    const after = await scrape();
    expect(
      value(after, "haven_mail_sent_total", { transport: "outbox" }) -
        value(before, "haven_mail_sent_total", { transport: "outbox" }),
    ).toBe(2);
    expect(
      value(after, "haven_mail_failed_total", { transport: "smtp" }) -
        value(before, "haven_mail_failed_total", { transport: "smtp" }),
    ).toBe(1);
  });
});

describe("who may scrape", () => {
  it("with METRICS_TOKEN: the bearer token, else 401", async () => {
    const token = "scrape-token-0123456789";
    const guarded = await createTestContext({ METRICS_TOKEN: token });
    try {
      const agent = () => supertest(guarded.app);
      const missing = await agent().get("/metrics").expect(401);
      expect(missing.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(missing.body.message).toContain("METRICS_TOKEN");
      await agent().get("/metrics").set("Authorization", "Bearer wrong-token-0123456789").expect(401);
      await agent().get("/metrics").set("Authorization", `Basic ${token}`).expect(401);
      const res = await agent().get("/metrics").set("Authorization", `Bearer ${token}`).expect(200);
      expect(parse(res.text).length).toBeGreaterThan(0);
    } finally {
      await guarded.close();
    }
  });

  it("without a token: the machine itself only (403 for a client elsewhere, as a trusted proxy reports it)", async () => {
    const proxied = await createTestContext({ TRUST_PROXY: "loopback" });
    try {
      const res = await supertest(proxied.app).get("/metrics").set("X-Forwarded-For", "203.0.113.9").expect(403);
      expect(res.body.message).toContain("METRICS_TOKEN");
      await supertest(proxied.app).get("/metrics").expect(200);
    } finally {
      await proxied.close();
    }
  });

  // A web replica reached directly (not through the proxy), from another machine: that machine writes the
  // X-Forwarded-For header itself. This machine's own non-loopback address stands in for the other machine.
  const outside = Object.values(os.networkInterfaces())
    .flat()
    .find((address) => address && !address.internal && address.family === "IPv4")?.address;
  it.skipIf(!outside)(
    "without a token, a forged X-Forwarded-For: 127.0.0.1 from elsewhere is refused, even with TRUST_PROXY=1",
    async () => {
      const proxied = await createTestContext({ TRUST_PROXY: "1" });
      const server = http.createServer(proxied.app).listen(0, "0.0.0.0");
      try {
        await once(server, "listening");
        const { port } = server.address() as AddressInfo;
        const scrape = (headers: Record<string, string>) =>
          new Promise<number | undefined>((resolve, reject) => {
            http
              .get({ host: outside, port, path: "/metrics", localAddress: outside, headers }, (res) => {
                res.resume();
                res.on("end", () => resolve(res.statusCode));
              })
              .on("error", reject);
          });
        expect(await scrape({ "X-Forwarded-For": "127.0.0.1" })).toBe(403);
        expect(await scrape({ "X-Forwarded-For": "::1, 127.0.0.1" })).toBe(403);
        expect(await scrape({})).toBe(403);
        // The machine itself still may.
        await supertest(proxied.app).get("/metrics").expect(200);
      } finally {
        server.close();
        await proxied.close();
      }
    },
  );

  it("knows the loopback addresses", () => {
    for (const address of ["127.0.0.1", "127.3.4.5", "::1", "::ffff:127.0.0.1"])
      expect(isLoopback(address), address).toBe(true);
    for (const address of ["203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "", undefined])
      expect(isLoopback(address), String(address)).toBe(false);
  });
});

describe("probes", () => {
  it("GET /livez answers while the process runs", async () => {
    expect((await ctx.agent().get("/livez").expect(200)).body).toEqual({ status: "ok" });
  });

  it("GET /readyz checks the database, the migrations and the built assets", async () => {
    const res = await ctx.agent().get("/readyz").expect(200);
    expect(res.body).toEqual({
      status: "ready",
      draining: false,
      database: "up",
      migrations: "current",
      assets: "present",
    });
  });

  it("GET /readyz is 503 while draining and while a migration is pending", async () => {
    const lifecycle = { draining: true };
    const draining = await supertest(createApp(ctx.container, { lifecycle })).get("/readyz").expect(503);
    expect(draining.body).toMatchObject({ status: "not ready", draining: true, database: "up" });
    await supertest(createApp(ctx.container, { lifecycle })).get("/livez").expect(200);

    const [last] = await ctx.db("knex_migrations").orderBy("id", "desc").limit(1);
    await ctx.db("knex_migrations").where({ id: last.id }).delete();
    try {
      const pending = await ctx.agent().get("/readyz").expect(503);
      expect(pending.body).toMatchObject({ status: "not ready", migrations: "pending" });
    } finally {
      await ctx.db("knex_migrations").insert(last);
    }
    await ctx.agent().get("/readyz").expect(200);
  });

  it("GET /readyz says the database is down when it does not answer", async () => {
    const unreachable = createKnex(`postgres://nobody:x@127.0.0.1:${await freePort()}/none`, { min: 0, max: 1 });
    try {
      const res = await supertest(createApp({ ...ctx.container, db: unreachable }))
        .get("/readyz")
        .expect(503);
      expect(res.body).toMatchObject({ status: "not ready", database: "down", migrations: "unknown" });
    } finally {
      await unreachable.destroy();
    }
  });
});

describe("route labels", () => {
  it("joins the mount path and the route pattern", () => {
    expect(routeLabel({ baseUrl: "/api", route: { path: "/reports/:id" } })).toBe("/api/reports/:id");
    expect(routeLabel({ baseUrl: "", route: { path: "/" } })).toBe("/");
    expect(routeLabel({ baseUrl: "/api" })).toBe("unmatched");
  });
});
