import { EventEmitter } from "node:events";
import { Logger as WorkerLogger, type Runner, type WorkerEvents, run } from "graphile-worker";
import pg from "pg";
import type { Container } from "./container.js";
import { taskList } from "./jobs.js";
import { MAINTENANCE_CRONTAB } from "./modules/maintenance/index.js";
import { PRIVACY_CRONTAB } from "./modules/privacy/index.js";
import { NOTIFICATIONS_CRONTAB } from "./modules/notifications/index.js";
import { QUOTES_CRONTAB } from "./modules/quotes/after-yes.tasks.js";
import { SUBSCRIPTIONS_CRONTAB } from "./modules/subscriptions/subscriptions.tasks.js";
import { HOME_TAX_CRONTAB } from "./modules/subscriptions/home-tax.tasks.js";
import { SUBSCRIPTIONS_RECONCILE_CRONTAB } from "./modules/subscriptions/reconcile.tasks.js";
import { backupCrontab } from "./ops/backup.js";
import { Outage, retryUntilDone, settledWithin } from "./db/reconnect.js";
import { startWorkerLease } from "./worker-lease.js";

export interface RunningWorker {
  /** graphile-worker's runner now (a new one when it had to be restarted). */
  readonly runner: Runner;
  /** The worker's own pg pool (reported by /metrics). */
  pool: pg.Pool;
  /**
   * graphile-worker's graceful stop: no new jobs, and the jobs in flight get `graceMs` to finish. A job
   * still running then goes back to the queue at once (its lock is released), for another worker to run
   * now rather than after graphile-worker's 4-hour lock expiry. It never stays locked by a stopped worker.
   */
  stop(graceMs?: number): Promise<void>;
}

// What graphile-worker says at every failed attempt while Postgres is away (its listener retries with its own
// jittered backoff); the outage is said once instead, here and by the lease.
const CONNECTION_NOISE =
  /^(Error with notify listener|PostgreSQL (idle|active) client generated error|Failed to reset locked|Error occurred (attempting to UNLISTEN|releasing client|whilst releasing listening client))/;

/**
 * graphile-worker's logger, through pino. What a task says through its own `helpers.logger` (scope label "job": the
 * daily backup, the purge, the reconcile) keeps its level, so an info line is seen at LOG_LEVEL=info; graphile-worker's
 * own info lines (a worker connected, each job completed) go to debug, or every job would be a line.
 */
export function workerLogger(
  log: Pick<Container["log"], "debug" | "info" | "warn" | "error">,
  options: { quiet?: (level: string) => boolean; noise?: () => void } = {},
): WorkerLogger {
  return new WorkerLogger((scope) => (level, message, meta) => {
    if (options.quiet?.(level)) return;
    if (CONNECTION_NOISE.test(message)) {
      options.noise?.();
      log.debug({ worker: meta }, message);
      return;
    }
    const job = scope.label === "job";
    // meta stays under `worker`, whose serializer drops a job's payload (src/observability/logger.ts).
    const fields = job ? { worker: meta, task: scope.taskIdentifier, jobId: scope.jobId } : { worker: meta };
    const method =
      level === "error" ? "error" : level === "warning" ? "warn" : level === "info" && job ? "info" : "debug";
    log[method](fields, message);
  });
}

/** Starts graphile-worker on the container's database, logging through pino. */
export async function startWorker(
  container: Container,
  concurrency = container.env.WORKER_CONCURRENCY,
): Promise<RunningWorker> {
  const { log } = container;
  let stopping = false;
  const stopSignal = new AbortController();
  const database = new Outage(log, "job worker database connection");
  const lost = (error?: unknown) => {
    if (!stopping) database.lost(error);
  };
  const logger = workerLogger(log, {
    // While stopping, Postgres may go first (Ctrl-C reaches it too): those errors are expected.
    quiet: (level) => stopping && level === "error",
    noise: () => lost(),
  });
  // Our own pool, so that an idle connection dropped by a stopping Postgres is logged (once), not fatal. A
  // connection attempt to a Postgres that hangs gives up rather than holding a job slot forever.
  const pgPool = new pg.Pool({
    connectionString: container.databaseUrl,
    max: concurrency + 2,
    connectionTimeoutMillis: 10_000,
  });
  pgPool.on("error", lost);
  // Leases: when a worker process dies without stopping, the others unlock its jobs (worker-lease.ts).
  const events: WorkerEvents = new EventEmitter();
  const lease = await startWorkerLease({ databaseUrl: container.databaseUrl, pool: pgPool, events, log });
  const workerIds: string[] = [];
  events.on("worker:create", ({ worker }) => void workerIds.push(worker.workerId));
  // A worker that found the queue (empty or not) reached the database; one that could not did not.
  events.on("worker:getJob:error", ({ error }) => lost(error));
  events.on("worker:getJob:empty", () => database.back());
  events.on("job:start", () => database.back());

  const startRunner = () =>
    run({
      pgPool,
      events,
      concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      // Recurring jobs, one crontab line each (graphile-worker runs each scheduled time once).
      // The daily backup only where BACKUP_DIR says where to keep it (docs/operations.md "Backups").
      crontab: [
        MAINTENANCE_CRONTAB,
        PRIVACY_CRONTAB,
        NOTIFICATIONS_CRONTAB,
        QUOTES_CRONTAB,
        SUBSCRIPTIONS_CRONTAB,
        SUBSCRIPTIONS_RECONCILE_CRONTAB,
        HOME_TAX_CRONTAB,
        ...backupCrontab(),
      ].join("\n"),
      logger,
      taskList: taskList(container),
    });

  // graphile-worker 0.16 stops its whole runner when the cron loop meets a database error, and a worker
  // whose job cannot be marked done (Postgres gone mid-job) exits for good without a replacement. Either
  // way the runner is replaced, once at a time and with backoff, or jobs would never run again.
  // The ids of the running runner's workers (graphile-worker creates them inside run()).
  let runnerIds = new Set<string>();
  events.on("worker:create", ({ worker }) => void runnerIds.add(worker.workerId));
  let runner = await startRunner();
  let restarting: Promise<void> | null = null;
  const restartOutage = new Outage(log, "job runner", "job runner stopped (database away?); starting it again");
  const restart = (error?: unknown) => {
    if (stopping) return;
    restartOutage.lost(error);
    restarting ??= (async () => {
      const old = runner;
      const oldIds = [...runnerIds];
      await settledWithin(container.env.SHUTDOWN_GRACE_S * 1000, old.stop());
      await retryUntilDone(
        async () => {
          runnerIds = new Set();
          const started = await startRunner();
          if (stopping) {
            await started.stop().catch(() => undefined);
            return;
          }
          runner = started;
          watch(started);
          // The old runner's workers are gone: their jobs go back to the queue now, not in 4 hours.
          await pgPool
            .query("select graphile_worker.force_unlock_workers($1::text[])", [oldIds])
            .catch(() => undefined);
          lease.forget(oldIds);
          restartOutage.back();
        },
        { signal: stopSignal.signal },
      );
    })().finally(() => {
      restarting = null;
    });
  };
  const watch = (watched: Runner) => {
    const ended = (error?: unknown) => {
      if (runner === watched) restart(error);
    };
    watched.promise.then(() => ended(), ended);
  };
  events.on("worker:fatalError", ({ worker, error }) => {
    if (runnerIds.has(worker.workerId)) restart(error);
  });
  watch(runner);

  let stopped: Promise<void> | null = null;
  const stop = async (graceMs: number) => {
    stopping = true;
    stopSignal.abort();
    await settledWithin(graceMs, restarting);
    const graceful = runner.stop().then(
      () => true,
      () => true,
    );
    const finished = await settledWithin(graceMs, graceful);
    await lease.stop();
    if (finished) {
      await settledWithin(3000, pgPool.end());
      return;
    }
    // Past the grace. Close our pool first, so that a job finishing now cannot mark as done a job another
    // worker may already hold; then hand the jobs back (their attempt counts stay; no backoff is added).
    void pgPool.end().catch(() => undefined);
    try {
      const { rows } = await container.db.raw(
        "select count(*)::int as n from graphile_worker._private_jobs where locked_by = any(?::text[])",
        [workerIds],
      );
      await container.db.raw("select graphile_worker.force_unlock_workers(?::text[])", [workerIds]);
      container.log.warn(
        { jobs: rows[0]?.n ?? 0, graceSeconds: graceMs / 1000 },
        "jobs still running at the end of the shutdown grace went back to the queue",
      );
    } catch (error) {
      container.log.error(
        { err: error, workerIds },
        "could not hand back the jobs in flight; other workers run them once the sweep finds this process gone",
      );
    }
  };
  return {
    get runner() {
      return runner;
    },
    pool: pgPool,
    stop: (graceMs = container.env.SHUTDOWN_GRACE_S * 1000) => {
      stopped ??= stop(graceMs);
      return stopped;
    },
  };
}
