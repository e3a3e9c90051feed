// A downgrade keeps the tax (docs/decisions.md#49): Stripe's schedule update replaces the phases with what is sent,
// each phase with its own tax rates, so Haven's phases carry the subscription's. On the stand-in, which applies those
// semantics (tests/unit/stripe-stand-in-schedules.test.ts): the renewals after a downgrade, and after the schedule
// releases the subscription, still carry Ontario's HST (/checkout's default_tax_rates) and Quebec's GST and QST
// (/pricing's Checkout Session, on the item); an upgrade while the downgrade waits is taxed too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StripeTaxRates, createStripeClient } from "../../src/modules/payments/index.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";

type Obj = Record<string, unknown>;
let ctx: TestContext;
let stripe: StripeStandIn;
const t0 = new Date("2026-03-02T15:00:00Z");
const days = (n: number) => new Date(t0.getTime() + n * 86_400_000);

const deliver = (type: string, object: Obj) => {
  const { payload, header } = StripeStandIn.signedEvent(type, structuredClone(object));
  return ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", header)
    .send(payload)
    .expect(200);
};

/** An Ontario home bought at /checkout: the subscription's default_tax_rates are Haven's HST. */
async function ontarioAtCheckout(email: string): Promise<string> {
  const client = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url);
  const plan = await ctx.container.plans.get("standard");
  const price = await ctx.container.stripe!.billing.priceFor(plan, plan.checkoutPrice * 100);
  const customer = await client.customers.create({ email, name: "Pat Payer" });
  stripe.updateCustomerCard(customer.id);
  const created = await client.subscriptions.create({
    customer: customer.id,
    items: [{ price }],
    default_tax_rates: await new StripeTaxRates(client).idsFor("ON", "2026-03-02"),
    metadata: { plan: "standard", price_list: "checkout", postal_code: "K1N 5W8" },
  });
  await deliver("customer.subscription.created", stripe.subscription(created.id));
  return created.id;
}

/** A Gatineau home bought from /pricing: Stripe Checkout's line, and so the item, carries GST and QST. */
async function quebecAtPricing(email: string): Promise<string> {
  const { body } = await ctx
    .agent()
    .post("/api/create-checkout-session")
    .send({ planType: "standard", postalCode: "J8X 1A1" })
    .expect(200);
  const session = stripe.pay(body.url.split("/pay/")[1] as string, { email, name: "Pat Payer" });
  await deliver("checkout.session.completed", session);
  return session.subscription as string;
}

const localId = async (providerId: string) =>
  (await ctx.db("subscriptions").where({ provider_subscription_id: providerId }).first()).id as number;

/** The period ends at Stripe and its invoice reaches Haven: the invoice as Haven stored it. */
async function renew(providerId: string) {
  const { subscription, invoice } = stripe.advancePeriod(providerId);
  await deliver("invoice.paid", invoice!);
  await deliver("customer.subscription.updated", subscription);
  return ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first();
}

beforeAll(async () => {
  stripe = await StripeStandIn.start();
  stripe.clock = () => t0.getTime();
  ctx = await createTestContext(stripe.env());
  await ctx.container.plans.seed();
});
afterAll(async () => {
  await ctx?.close();
  await stripe?.close();
});

describe("a downgrade with Stripe keeps the tax on every later renewal", () => {
  for (const [home, buy, kinds] of [
    ["an Ontario home (HST on the subscription)", ontarioAtCheckout, ["HST"]],
    ["a Gatineau home (GST and QST on the item)", quebecAtPricing, ["GST", "QST"]],
  ] as const) {
    it(`${home}: the downgraded renewal and the one after the schedule releases it`, async () => {
      const providerId = await buy(`${kinds.join("-").toLowerCase()}@example.com`);
      const id = await localId(providerId);
      const down = await ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, days(5));
      expect(down.scheduledPlanType).toBe("basic");
      const phases = stripe.schedules.get(stripe.subscription(providerId).schedule as string)!.phases as Obj[];
      expect(phases).toHaveLength(2);
      for (const renewal of [await renew(providerId), await renew(providerId)]) {
        expect(renewal.status).toBe("paid");
        expect(renewal.tax_lines.map((l: { kind: string }) => l.kind)).toEqual(kinds);
        expect(renewal.tax_cents).toBeGreaterThan(0);
        expect(renewal.amount_cents).toBe(renewal.subtotal_cents + renewal.tax_cents);
      }
      expect(stripe.subscription(providerId).schedule).toBeNull();
      expect((await ctx.container.subscriptions.get(id)).planType).toBe("basic");
    });
  }

  it("an upgrade while the downgrade waits: its prorated invoice is taxed", async () => {
    const providerId = await ontarioAtCheckout("up-after-down@example.com");
    const id = await localId(providerId);
    await ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, days(5));
    stripe.clock = () => days(10).getTime();
    try {
      await ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "customer" }, days(10));
    } finally {
      stripe.clock = () => t0.getTime();
    }
    const upgrade = await ctx
      .db("invoices")
      .where({ subscription_id: id, billing_reason: "subscription_update" })
      .first();
    expect(upgrade.tax_lines.map((l: { kind: string }) => l.kind)).toEqual(["HST"]);
    expect(upgrade.tax_cents).toBe(Math.round(upgrade.subtotal_cents * 0.13));
  });
});
