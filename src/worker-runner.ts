import { Logger as WorkerLogger, type Runner, run } from "graphile-worker";
import pg from "pg";
import type { Container } from "./container.js";
import { taskList } from "./jobs.js";
import { MAINTENANCE_CRONTAB } from "./modules/maintenance/maintenance.tasks.js";

/** Starts graphile-worker on the container's database, logging through pino. */
export async function startWorker(container: Container, concurrency = 2): Promise<Runner> {
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
  const runner = await run({
    pgPool,
    concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    // Recurring jobs, one crontab line each (graphile-worker runs each scheduled time once).
    crontab: [MAINTENANCE_CRONTAB].join("\n"),
    logger,
    taskList: taskList(container),
  });
  const stop = runner.stop.bind(runner);
  runner.stop = async () => {
    stopping = true;
    await stop().catch(() => undefined);
    await pgPool.end().catch(() => undefined);
  };
  return runner;
}
