// `npm start`: the whole of Haven in one process, with an embedded Postgres unless DATABASE_URL is set.
import { ensureAssets } from "./build-assets.js";
import { runMain } from "./boot.js";

try {
  await ensureAssets();
} catch (error) {
  console.error(`haven: could not build the assets: ${(error as Error).message}`);
  process.exit(1);
}

// The worker runs in this process unless WORKER_MODE (read after .env) says otherwise.
await runMain(
  { web: true, worker: "mode", migrate: true, seedIfEmpty: true },
  ({ url, env, runsWorker, container }) => {
    container.log.info(
      { url, workerMode: env.WORKER_MODE },
      `haven listening at ${url}; WORKER_MODE=${env.WORKER_MODE}: ${runsWorker ? "the job worker runs in this process" : "no job worker in this process"}`,
    );
    // And the same for the person at the terminal.
    console.log(`\nHaven is running at ${url}`);
    if (env.NODE_ENV === "production")
      console.log(`Staff login at ${url}/login (create users with: haven users create)`);
    else console.log(`Staff login: ${env.DEMO_STAFF_EMAIL} / ${env.DEMO_STAFF_PASSWORD}  (at ${url}/login)`);
    console.log(
      env.DATABASE_URL ? "Database: DATABASE_URL" : `Database: embedded PostgreSQL in ${env.DATA_DIR}/postgres`,
    );
    console.log("Press Ctrl-C to stop.\n");
  },
);
