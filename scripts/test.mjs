// `npm test`: every vitest project of vitest.config.ts: the `unit` and `api` projects, then the `browser` project
// with the `processes` project beside it. The API tests keep both cores busy (the app, Postgres, argon2), so they
// run alone, sooner; a browser test mostly waits on its page (about half a core per Chromium worker), and the
// processes project, waiting on what it starts (a lease to lapse, a cluster to start, a drain), uses under a core
// in all, so those two share the cores (docs/architecture.md, "The suite's time"). Vitest runs projects of one
// group with one worker count, so the processes project (one file at a time) is a vitest run of its own; its
// report is printed whole when it ends.
//   node scripts/test.mjs             the whole suite
//   node scripts/test.mjs <args>      `vitest run <args>`, as it is
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

// Vitest's own bin (its package exports no path to it).
const vitestBin = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));

/**
 * Runs `vitest run <args>` and keeps its output; prints it as it comes unless `quiet` (then the caller prints it).
 */
function vitest(args, { quiet = false } = {}) {
  const child = spawn(process.execPath, [vitestBin, "run", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  const chunks = [];
  const keep = (to) => (chunk) => {
    chunks.push(chunk);
    if (!quiet) to.write(chunk);
  };
  child.stdout.on("data", keep(process.stdout));
  child.stderr.on("data", keep(process.stderr));
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

console.log("npm test: the unit and api projects");
const first = await vitest(["--project", "unit", "--project", "api"]);
console.log("\nnpm test: the browser project, with the processes project beside it (its report follows)");
const [browser, processes] = await Promise.all([
  vitest(["--project", "browser"]),
  vitest(["--project", "processes"], { quiet: true }),
]);
console.log("\nnpm test: the processes project's report");
process.stdout.write(processes.output);

const results = { "unit and api": first, browser, processes };
const failed = Object.entries(results).filter(([, result]) => !result.ok);
// A report printed before the last one: its failures are said again last, where a reader of the run's end (a CI
// log's tail) sees them.
for (const [name, result] of failed.filter(([name]) => name !== "processes"))
  console.error(`\nnpm test: the ${name} project's failures, again\n${failuresOf(result.output)}`);
for (const [name, result] of failed) console.error(`npm test: ${name} failed (exit ${result.code})`);
if (failed.length === 0) console.log("npm test: every project passed");
process.exit(failed.length === 0 ? 0 : 1);
