// Production worker process: e-mail, PDFs, the daily maintenance expansion and purge. It runs whatever
// WORKER_MODE says (that variable decides only whether a web process runs a worker of its own).
import { runMain } from "./boot.js";

await runMain({ web: false, worker: true, migrate: false, seedIfEmpty: false }, ({ env, container }) => {
  const probes = env.WORKER_PORT ? `; /livez, /readyz and /metrics on port ${env.WORKER_PORT}` : "";
  container.log.info(
    { concurrency: env.WORKER_CONCURRENCY, workerPort: env.WORKER_PORT ?? null, pid: process.pid },
    `haven worker started (concurrency ${env.WORKER_CONCURRENCY})${probes}`,
  );
});
