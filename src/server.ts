// Production web process. Migrates on start (safe: migrators take turns on an advisory lock). Runs the
// job worker in-process when WORKER_MODE=inline (the default); with `separate`, src/worker.ts runs it.
import { runMain } from "./boot.js";

await runMain(
  { web: true, worker: "mode", migrate: true, seedIfEmpty: false },
  ({ url, env, runsWorker, container }) => {
    const worker = runsWorker
      ? "the job worker runs in this process"
      : env.WORKER_MODE === "off"
        ? "no job worker runs"
        : "the job worker runs separately (src/worker.ts)";
    container.log.info(
      { url, workerMode: env.WORKER_MODE, pid: process.pid },
      `haven web listening at ${url}; WORKER_MODE=${env.WORKER_MODE}: ${worker}`,
    );
  },
);
