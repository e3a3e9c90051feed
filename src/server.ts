// Production web process. Migrates on start (safe: Knex holds a lock); runs the worker
// in-process only when WORKER_MODE=inline.
import { runMain } from "./boot.js";

await runMain({ web: true, worker: process.env.WORKER_MODE === "inline", migrate: true, seedIfEmpty: false }, ({ url }) => {
  console.log(`haven web listening at ${url}`);
});
