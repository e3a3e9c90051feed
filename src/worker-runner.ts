import { EventEmitter } from "node:events";
import { Logger as WorkerLogger, type Runner, type WorkerEvents, run } from "graphile-worker";
import pg from "pg";
import type { Container } from "./container.js";
import { taskList } from "./jobs.js";
import { MAINTENANCE_CRONTAB } from "./modules/maintenance/maintenance.tasks.js";
import { PRIVACY_CRONTAB } from "./modules/privacy/privacy.tasks.js";
import { SUBSCRIPTIONS_CRONTAB } from "./modules/subscriptions/subscriptions.tasks.js";
import { startWorkerLease } from "./worker-lease.js";

export interface RunningWorker {
  runner: Runner;
  /** The worker's own pg pool (reported by /metrics). */
  pool: pg.Pool;
  /**
   * graphile-worker's graceful stop: no new jobs, and the jobs in flight get `graceMs` to finish. A job
   * still running then goes back to the queue at once (its lock is released), for another worker to run
   * now rather than after graphile-worker's 4-hour lock expiry. It never stays locked by a stopped worker.
   */
  stop(graceMs?: number): Promise<void>;
}

/** Starts graphile-worker on the container's database, logging through pino. */
export async function startWorker(container: Container, concurrency = container.env.WORKER_CONCURRENCY): Promise<RunningWorker> {
  let stopping = false;
  const logger = new WorkerLogger(() => (level, message, meta) => {
    // While stopping, Postgres may go first (Ctrl-C reaches it too): those errors are expected.
    if (stopping && level === "error") return;
    const method = level === "error" ? "error" : level === "warning" ? "warn" : "debug";
    container.log[method]({ worker: meta }, message);
  });
  // Our own pool, so that an idle connection dropped by a stopping Postgres is logged, not fatal.
  const pgPool = new pg.Pool({ connectionString: container.databaseUrl, max: concurrency + 2 });
  pgPool.on("error", (error) => {
    if (!stopping) container.log.warn({ err: error }, "worker database connection lost");
  });
  // Leases: when a worker process dies without stopping, the others unlock its jobs (worker-lease.ts).
  const events: WorkerEvents = new EventEmitter();
  const lease = await startWorkerLease({ databaseUrl: container.databaseUrl, pool: pgPool, events, log: container.log });
  const workerIds: string[] = [];
  events.on("worker:create", ({ worker }) => void workerIds.push(worker.workerId));
  const runner = await run({
    pgPool,
    events,
    concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    // Recurring jobs, one crontab line each (graphile-worker runs each scheduled time once).
    crontab: [MAINTENANCE_CRONTAB, PRIVACY_CRONTAB, SUBSCRIPTIONS_CRONTAB].join("\n"),
    logger,
    taskList: taskList(container),
  });
  let stopped: Promise<void> | null = null;
  const stop = async (graceMs: number) => {
    stopping = true;
    const graceful = runner.stop().then(
      () => true,
      () => true,
    );
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([graceful, new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)))]);
    clearTimeout(timer);
    await lease.stop();
    if (finished) {
      await pgPool.end().catch(() => undefined);
      return;
    }
    // Past the grace. Close our pool first, so that a job finishing now cannot mark as done a job another
    // worker may already hold; then hand the jobs back (their attempt counts stay; no backoff is added).
    void pgPool.end().catch(() => undefined);
    try {
      const { rows } = await container.db.raw("select count(*)::int as n from graphile_worker._private_jobs where locked_by = any(?::text[])", [workerIds]);
      await container.db.raw("select graphile_worker.force_unlock_workers(?::text[])", [workerIds]);
      container.log.warn({ jobs: rows[0]?.n ?? 0, graceSeconds: graceMs / 1000 }, "jobs still running at the end of the shutdown grace went back to the queue");
    } catch (error) {
      container.log.error({ err: error, workerIds }, "could not hand back the jobs in flight; other workers run them once the sweep finds this process gone");
    }
  };
  return {
    runner,
    pool: pgPool,
    stop: (graceMs = container.env.SHUTDOWN_GRACE_S * 1000) => {
      stopped ??= stop(graceMs);
      return stopped;
    },
  };
}
