// Subscriptions made for tests as the purchase paths make them.
import { createStripeClient } from "../../src/modules/payments/index.js";
import type { TestContext } from "./context.js";
import { STAND_IN_KEYS, StripeStandIn } from "./stripe-stand-in.js";

/** A Stripe subscription made as the purchase paths make one, stored through its webhook; its local id. */
export async function stripeSubscription(
  ctx: TestContext,
  standIn: StripeStandIn,
  email: string,
  plan: string,
  metadata: Record<string, string> = {},
): Promise<number> {
  const client = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, standIn.url);
  const billing = ctx.container.stripe!.billing;
  const catalogue = await ctx.container.plans.get(plan as "basic");
  const list = metadata.price_list === "checkout" ? "checkout" : "pricing";
  const cents = (list === "checkout" ? catalogue.checkoutPrice : catalogue.price) * 100;
  const price = await billing.priceFor(catalogue, cents);
  const customer = await client.customers.create({ email, name: "Pat Payer" });
  standIn.updateCustomerCard(customer.id);
  const sub = await client.subscriptions.create({
    customer: customer.id,
    items: [{ price }],
    metadata: { plan, price_list: list, postal_code: "K1N 5W8", ...metadata },
  });
  const delivery = StripeStandIn.signedEvent("customer.subscription.created", standIn.subscription(sub.id));
  await ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", delivery.header)
    .send(delivery.payload)
    .expect(200);
  const row = await ctx.db("subscriptions").where({ provider_subscription_id: sub.id }).first();
  return row.id as number;
}
