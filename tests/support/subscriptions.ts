// Subscriptions made for tests as the purchase paths make them.
import { createStripeClient } from "../../src/modules/payments/index.js";
import { type TestContext, createTestContext } from "./context.js";
import { STAND_IN_KEYS, StripeStandIn } from "./stripe-stand-in.js";

/** A file's Haven in Stripe mode against a stand-in of its own, with the plans seeded: its beforeAll. */
export async function openStripeSite(): Promise<{ ctx: TestContext; stripe: StripeStandIn }> {
  const stripe = await StripeStandIn.start();
  const ctx = await createTestContext(stripe.env());
  await ctx.container.plans.seed();
  return { ctx, stripe };
}

/** Closes what openStripeSite opened, whatever of it was opened: the file's afterAll. */
export async function closeStripeSite(site: { ctx?: TestContext; stripe?: StripeStandIn }): Promise<void> {
  await site.ctx?.close();
  await site.stripe?.close();
}

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
  await postStripeEvent(ctx, "customer.subscription.created", standIn.subscription(sub.id)).expect(200);
  const row = await ctx.db("subscriptions").where({ provider_subscription_id: sub.id }).first();
  return row.id as number;
}

/** A Stripe event about `object`, signed as Stripe signs it, delivered to the webhook (the caller checks the answer). */
export function postStripeEvent(ctx: TestContext, type: string, object: Record<string, unknown>) {
  const delivery = StripeStandIn.signedEvent(type, structuredClone(object));
  return ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", delivery.header)
    .send(delivery.payload);
}

/** A /checkout Standard purchase ($412 a month) with the demo provider, for a home at `postalCode`, made `at`. */
export function demoPurchase(
  ctx: TestContext,
  ref: string,
  postalCode: string,
  at: string,
  cardNumber = "4242424242424242",
) {
  return ctx.container.subscriptions.startDemo(
    {
      checkoutRef: ref,
      planType: "standard",
      amountCents: 41200,
      payerEmail: `${ref}@example.com`,
      payerName: "Tess Tax",
      cardNumber,
      priceList: "checkout",
      postalCode,
    },
    new Date(at),
  );
}

/**
 * /pricing's button, Stripe Checkout paid at the stand-in, and Stripe's checkout.session.completed delivered: the
 * Stripe subscription's id, its local row and its paid first invoice's row.
 */
export async function stripeCheckoutPurchase(
  ctx: TestContext,
  standIn: StripeStandIn,
  planType: string,
  email: string,
) {
  const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType }).expect(200);
  const session = standIn.pay(body.url.split("/pay/")[1] as string, { email, name: "Pat Payer" });
  await postStripeEvent(ctx, "checkout.session.completed", session).expect(200);
  const subscriptionId = session.subscription as string;
  const local = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first();
  const invoice = await ctx.db("invoices").where({ subscription_id: local.id }).first();
  return { subscriptionId, local, invoice };
}
