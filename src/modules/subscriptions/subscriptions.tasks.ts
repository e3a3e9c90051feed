import type { Task } from "graphile-worker";
import type { SubscriptionsService } from "./subscriptions.service.js";

export const SUBSCRIPTIONS_RENEW_TASK = "subscriptions:renew";

/**
 * Demo billing (docs/decisions.md#24): bill the demo periods that have come due. Periods end at midnight in
 * BUSINESS_TZ, and graphile-worker reads its crontab in UTC: running at 20 past every hour is the first run after
 * midnight in any zone (the business's included, whatever its offset or daylight saving), within the hour. Each
 * (subscription, period) is billed once however often it runs, and a run bills every period due, so a run missed
 * while no worker was up needs no backfill beyond the last hour. Stripe bills its own subscriptions.
 */
export const SUBSCRIPTIONS_CRONTAB = `20 * * * * ${SUBSCRIPTIONS_RENEW_TASK} ?fill=1h`;

export const subscriptionsRenewTask =
  (subscriptions: Pick<SubscriptionsService, "renewDue">): Task =>
  async (_payload, helpers) => {
    const result = await subscriptions.renewDue(new Date());
    helpers.logger.info(
      `subscription renewals: ${result.billed} billed (${result.paid} paid, ${result.failed} failed), ${result.ended} ended, ${result.planChanges} plan change(s)`,
    );
  };

export { SUBSCRIPTIONS_FINISH_CHANGE_TASK } from "./changes.repository.js";

/**
 * The `subscriptions:finish-change` job (change-runner.ts, docs/decisions.md#76): a staff or customer change the
 * provider did not answer, once its claim is stale, read back or sent again with its key, then applied. It throws
 * while the change is left pending, and graphile-worker tries again with its backoff (up to 25 times, some days).
 */
export const subscriptionsFinishChangeTask =
  (subscriptions: Pick<SubscriptionsService, "finishChange">): Task =>
  async (payload) => {
    const changeId = Number((payload as { changeId?: unknown } | null)?.changeId);
    if (Number.isSafeInteger(changeId) && changeId > 0) await subscriptions.finishChange(changeId, new Date());
  };
