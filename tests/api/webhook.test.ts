import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";
import { STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";

const session = (over: Record<string, unknown> = {}) => ({
  id: `cs_test_${Math.random().toString(16).slice(2)}`,
  object: "checkout.session",
  payment_status: "paid",
  status: "complete",
  amount_total: 41200,
  currency: "cad",
  metadata: { plan: "standard" },
  customer_details: { email: "webhook@example.com", name: "Wes Hook" },
  ...over,
});

const intent = (over: Record<string, unknown> = {}) => ({
  id: `pi_test_${Math.random().toString(16).slice(2)}`,
  object: "payment_intent",
  status: "succeeded",
  amount: 88900,
  amount_received: 88900,
  currency: "cad",
  metadata: { plan: "premium", source: "payment_page" },
  receipt_email: "pay@example.com",
  ...over,
});

describe("POST /api/stripe/webhook", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    ctx = await createTestContext(stripe.env());
  });
  afterAll(async () => {
    await ctx.close();
    await stripe.close();
  });

  const post = (payload: string, header?: string) => {
    const req = ctx.agent().post("/api/stripe/webhook").set("Content-Type", "application/json");
    if (header) req.set("Stripe-Signature", header);
    return req.send(payload);
  };
  const count = async () => Number((await ctx.db("payments").count({ n: "*" }).first())!.n);

  it("records a completed checkout session with a good signature, exactly once across replays", async () => {
    const object = session();
    const { payload, header } = StripeStandIn.signedEvent("checkout.session.completed", object);
    const first = await post(payload, header).expect(200);
    expect(first.body).toEqual({ received: true, recorded: true });
    const replay = await post(payload, header).expect(200);
    expect(replay.body).toEqual({ received: true, recorded: false });
    // Stripe re-sends with a fresh signature too: still one row.
    await post(
      payload,
      Stripe.webhooks.generateTestHeaderString({ payload, secret: STAND_IN_KEYS.STRIPE_WEBHOOK_SECRET }),
    ).expect(200);
    const rows = await ctx.db("payments").where({ provider_id: object.id });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: "stripe",
      kind: "checkout_session",
      plan_type: "standard",
      amount_cents: 41200,
      customer_email: "webhook@example.com",
      customer_name: "Wes Hook",
      status: "succeeded",
    });
  });

  it("records a succeeded payment-page intent once, and skips one a checkout session made", async () => {
    const direct = intent();
    const { payload, header } = StripeStandIn.signedEvent("payment_intent.succeeded", direct);
    expect((await post(payload, header).expect(200)).body.recorded).toBe(true);
    expect((await post(payload, header).expect(200)).body.recorded).toBe(false);
    const fromSession = intent({ metadata: { plan: "basic", source: "checkout_session" } });
    const second = StripeStandIn.signedEvent("payment_intent.succeeded", fromSession);
    expect((await post(second.payload, second.header).expect(200)).body.recorded).toBe(false);
    expect(await ctx.db("payments").where({ provider_id: fromSession.id })).toHaveLength(0);
    expect(await ctx.db("payments").where({ provider_id: direct.id }).first()).toMatchObject({
      kind: "payment_intent",
      amount_cents: 88900,
      plan_type: "premium",
    });
  });

  it("ignores unpaid sessions and other event types", async () => {
    const before = await count();
    const unpaid = StripeStandIn.signedEvent("checkout.session.completed", session({ payment_status: "unpaid" }));
    expect((await post(unpaid.payload, unpaid.header).expect(200)).body).toEqual({ received: true, recorded: false });
    const other = StripeStandIn.signedEvent("customer.created", { id: "cus_1", object: "customer" });
    expect((await post(other.payload, other.header).expect(200)).body).toEqual({ received: true, recorded: false });
    expect(await count()).toBe(before);
  });

  it("refuses a bad signature with a 400 and writes nothing", async () => {
    const before = await count();
    const { payload, header } = StripeStandIn.signedEvent("checkout.session.completed", session());
    const wrongSecret = StripeStandIn.signedEvent("checkout.session.completed", session(), "whsec_someone_else");
    const tampered = payload.replace('"amount_total":41200', '"amount_total":1');
    expect((await post(wrongSecret.payload, wrongSecret.header).expect(400)).body).toEqual({
      message: "Webhook signature verification failed",
    });
    expect((await post(tampered, header).expect(400)).body).toEqual({
      message: "Webhook signature verification failed",
    });
    expect((await post(payload, "t=1,v1=deadbeef").expect(400)).body).toEqual({
      message: "Webhook signature verification failed",
    });
    expect((await post(payload).expect(400)).body).toEqual({ message: "Missing Stripe-Signature header" });
    expect(await count()).toBe(before);
  });

  it("is exempt from the CSRF origin check (Stripe proves itself by signature)", async () => {
    const { payload, header } = StripeStandIn.signedEvent("checkout.session.completed", session());
    const res = await ctx
      .agent()
      .post("/api/stripe/webhook")
      .set("Origin", "https://stripe.com")
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", header)
      .send(payload)
      .expect(200);
    expect(res.body.recorded).toBe(true);
  });

  it("a subscription-mode session is no payments row: its subscription is read back from Stripe and stored once", async () => {
    await ctx.container.plans.seed();
    const before = await count();
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const object = stripe.pay(body.url.split("/pay/")[1], { email: "sub@example.com", name: "Sue Scriber" });
    const { payload, header } = StripeStandIn.signedEvent("checkout.session.completed", object);
    expect((await post(payload, header).expect(200)).body).toEqual({ received: true, recorded: true });
    expect((await post(payload, header).expect(200)).body).toEqual({ received: true, recorded: false });
    expect(await count()).toBe(before);
    expect(await ctx.db("subscriptions").where({ checkout_ref: object.id })).toMatchObject([
      { provider_subscription_id: object.subscription, status: "active", monthly_amount_cents: 37000 },
    ]);
    expect(await ctx.db("provider_events").where({ event_id: JSON.parse(payload).id })).toHaveLength(1);
  });

  it("feeds totalRevenue: the one-time payments and the paid invoices", async () => {
    const { rows } = await ctx.db.raw(
      // Revenue is before tax (docs/decisions.md#32): subtotals, where a row has one.
      "select (select sum(coalesce(subtotal_cents, amount_cents)) from payments where status = 'succeeded' and subscription_id is null) + (select sum(coalesce(subtotal_cents, amount_cents)) from invoices where status = 'paid') as cents",
    );
    expect(await ctx.container.payments.totalRevenue()).toBe(Number(rows[0].cents) / 100);
  });
});

describe("the webhook without a signing secret", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("trusts nothing", async () => {
    const { payload, header } = StripeStandIn.signedEvent("checkout.session.completed", session());
    const res = await ctx
      .agent()
      .post("/api/stripe/webhook")
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", header)
      .send(payload)
      .expect(400);
    expect(res.body).toEqual({ message: "Webhook signing secret is not configured" });
    expect(await ctx.db("payments")).toHaveLength(0);
  });
});
