// One lock order (docs/decisions.md#56): every path takes a subscription's row before its invoice's. Staff ending a
// plan at once and refunding its last month, while Stripe's webhooks for both come in (the subscription deleted,
// the invoice read back, the charge refunded), all finish: no deadlock (Postgres would abort one: a 500), and the
// state is what Stripe holds, with the refund recorded once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, signInStaff } from "../support/context.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";
import { moneyOf } from "../support/stripe-stand-in-money.js";
import { postStripeEvent, stripeCheckoutPurchase, closeStripeSite, openStripeSite } from "../support/subscriptions.js";

let ctx: TestContext;
let stripe: StripeStandIn;

beforeAll(async () => {
  ({ ctx, stripe } = await openStripeSite());
});
afterAll(() => closeStripeSite({ ctx, stripe }));

type Bought = Awaited<ReturnType<typeof stripeCheckoutPurchase>>;

/** Stripe's webhooks for this plan, each delivered as Stripe would, redelivered after a 503 as Stripe does. */
async function webhooks(bought: Bought, rounds: number): Promise<number[]> {
  const intent = moneyOf(stripe).intentOf(bought.invoice.provider_invoice_id);
  const statuses: number[] = [];
  const deliver = async (type: string, object: () => Record<string, unknown>) => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { status } = await postStripeEvent(ctx, type, object());
      statuses.push(status);
      if (status !== 503) return;
    }
  };
  for (let round = 0; round < rounds; round++)
    await Promise.all([
      deliver("customer.subscription.deleted", () => stripe.subscription(bought.subscriptionId)),
      deliver("invoice.paid", () => stripe.invoices.get(bought.invoice.provider_invoice_id)!),
      deliver("charge.refunded", () => moneyOf(stripe).chargeOf(intent)),
    ]);
  return statuses;
}

describe("cancel now, then refund the last month, while Stripe's webhooks come in", () => {
  it("everything finishes, the plan is canceled and the month refunded once", async () => {
    const { agent: staff } = await signInStaff(ctx);
    const plans = await Promise.all(
      ["a", "b", "c"].map((tag) => stripeCheckoutPurchase(ctx, stripe, "standard", `race-${tag}@example.com`)),
    );
    const results = await Promise.all(
      plans.map(async (bought) => {
        const office = (async () => {
          const cancel = await staff
            .post(`/api/subscriptions/${bought.local.id}/cancel`)
            .send({ when: "now", reason: "Moving away" });
          const refund = await staff
            .post(`/api/invoices/${bought.invoice.id}/refund`)
            .set("Idempotency-Key", `last-month-${bought.local.id}`)
            .send({ amountCents: bought.invoice.amount_cents, reason: "Last month back" });
          return [cancel.status, refund.status];
        })();
        const [answers, events] = await Promise.all([office, webhooks(bought, 3)]);
        return { answers, events };
      }),
    );
    for (const { answers, events } of results) {
      expect(answers).toEqual([200, 201]);
      // 503 is Stripe asked to send again (redelivered above); a deadlock would be a 500.
      expect(events.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    }
    // Stripe's last word on each, delivered once everything is quiet.
    for (const bought of plans) await webhooks(bought, 1);

    for (const bought of plans) {
      const sub = await ctx.db("subscriptions").where({ id: bought.local.id }).first();
      expect(sub.status).toBe("canceled");
      const invoice = await ctx.db("invoices").where({ id: bought.invoice.id }).first();
      expect(invoice.status).toBe("paid");
      expect(invoice.refunded_cents).toBe(bought.invoice.amount_cents);
      const refunds = await ctx.db("refunds").where({ invoice_id: bought.invoice.id });
      expect(refunds.map((r) => r.amount_cents)).toEqual([bought.invoice.amount_cents]);
      expect(stripe.subscription(bought.subscriptionId).status).toBe("canceled");
    }
  });
});
