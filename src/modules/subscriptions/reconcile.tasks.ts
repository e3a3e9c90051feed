import type { Task } from "graphile-worker";
import type { Reconciler } from "./reconcile.js";

export const SUBSCRIPTIONS_RECONCILE_TASK = "subscriptions:reconcile";

/**
 * Books that match (docs/decisions.md#34): nightly, Haven's subscriptions, invoices and refunds are compared with
 * Stripe's and what a missed webhook left behind is repaired. 07:40 UTC is the small hours in Canada's zones; a run
 * missed while no worker was up is made up within the day. Demo mode has nothing to compare.
 */
export const SUBSCRIPTIONS_RECONCILE_CRONTAB = `40 7 * * * ${SUBSCRIPTIONS_RECONCILE_TASK} ?fill=1d`;

export const subscriptionsReconcileTask =
  (reconcile: Pick<Reconciler, "run">): Task =>
  async (_payload, helpers) => {
    const result = await reconcile.run();
    helpers.logger.info(`reconcile: ${result.message}`);
    for (const d of result.differences)
      helpers.logger.warn(`reconcile: ${d.kind} ${d.id}: ${d.detail}${d.repaired ? " (repaired)" : " (not repaired)"}`);
  };
