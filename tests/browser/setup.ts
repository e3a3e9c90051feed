// Runs before each browser test file (the worker re-runs setup files for every file, isolate or not). Whatever
// contexts the file left open on the worker's Chromium (a test that failed before its context.close(), say) are
// closed after it, so no cookie, storage or page reaches the next file.
import { afterAll } from "vitest";
import { closeLeftoverContexts } from "../support/chromium.js";

afterAll(async () => {
  await closeLeftoverContexts();
});
