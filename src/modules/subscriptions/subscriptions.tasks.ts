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
