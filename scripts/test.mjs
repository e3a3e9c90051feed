// `npm test`: every vitest project of vitest.config.ts, with the `processes` project beside `unit` and `api`
// instead of after them. Most of a processes test's time is waiting (a lease to lapse, a cluster to start, a drain)
// while the API tests keep both cores busy, so on two cores the pair ends minutes sooner than one after the other
// (docs/architecture.md, "The suite's time"). Vitest runs projects of one group with one worker count, so the
// processes project (one file at a time) is a vitest run of its own; its report is printed whole when it ends.
// The browser project runs last, alone, as the config orders it: no Chromium competes with the processes' restarts.
//   node scripts/test.mjs             the whole suite
//   node scripts/test.mjs <args>      `vitest run <args>`, as it is
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

// Vitest's own bin (its package exports no path to it).
const vitestBin = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));

/** Runs `vitest run <args>`; with `quiet`, keeps its output and hands it back instead of printing it. */
function vitest(args, { quiet = false } = {}) {
  const child = spawn(process.execPath, [vitestBin, "run", ...args], {
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  const chunks = [];
  if (quiet) {
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
  }
  return new Promise((resolve) => {
    child.on("close", (code, signal) => resolve({ ok: code === 0, code: code ?? signal, output: Buffer.concat(chunks) }));
  });
}

/** A vitest report's failed files and tests, from its "Failed Tests" section on (or its FAIL lines), at most 120 lines. */
function failuresOf(output) {
  const lines = output.toString("utf8").replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const start = lines.findIndex((line) => /Failed Tests \d+/.test(line));
  const picked = start >= 0 ? lines.slice(start) : lines.filter((line) => /\bFAIL\b|×/.test(line));
  return picked.slice(0, 120).join("\n");
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const { code } = await vitest(args);
  process.exit(typeof code === "number" ? code : 1);
}

console.log("npm test: the unit and api projects, with the processes project beside them (its report follows them)");
const [first, processes] = await Promise.all([
  vitest(["--project", "unit", "--project", "api"]),
  vitest(["--project", "processes"], { quiet: true }),
]);
console.log("\nnpm test: the processes project's report");
process.stdout.write(processes.output);
const browser = await vitest(["--project", "browser"]);

const results = { "unit and api": first, processes, browser };
const failed = Object.entries(results).filter(([, result]) => !result.ok);
// The processes report was printed before the browser project's: its failures are said again last, where a reader
// of the run's end (a CI log's tail) sees them.
if (!processes.ok) console.error(`\nnpm test: the processes project's failures, again\n${failuresOf(processes.output)}`);
for (const [name, result] of failed) console.error(`npm test: ${name} failed (exit ${result.code})`);
if (failed.length === 0) console.log("npm test: every project passed");
process.exit(failed.length === 0 ? 0 : 1);
