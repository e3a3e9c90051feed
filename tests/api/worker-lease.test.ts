// Worker leases (src/worker-lease.ts): which locked jobs a sweep gives back to the queue. The whole story,
// with real processes killed by SIGKILL, is in scale-out.test.ts; here each rule on its own.
import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import net from "node:net";
import { Writable } from "node:stream";
import type { WorkerEvents } from "graphile-worker";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNLEASED_GRACE_SECONDS, type WorkerLease, startWorkerLease } from "../../src/worker-lease.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { until } from "../support/processes.js";

let ctx: TestContext;
let pool: pg.Pool;
const leases: WorkerLease[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  pool = new pg.Pool({ connectionString: ctx.url, max: 4 });
});
afterAll(async () => {
  for (const lease of leases) await lease.stop();
  await pool?.end();
  await ctx?.close();
});

/** A worker process's lease, with one graphile-worker id created in it. */
async function liveProcess(workerId: string) {
  const events: WorkerEvents = new EventEmitter();
  const lease = await startWorkerLease({ databaseUrl: ctx.url, pool, events, log: pino({ level: "silent" }) });
  leases.push(lease);
  events.emit("worker:create", { worker: { workerId } } as never);
  await until(
    "the lease to be recorded",
    async () => (await ctx.db("worker_leases").where({ worker_id: workerId })).length === 1,
  );
  return lease;
}

/** A queued job, locked by `workerId` `secondsAgo` seconds ago (as graphile-worker's get_job would have). */
async function lockedJob(workerId: string, secondsAgo: number): Promise<string> {
  const { rows } = await ctx.db.raw("select id::text from graphile_worker.add_job('test.noop')");
  await ctx.db.raw(
    "update graphile_worker._private_jobs set locked_by = ?, locked_at = now() - make_interval(secs => ?) where id = ?",
    [workerId, secondsAgo, rows[0].id],
  );
  return rows[0].id;
}

const lockedBy = async (jobId: string) =>
  (await ctx.db.raw("select locked_by from graphile_worker.jobs where id = ?", [jobId])).rows[0].locked_by as
    | string
    | null;

describe("worker leases", () => {
  it("give back the jobs of a process that is gone, and only those", async () => {
    const sweeper = await liveProcess("worker-sweeper");
    // Alive: holds its lock, however long ago it locked its job and though it never 'renews' anything.
    await liveProcess("worker-alive");
    const alive = await lockedJob("worker-alive", 3600);
    // Gone: its lease row is there, but no session holds its lock any more (killed: the connection closed).
    await ctx.db("worker_leases").insert({
      worker_id: "worker-gone",
      holder: "elsewhere:1",
      lock_key: BigInt.asIntN(64, randomBytes(8).readBigUInt64BE()).toString(),
    });
    const orphan = await lockedJob("worker-gone", 1);
    // No lease at all (a worker from before leases, or one that has just started): given back after the grace only.
    const recent = await lockedJob("worker-unleased-recent", 10);
    const old = await lockedJob("worker-unleased-old", UNLEASED_GRACE_SECONDS + 60);

    expect((await sweeper.sweep()).sort()).toEqual(["worker-gone", "worker-unleased-old"]);
    expect(await lockedBy(orphan)).toBeNull();
    expect(await lockedBy(old)).toBeNull();
    expect(await lockedBy(alive)).toBe("worker-alive");
    expect(await lockedBy(recent)).toBe("worker-unleased-recent");
    // The dead process's lease is gone; the live ones stay, and a second sweep finds nothing.
    expect((await ctx.db("worker_leases").orderBy("worker_id")).map((l: { worker_id: string }) => l.worker_id)).toEqual(
      ["worker-alive", "worker-sweeper"],
    );
    expect(await sweeper.sweep()).toEqual([]);
  });

  it("take the lease again when its connection is lost, and give it up on stop", async () => {
    const lease = await liveProcess("worker-reconnects");
    const job = await lockedJob("worker-reconnects", 3600);
    // Cut the lease connections as a network failure would: each process takes its lock again on a new one.
    const leaseBackends = async () =>
      (
        await ctx.db.raw(
          "select pid from pg_stat_activity where application_name = 'haven worker lease' and datname = current_database()",
        )
      ).rows.map((r: { pid: number }) => r.pid) as number[];
    const cut = await leaseBackends();
    await ctx.db.raw("select pg_terminate_backend(pid) from unnest(?::int[]) as pid", [cut]);
    await until(
      "the locks to be held again",
      async () => (await leaseBackends()).filter((pid) => !cut.includes(pid)).length === leases.length,
    );
    const other = await liveProcess("worker-other");
    await other.sweep();
    expect(await lockedBy(job)).toBe("worker-reconnects");
    await lease.stop();
    leases.splice(leases.indexOf(lease), 1);
    expect(await ctx.db("worker_leases").where({ worker_id: "worker-reconnects" })).toEqual([]);
  });
});

/** A TCP hop to the test's Postgres that can be cut: while cut, it drops its connections and every new one. */
async function cuttableProxy(target: string) {
  const { hostname, port } = new URL(target);
  let cut = false;
  let attempts = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    attempts++;
    if (cut) return void socket.destroy();
    const upstream = net.connect(Number(port), hostname);
    for (const [a, b] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      a.pipe(b);
      a.on("error", () => b.destroy());
      a.on("close", () => b.destroy());
    }
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    attempts: () => attempts,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    mend() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a lease whose database is away", () => {
  it("tries again one attempt at a time, and says so once when lost and once when back", async () => {
    const proxy = await cuttableProxy(ctx.url);
    const lines: string[] = [];
    const log = pino(
      { level: "info" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(...chunk.toString().split("\n").filter(Boolean));
          done();
        },
      }),
    );
    const events: WorkerEvents = new EventEmitter();
    const lease = await startWorkerLease({ databaseUrl: proxy.url, pool, events, log });
    try {
      events.emit("worker:create", { worker: { workerId: "worker-cut-off" } } as never);
      await until(
        "the lease to be recorded",
        async () => (await ctx.db("worker_leases").where({ worker_id: "worker-cut-off" })).length === 1,
      );
      const before = proxy.attempts();
      proxy.cut();
      // Every failed attempt used to start two more (a failed connect() emits 'end' as well): thousands a second.
      await until("a few attempts to fail", () => proxy.attempts() - before >= 4, 20_000, 10);
      const lost = lines.filter((line) => line.includes("worker lease connection lost"));
      expect(lost).toHaveLength(1);
      proxy.mend();
      await until(
        "the lease to be back",
        () => lines.some((line) => /worker lease connection back after \d+\.\d s/.test(line)),
        20_000,
      );
      expect(proxy.attempts() - before).toBeLessThan(12);
      expect(lines.filter((line) => line.includes("worker lease connection lost"))).toHaveLength(1);
      expect(await ctx.db("worker_leases").where({ worker_id: "worker-cut-off" })).toHaveLength(1);
    } finally {
      await lease.stop();
      await proxy.close();
    }
  });
});
