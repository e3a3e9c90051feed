import { defineConfig } from "vitest/config";

const shared = { environment: "node" as const, pool: "forks" as const };

export default defineConfig({
  test: {
    projects: [
      {
        test: { ...shared, name: "unit", sequence: { groupOrder: 0 }, include: ["src/**/*.test.ts", "islands/**/*.test.{ts,tsx}", "cli/**/*.test.ts", "tests/unit/**/*.test.ts"] },
      },
      {
        test: {
          ...shared,
          name: "api",
          sequence: { groupOrder: 1 },
          include: ["tests/api/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          ...shared,
          name: "browser",
          // After the API tests, so Chromium does not compete with them for the two cores.
          sequence: { groupOrder: 2 },
          include: ["tests/browser/**/*.test.ts"],
          globalSetup: ["tests/support/global-setup.ts"],
          // One Chromium per worker, not one per file: a worker runs its files one after another in one process
          // (isolate: false), they share its Chromium (tests/support/chromium.ts), each file in contexts of its
          // own closed after it (tests/browser/setup.ts), and the environment closes Chromium when the worker stops.
          isolate: false,
          environment: "./tests/browser/environment.ts",
          setupFiles: ["tests/browser/setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          // Two cores: more than two Chromiums at once only slows every test down.
          maxWorkers: 2,
        },
      },
    ],
  },
});
