// Production worker process: e-mail, PDFs and the daily maintenance expansion.
import { runMain } from "./boot.js";

await runMain({ web: false, worker: true, migrate: false, seedIfEmpty: false }, () => {
  console.log("haven worker started");
});
