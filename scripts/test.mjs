// `npm test`: every vitest project of vitest.config.ts, in two stages: the `unit` and `api` projects with part of the
// `processes` project beside them, then the `browser` project with the rest of it. The API tests keep both cores busy;
// a browser test mostly waits on its page, and a processes test on what it starts (a lease to lapse, a cluster to
// start, a drain), so each stage gets about as much processes time as it has to spare (docs/architecture.md, "The
// suite's time"). Vitest runs projects of one group with one worker count, so the processes project (one file at a
// time) is a vitest run of its own; its report is printed whole when it ends.
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

// The processes files that run beside the API tests; every other one (a new one too) runs beside the browser tests.
// Split so that each stage's processes take about as long as that stage's other project (docs/architecture.md).
const BESIDE_API = [
  "runtime-image",
  "production-config",
  "shutdown",
  "backup",
  "migrations",
  "boot",
  "worker-lease",
  "outage",
  "embedded",
].map((name) => `tests/api/${name}.test.ts`);

console.log("npm test: the unit and api projects, with some of the processes project beside them (its report follows)");
const [first, processesFirst] = await Promise.all([
  vitest(["--project", "unit", "--project", "api"]),
  vitest(["--project", "processes", ...BESIDE_API], { quiet: true }),
]);
console.log("\nnpm test: the processes project's first part");
process.stdout.write(processesFirst.output);
console.log("\nnpm test: the browser project, with the rest of the processes project beside it (its report follows)");
const [browser, processesRest] = await Promise.all([
  vitest(["--project", "browser"]),
  vitest(["--project", "processes", ...BESIDE_API.flatMap((file) => ["--exclude", file])], { quiet: true }),
]);
console.log("\nnpm test: the processes project's second part");
process.stdout.write(processesRest.output);

const results = {
  "unit and api": first,
  "processes (first part)": processesFirst,
  browser,
  "processes (second part)": processesRest,
};
const failed = Object.entries(results).filter(([, result]) => !result.ok);
// A report printed before the last one: its failures are said again last, where a reader of the run's end (a CI
// log's tail) sees them.
for (const [name, result] of failed.filter(([name]) => name !== "processes (second part)"))
  console.error(`\nnpm test: the ${name} project's failures, again\n${failuresOf(result.output)}`);
for (const [name, result] of failed) console.error(`npm test: ${name} failed (exit ${result.code})`);
if (failed.length === 0) console.log("npm test: every project passed");
process.exit(failed.length === 0 ? 0 : 1);
