import { Logger, runOnce } from "graphile-worker";
import { taskList } from "../../src/jobs.js";
import type { TestContext } from "./context.js";

const silent = new Logger(() => () => undefined);

/** Runs every queued job once with the app's real task list, as the worker would (the e-mails, say). */
export const runJobs = (ctx: TestContext) =>
  runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });

/**
 * The e-mails queued so far, oldest first: what they say, before any is sent. A mail.send job carries its message; a
 * demo renewal's receipt job names its invoice, and reads it as the worker would (renewal-receipts.ts).
 */
export async function queuedMails(ctx: TestContext): Promise<{ subject: string; to: string; text: string }[]> {
  const { rows } = await ctx.db.raw(
    `select t.identifier, j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier in ('mail.send', 'subscriptions:receipt') order by j.id`,
  );
  const mails: { subject: string; to: string; text: string }[] = [];
  for (const { identifier, payload } of rows) {
    if (identifier === "mail.send") mails.push(payload);
    else {
      const receipt = await ctx.container.invoiceSide.renewalReceipts.message(payload.invoiceId);
      if (receipt) mails.push(receipt);
    }
  }
  return mails;
}
