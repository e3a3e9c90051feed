import { Logger, runOnce } from "graphile-worker";
import { taskList } from "../../src/jobs.js";
import type { TestContext } from "./context.js";

const silent = new Logger(() => () => undefined);

/** Runs every queued job once with the app's real task list, as the worker would (the e-mails, say). */
export const runJobs = (ctx: TestContext) =>
  runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
