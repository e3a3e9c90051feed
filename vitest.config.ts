import { configDefaults, defineConfig } from "vitest/config";

const shared = { environment: "node" as const, pool: "forks" as const };

/** The suite's clock, as HAVEN_TEST_NOW sets it (tests/support/clock.ts, tests/README.md), in every project. */
const CLOCK_SETUP = "tests/support/clock-setup.ts";

/**
 * The API tests that start processes of their own: a Haven web or worker process, an npm prune, or a Postgres
 * cluster besides the run's. They are the `processes` project, not `api`: one file at a time, in vitest runs of
 * their own that `npm test` splits between the API stage and the browser stage (scripts/test.mjs). (Tests that only
 * run a short `haven` command and wait for it stay in `api`.) Named here by file: a new such test is added to the list.
 */
const PROCESS_TESTS = [
  "backup",
  "backup-embedded",
  "boot",
  "embedded",
  "migrations",
  "migrations-concurrent",
  "outage",
  "outage-restart",
  "production-config",
  "runtime-image",
  "scale-out",
  "shutdown",
  "worker-lease",
].map((name) => `tests/api/${name}.test.ts`);

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: "unit",
          // With the API tests, sharing their two workers: alone, the unit tests would leave a core idle.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          setupFiles: [CLOCK_SETUP],
          // Some render a PDF or run a script (fonts, a parser, a shell): a second alone, several beside the API
          // tests and their processes on two cores. Vitest's 5 s was measured for no such company.
          testTimeout: 20_000,
          include: ["src/**/*.test.ts", "islands/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "tests/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          ...shared,
          name: "api",
          sequence: { groupOrder: 1 },
          include: ["tests/api/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: [CLOCK_SETUP],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Vitest's default is one worker fewer than the cores: one file at a time here. The API tests wait on
          // Postgres about as much as they compute, so two files at once keep both cores busy.
          maxWorkers: 2,
          // A worker loads the app's modules once for all its files, not once per file (seconds each): every file
          // builds its own app, database and Stripe stand-in (tests/support/context.ts) and closes them after it,
          // and the clock setup runs again before each file.
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: "processes",
          // One file at a time: its processes are timed (a restart, a drain). `npm test` runs part of it beside the
          // API tests and the rest beside the browser tests (scripts/test.mjs).
          sequence: { groupOrder: 2 },
          include: PROCESS_TESTS,
          globalSetup: ["tests/support/global-setup.ts"],
          setupFiles: [CLOCK_SETUP],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 1,
          // The app's modules once for all these files (as in the api project); what each starts is its own.
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: "browser",
          // After the API tests, so Chromium does not compete with them for the two cores (`npm test` runs part of
          // the processes project beside it: a browser test mostly waits on its page).
          sequence: { groupOrder: 3 },
          include: ["tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          // One Chromium per worker, not one per file: a worker runs its files one after another in one process
          // (isolate: false), they share its Chromium (tests/support/chromium.ts), each file in contexts of its
          // own closed after it (tests/browser/setup.ts), and the environment closes Chromium when the worker stops.
          isolate: false,
          environment: "./tests/browser/environment.ts",
          setupFiles: [CLOCK_SETUP, "tests/browser/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Two cores: more than two Chromiums at once only slows every test down.
          maxWorkers: 2,
        },
      },
    ],
  },
});
