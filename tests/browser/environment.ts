// The browser project's test environment: Node's, plus closing the worker's Chromium when the worker stops.
// With isolate: false a worker runs many test files one after another and sets its environment up once, so
// this teardown runs once, after its last file (vitest awaits it before it ends the process, which Chromium,
// a process group of its own, would otherwise outlive).
import { type Environment, builtinEnvironments } from "vitest/runtime";
import { closeSharedChromium } from "../support/chromium.js";

export default {
  name: "node-with-chromium",
  viteEnvironment: "ssr",
  async setup(global, options) {
    const node = await builtinEnvironments.node.setup(global, options);
    return {
      async teardown(global) {
        await closeSharedChromium();
        await node.teardown(global);
      },
    };
  },
} satisfies Environment;
