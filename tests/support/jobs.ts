import { Logger, runOnce } from "graphile-worker";
import { taskList } from "../../src/jobs.js";
import type { TestContext } from "./context.js";

const silent = new Logger(() => () => undefined);

/** Runs every queued job once with the app's real task list, as the worker would (the e-mails, say). */
export const runJobs = (ctx: TestContext) =>
  runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });

/** The e-mails queued so far (mail.send jobs), oldest first: what they say, before any is sent. */
export const queuedMails = async (ctx: TestContext): Promise<{ subject: string; to: string; text: string }[]> =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);
