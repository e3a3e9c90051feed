// Plans delivering in tests (docs/decisions.md#26): a demo subscription row written as the purchase paths leave one,
// and a PlanDeliveries of the test's database to sync it and request its services.
import { transactionRunner } from "../../src/db/transaction.js";
import { PlanDeliveries } from "../../src/modules/maintenance/index.js";
import { PlanDeliveriesRepository } from "../../src/modules/maintenance/plan-deliveries.repository.js";
import type { TestContext } from "./context.js";

/** PlanDeliveries over the test's database, in the business time zone. */
export const planDeliveries = (ctx: TestContext) =>
  new PlanDeliveries({
    repo: new PlanDeliveriesRepository(ctx.db),
    transaction: transactionRunner(ctx.db),
    settings: { timeZone: ctx.env.BUSINESS_TZ },
  });

/**
 * A demo-provider subscription of $799 a month for this home, started now and anchored on `anchor`: a month's
 * period and a three-month minimum term. Its id.
 */
export async function insertDemoSubscription(
  ctx: TestContext,
  row: {
    customerId: number;
    propertyId: number;
    planType: string;
    status: string;
    providerSubscriptionId: string;
    anchor: string;
  },
): Promise<number> {
  const started = new Date();
  const [inserted] = await ctx
    .db("subscriptions")
    .insert({
      customer_id: row.customerId,
      property_id: row.propertyId,
      plan_type: row.planType,
      provider: "demo",
      provider_subscription_id: row.providerSubscriptionId,
      status: row.status,
      monthly_amount_cents: 79_900,
      started_at: started,
      billing_anchor: row.anchor,
      current_period_start: started,
      current_period_end: new Date(started.getTime() + 30 * 86_400_000),
      minimum_term_ends_at: new Date(started.getTime() + 91 * 86_400_000),
    })
    .returning("id");
  return inserted.id as number;
}
