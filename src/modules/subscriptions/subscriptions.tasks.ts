import type { Task } from "graphile-worker";
import type { SubscriptionsService } from "./subscriptions.service.js";

export const SUBSCRIPTIONS_RENEW_TASK = "subscriptions:renew";

/**
 * Demo billing (docs/decisions.md#24): daily, bill the demo periods that have come due. Periods end at midnight in
 * BUSINESS_TZ; 06:20 UTC is after midnight across Canada. Each (subscription, period) is billed once however
 * often it runs; `fill=2d` catches up a run missed while no worker was up. Stripe bills its own subscriptions.
 */
export const SUBSCRIPTIONS_CRONTAB = `20 6 * * * ${SUBSCRIPTIONS_RENEW_TASK} ?fill=2d`;

export const subscriptionsRenewTask =
  (subscriptions: Pick<SubscriptionsService, "renewDue">): Task =>
  async (_payload, helpers) => {
    const result = await subscriptions.renewDue(new Date());
    helpers.logger.info(
      `subscription renewals: ${result.billed} billed (${result.paid} paid, ${result.failed} failed), ${result.ended} ended, ${result.planChanges} plan change(s)`,
    );
  };
