// Subscriptions with Stripe: the real SDK against the local stand-in. Both purchase
// paths through intake, every webhook replayed and out of order, failed payments and the card flow, the
// minimum term (dates given, never waited for), plan changes, an outage, and revenue.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeClient } from "../../src/modules/payments/index.js";
import {
  PORTAL_CONFIGURATIONS,
  StripeBilling,
  invoiceStateOf,
  stateOf,
} from "../../src/modules/subscriptions/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { DECLINED, STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";

type Obj = Record<string, unknown>;
const property = {
  address: "45 Rideau Street",
  city: "Ottawa",
  state: "ON",
  zipCode: "K1N 5W8",
  squareFootage: "1800",
  yearBuilt: "1995",
};
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
const addDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * 86_400_000);

const mailJobs = async (ctx: TestContext): Promise<{ subject: string; to: string; text: string }[]> =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);

/** A webhook delivery as Stripe makes it: the event's object as it was when the event happened. */
interface Delivery {
  payload: string;
  header: string;
}
const event = (type: string, object: Obj): Delivery => StripeStandIn.signedEvent(type, structuredClone(object));

const post = (ctx: TestContext, delivery: Delivery) =>
  ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", delivery.header)
    .send(delivery.payload);

/** What Haven stores of a subscription and its invoices, without its local ids. */
async function stored(ctx: TestContext, providerSubscriptionId: string) {
  const sub = await ctx
    .db("subscriptions")
    .where({ provider: "stripe", provider_subscription_id: providerSubscriptionId })
    .first();
  if (!sub) return null;
  const invoices = await ctx.db("invoices").where({ subscription_id: sub.id }).orderBy("provider_invoice_id");
  const pick = (row: Obj, keys: string[]) =>
    Object.fromEntries(keys.map((k) => [k, row[k] instanceof Date ? (row[k] as Date).toISOString() : row[k]]));
  return {
    subscription: pick(sub, [
      "plan_type",
      "status",
      "checkout_ref",
      "provider_customer_id",
      "monthly_amount_cents",
      "payer_email",
      "started_at",
      "current_period_start",
      "current_period_end",
      "minimum_term_ends_at",
      "cancel_at",
      "canceled_at",
    ]),
    invoices: invoices.map((i: Obj) =>
      pick(i, [
        "provider_invoice_id",
        "status",
        "amount_cents",
        "billing_reason",
        "period_start",
        "period_end",
        "paid_at",
        "attempt_count",
      ]),
    ),
  };
}

describe("subscriptions with Stripe (the real SDK against the local stand-in)", () => {
  let ctx: TestContext;
  let replayed: TestContext;
  let stripe: StripeStandIn;
  let billing: StripeBilling;
  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    ctx = await createTestContext(stripe.env());
    // A second Haven on the same Stripe account: it gets the same events late, shuffled and twenty times over.
    replayed = await createTestContext(stripe.env());
    await ctx.container.plans.seed();
    await replayed.container.plans.seed();
    billing = new StripeBilling(createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url));
  });
  afterAll(async () => {
    await ctx.close();
    await replayed.close();
    await stripe.close();
  });

  /** /pricing's button, Stripe Checkout paid, and Stripe's checkout.session.completed. */
  async function buyFromPricing(planType: string, email: string) {
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType }).expect(200);
    const sessionId = body.url.split("/pay/")[1] as string;
    const session = stripe.pay(sessionId, { email, name: "Pat Payer" });
    await post(ctx, event("checkout.session.completed", session)).expect(200);
    const subscriptionId = session.subscription as string;
    const local = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first();
    return { sessionId, subscriptionId, local, customerId: session.customer as string };
  }

  it("the /pricing path: a subscription-mode Checkout, checkout.session.completed, intake attaches it; revenue counts the invoice", async () => {
    const revenueBefore = await ctx.container.payments.totalRevenue();
    const { sessionId, subscriptionId, local } = await buyFromPricing("standard", "morgan@example.com");
    expect(local).toMatchObject({
      provider: "stripe",
      checkout_ref: sessionId,
      plan_type: "standard",
      status: "active",
      monthly_amount_cents: 37000,
      payer_email: "morgan@example.com",
      property_id: null,
    });
    expect(await ctx.db("invoices").where({ subscription_id: local.id })).toMatchObject([
      { status: "paid", subtotal_cents: 37000, billing_reason: "subscription_create" },
    ]);
    // The billing period is the item's (current API shape).
    const item = (stripe.subscription(subscriptionId).items as { data: Obj[] }).data[0]!;
    expect(local.current_period_end.getTime()).toBe((item.current_period_end as number) * 1000);

    const agent = ctx.agent();
    const created = await agent
      .post("/api/customers")
      .send({
        stripeSessionId: sessionId,
        planType: "standard",
        email: "morgan@example.com",
        name: "Morgan Reyes",
        phone: "613-555-0100",
        property,
      })
      .expect(201);
    expect(await ctx.db("subscriptions").where({ id: local.id }).first()).toMatchObject({
      customer_id: created.body.id,
      property_id: created.body.propertyId,
    });
    expect((await ctx.db("properties").where({ id: created.body.propertyId }).first()).subscription_plan).toBe(
      "standard",
    );
    expect(await ctx.db("payments").where({ provider_id: sessionId })).toHaveLength(0);
    expect(await ctx.container.payments.totalRevenue()).toBe(revenueBefore + 370);
    expect(
      (await mailJobs(ctx)).filter((m) => m.to === "morgan@example.com" && m.subject.startsWith("Your Haven receipt")),
    ).toHaveLength(1);
  });

  it("the /checkout path: default_incomplete, the Payment Element pays the first invoice, invoice.paid, /payment-success and intake", async () => {
    const agent = ctx.agent();
    const { body } = await agent.post("/api/create-payment-intent").send({ amount: 194, plan: "basic" }).expect(200);
    const intentId = body.clientSecret.split("_secret_")[0] as string;
    const subscriptionId = stripe.subscriptionOf(intentId).id as string;
    expect(await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first()).toMatchObject({
      checkout_ref: intentId,
      status: "incomplete",
      monthly_amount_cents: 19400,
    });
    // Unpaid: intake is refused.
    const intake = {
      stripeSessionId: intentId,
      planType: "basic",
      email: "ivy@example.com",
      name: "Ivy Chen",
      phone: "613-555-0101",
      property,
    };
    await agent.post("/api/customers").send(intake).expect(400);

    const invoice = stripe.paySubscriptionInvoice(intentId, { email: "ivy@example.com" });
    await post(ctx, event("invoice.paid", invoice)).expect(200);
    // The customer /checkout made had no e-mail: the Payment Element's receipt e-mail is the payer's, and gets the receipt.
    expect(await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first()).toMatchObject({
      status: "active",
      payer_email: "ivy@example.com",
    });
    expect(
      (await mailJobs(ctx)).filter((m) => m.to === "ivy@example.com" && m.subject.startsWith("Your Haven receipt")),
    ).toHaveLength(1);
    // Saved on the subscription (save_default_payment_method: on_subscription), so renewals charge it.
    expect(stripe.subscription(subscriptionId).default_payment_method).toMatch(/^pm_card_/);
    const success = await agent
      .get(`/payment-success?plan=basic&payment_intent=${intentId}&redirect_status=succeeded`)
      .expect(200);
    expect(success.text).toContain(`session_id=${intentId}`);
    const created = await agent.post("/api/customers").send(intake).expect(201);
    const local = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first();
    expect(local).toMatchObject({
      customer_id: created.body.id,
      property_id: created.body.propertyId,
      plan_type: "basic",
    });
    expect(await ctx.db("invoices").where({ subscription_id: local.id })).toMatchObject([
      { status: "paid", subtotal_cents: 19400 },
    ]);
  });

  it("the checkout's redirect and Stripe's webhooks racing for a new subscription store it once", async () => {
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "premium" }).expect(200);
    const session = stripe.pay(body.url.split("/pay/")[1], { email: "race@example.com", name: "Rae Race" });
    const subscriptionId = session.subscription as string;
    const results = await Promise.all([
      ctx.agent().get(`/api/verify-payment?session_id=${session.id}`),
      post(ctx, event("checkout.session.completed", session)),
      post(ctx, event("customer.subscription.created", stripe.subscription(subscriptionId))),
      post(
        ctx,
        event("invoice.paid", stripe.invoices.get(stripe.subscription(subscriptionId).latest_invoice as string)!),
      ),
      ctx.agent().get(`/api/verify-payment?session_id=${session.id}`),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.slice(1, 4).every((r) => r.body.recorded === true)).toBe(true);
    const rows = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId });
    expect(rows).toMatchObject([{ checkout_ref: session.id, status: "active" }]);
    expect(await ctx.db("invoices").where({ subscription_id: rows[0].id })).toHaveLength(1);
    expect((await mailJobs(ctx)).filter((m) => m.to === "race@example.com")).toHaveLength(1);
  });

  it("every webhook, replayed 20 times and out of order, leaves the state one clean delivery leaves; failure, card update and recovery", async () => {
    const deliveries: Delivery[] = [];
    /** Delivers once to `ctx` as it happens (the clean delivery), and keeps it for the replay. */
    const happen = async (type: string, object: Obj) => {
      const delivery = event(type, object);
      deliveries.push(delivery);
      const res = await post(ctx, delivery).expect(200);
      expect(res.body).toEqual({ received: true, recorded: true });
    };
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const session = stripe.pay(body.url.split("/pay/")[1], { email: "riley@example.com", name: "Riley Park" });
    const subscriptionId = session.subscription as string;
    const customerId = session.customer as string;
    const sub = () => stripe.subscription(subscriptionId);
    await happen("customer.subscription.created", sub());
    await happen("invoice.paid", stripe.invoices.get(sub().latest_invoice as string)!);
    await happen("checkout.session.completed", session);

    // A renewal is declined: past_due, and the customer is told why.
    const failed = stripe.failRenewal(subscriptionId);
    await happen("invoice.payment_failed", failed);
    await happen("customer.subscription.updated", sub());
    const local = await ctx.db("subscriptions").where({ provider_subscription_id: subscriptionId }).first();
    expect(local).toMatchObject({ status: "past_due", last_payment_error: DECLINED });
    expect(await ctx.db("invoices").where({ provider_invoice_id: failed.id }).first()).toMatchObject({
      status: "open",
      failure_reason: DECLINED,
      attempt_count: 1,
    });
    const failedMails = (await mailJobs(ctx)).filter(
      (m) => m.to === "riley@example.com" && m.subject === "Your Haven payment failed: please update your card",
    );
    expect(failedMails).toHaveLength(1);
    expect(failedMails[0]!.text).toContain(DECLINED);

    // The portal's card flow sets the CUSTOMER's default card; customer.updated makes it the subscription's and pays.
    const oldCard = sub().default_payment_method;
    const newCard = stripe.updateCustomerCard(customerId);
    await happen("customer.updated", stripe.customers.get(customerId)!);
    expect(sub().default_payment_method).toBe(newCard);
    expect(sub().default_payment_method).not.toBe(oldCard);
    expect(stripe.invoices.get(failed.id as string)).toMatchObject({ status: "paid" });
    expect(await ctx.db("subscriptions").where({ id: local.id }).first()).toMatchObject({
      status: "active",
      last_payment_error: null,
    });
    await happen("invoice.paid", stripe.invoices.get(failed.id as string)!);
    await happen("customer.subscription.updated", sub());

    // The next renewal is paid with the new card; then the portal cancels at period end and the period ends.
    const renewed = stripe.advancePeriod(subscriptionId).invoice!;
    expect(renewed.status).toBe("paid");
    await happen("invoice.paid", renewed);
    await happen("customer.subscription.updated", sub());
    Object.assign(stripe.subscriptions.get(subscriptionId)!, {
      cancel_at_period_end: true,
      cancel_at: (sub().items as { data: Obj[] }).data[0]!.current_period_end,
    });
    await happen("customer.subscription.updated", sub());
    expect((await ctx.db("subscriptions").where({ id: local.id }).first()).cancel_at).not.toBeNull();
    stripe.advancePeriod(subscriptionId);
    await happen("customer.subscription.deleted", sub());
    const clean = await stored(ctx, subscriptionId);
    expect(clean!.subscription).toMatchObject({ status: "canceled", checkout_ref: session.id, cancel_at: null });
    expect(clean!.subscription.canceled_at).not.toBeNull();
    expect(clean!.invoices.map((i) => i.status)).toEqual(["paid", "paid", "paid"]);

    // The same events to another Haven: shuffled, each twenty times, interleaved.
    const order = deliveries.flatMap((d) => Array.from({ length: 20 }, () => d));
    let seed = 19;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    let recorded = 0;
    for (const delivery of order) {
      const res = await post(replayed, delivery).expect(200);
      if (res.body.recorded) recorded++;
    }
    expect(recorded).toBe(deliveries.length);
    expect(await stored(replayed, subscriptionId)).toEqual(clean);
    expect(Number((await replayed.db("provider_events").count({ n: "*" }).first())!.n)).toBe(deliveries.length);
    // Replays after the fact change nothing and send nothing.
    const mailsBefore = (await mailJobs(ctx)).length;
    for (const delivery of deliveries) expect((await post(ctx, delivery).expect(200)).body.recorded).toBe(false);
    expect((await mailJobs(ctx)).length).toBe(mailsBefore);
    expect(await stored(ctx, subscriptionId)).toEqual(clean);
  });

  it("cancellation follows docs/decisions.md#25: before the minimum, Stripe's cancel_at is the minimum-term end; after, the period end; undo clears it", async () => {
    const { subscriptionId, local } = await buyFromPricing("basic", "casey@example.com");
    const started = local.started_at.toISOString();
    const calls = () => stripe.apiCalls("POST", `/v1/subscriptions/${subscriptionId}`);

    const early = await ctx.container.subscriptions.cancel(
      local.id,
      { when: "period_end", reason: "Moving away", actor: "customer" },
      addDays(started, 10),
    );
    expect(early.cancelAt).toBe(early.minimumTermEndsAt);
    expect(calls().at(-1)!.form).toMatchObject({
      cancel_at: String(seconds(early.minimumTermEndsAt)),
      proration_behavior: "none",
    });
    expect(stripe.subscription(subscriptionId).cancel_at).toBe(seconds(early.minimumTermEndsAt));
    expect(
      (await mailJobs(ctx)).filter(
        (m) => m.to === "casey@example.com" && m.subject.startsWith("Your Haven plan cancellation is scheduled"),
      ),
    ).toHaveLength(1);

    const resumed = await ctx.container.subscriptions.resume(local.id, { actor: "customer" });
    expect(resumed.cancelAt).toBeNull();
    expect(calls().at(-1)!.form).toMatchObject({ cancel_at: "" });
    expect(stripe.subscription(subscriptionId).cancel_at).toBeNull();

    // Three renewals later the minimum has passed: a cancellation takes effect at the end of the paid period.
    for (let i = 0; i < 3; i++)
      await post(ctx, event("invoice.paid", stripe.advancePeriod(subscriptionId).invoice!)).expect(200);
    const current = await ctx.container.subscriptions.get(local.id);
    const late = await ctx.container.subscriptions.cancel(
      local.id,
      { when: "period_end", reason: null, actor: "customer" },
      addDays(current.currentPeriodStart, 5),
    );
    expect(new Date(late.currentPeriodStart) >= new Date(late.minimumTermEndsAt)).toBe(true);
    expect(late.cancelAt).toBe(current.currentPeriodEnd);
    expect(stripe.subscription(subscriptionId).cancel_at).toBe(seconds(current.currentPeriodEnd));
    // A cancellation scheduled in the portal (cancel_at_period_end) is undone the way Stripe takes it.
    Object.assign(stripe.subscriptions.get(subscriptionId)!, { cancel_at_period_end: true });
    await ctx.container.subscriptions.resume(local.id, { actor: "customer" });
    expect(calls().at(-1)!.form).toEqual(expect.objectContaining({ cancel_at_period_end: "false" }));
    expect(calls().at(-1)!.form).not.toHaveProperty("cancel_at");

    // Staff end it at once.
    const ended = await ctx.container.subscriptions.cancel(local.id, {
      when: "now",
      reason: "Fraud",
      actor: "staff:1",
    });
    expect(ended.status).toBe("canceled");
    expect(stripe.apiCalls("DELETE", `/v1/subscriptions/${subscriptionId}`)).toHaveLength(1);
  });

  it("an upgrade swaps the price at once with a prorated invoice; a downgrade waits in a Subscription Schedule until the period ends", async () => {
    const { subscriptionId, local } = await buyFromPricing("basic", "dana@example.com");
    const priceOf = (key: string) => [...stripe.prices.values()].find((p) => p.lookup_key === key)!.id;
    const upgraded = await ctx.container.subscriptions.changePlan(local.id, { planType: "standard", actor: "staff:1" });
    expect(upgraded).toMatchObject({ planType: "standard", monthlyAmount: 370 });
    const upgrade = stripe.apiCalls("POST", `/v1/subscriptions/${subscriptionId}`).at(-1)!.form;
    expect(upgrade).toMatchObject({
      "items[0][price]": priceOf("haven_standard_monthly_37000"),
      proration_behavior: "always_invoice",
      "metadata[plan]": "standard",
    });
    expect(upgrade["items[0][id]"]).toMatch(/^si_test_/);
    const proration = await ctx
      .db("invoices")
      .where({ subscription_id: local.id, billing_reason: "subscription_update" });
    expect(proration).toHaveLength(1);
    expect(proration[0]).toMatchObject({ status: "paid" });
    // Before tax (docs/decisions.md#32): the proration of the price difference.
    expect(proration[0].subtotal_cents).toBeGreaterThan(0);
    expect(proration[0].subtotal_cents).toBeLessThanOrEqual(37000 - 14900);

    const downgraded = await ctx.container.subscriptions.changePlan(local.id, { planType: "basic", actor: "staff:1" });
    expect(downgraded).toMatchObject({ planType: "standard", scheduledPlanType: "basic" });
    // The paid price stays on the subscription; a Subscription Schedule moves it to Basic when the period ends.
    expect(stripe.apiCalls("POST", `/v1/subscriptions/${subscriptionId}`).at(-1)!.form).toMatchObject({
      "items[0][price]": priceOf("haven_standard_monthly_37000"),
    });
    const schedule = stripe.apiCalls("POST", /^\/v1\/subscription_schedules\/sub_sched_\w+$/).at(-1)!.form;
    expect(schedule).toMatchObject({
      end_behavior: "release",
      "phases[0][items][0][price]": priceOf("haven_standard_monthly_37000"),
      "phases[1][items][0][price]": priceOf("haven_basic_monthly_14900"),
      "phases[1][metadata][plan]": "basic",
    });
    expect(await ctx.db("invoices").where({ subscription_id: local.id })).toHaveLength(2);
    // Stripe bills the lower price from the next period.
    const renewal = stripe.advancePeriod(subscriptionId).invoice!;
    expect((renewal.lines as { data: Obj[] }).data[0]).toMatchObject({ amount: 14900 });
    // The renewal's state as a webhook reads it back: until the period's end Haven keeps Standard and its price;
    // from the end on, Basic (Haven's clock is given here, never waited for).
    const { state } = await ctx.container.stripe!.billing.readBack(subscriptionId);
    const effective = new Date(downgraded.scheduledPlanAt!);
    const early = await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.applyProviderState(state, tx, { now: new Date(effective.getTime() - 60_000) }),
    );
    expect(early).toMatchObject({ planType: "standard", scheduledPlanType: "basic", monthlyAmount: 370 });
    const due = await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.applyProviderState(state, tx, { now: effective }),
    );
    expect(due).toMatchObject({ planType: "basic", scheduledPlanType: null, monthlyAmount: 149 });
    const kinds = (await ctx.container.subscriptions.detail(local.id)).events.map((e) => e.kind);
    expect(kinds.filter((k) => k === "plan_changed")).toHaveLength(2);
  });

  it("Stripe unreachable: a cancellation answers 503 and changes nothing; a webhook answers 503 and is processed when Stripe retries", async () => {
    const { subscriptionId, local } = await buyFromPricing("premium", "eli@example.com");
    const { agent: staff } = await signInStaff(ctx);
    const before = await ctx.db("subscriptions").where({ id: local.id }).first();
    const eventsBefore = await ctx.db("subscription_events").where({ subscription_id: local.id });
    const mailsBefore = (await mailJobs(ctx)).length;
    const renewal = stripe.advancePeriod(subscriptionId).invoice!;
    const delivery = event("invoice.paid", renewal);
    stripe.failWith = 503;
    try {
      const res = await staff
        .post(`/api/subscriptions/${local.id}/cancel`)
        .send({ when: "period_end", reason: "Too expensive" })
        .expect(503);
      expect(res.body).toEqual({ message: "The payment provider could not be reached. Nothing was changed." });
      await post(ctx, delivery).expect(503);
    } finally {
      stripe.failWith = null;
    }
    expect(await ctx.db("subscriptions").where({ id: local.id }).first()).toEqual(before);
    expect(await ctx.db("subscription_events").where({ subscription_id: local.id })).toEqual(eventsBefore);
    expect((await mailJobs(ctx)).length).toBe(mailsBefore);
    expect(stripe.subscription(subscriptionId).cancel_at).toBeNull();
    expect(await ctx.db("provider_events").where({ event_id: JSON.parse(delivery.payload).id })).toHaveLength(0);
    // Stripe sends it again: processed now.
    expect((await post(ctx, delivery).expect(200)).body.recorded).toBe(true);
    expect(await ctx.db("invoices").where({ provider_invoice_id: renewal.id })).toMatchObject([
      { status: "paid", subtotal_cents: 79900 },
    ]);
  });

  it("the billing portal: no cancel button before the minimum term, at period end after it; the card flow; configurations made once", async () => {
    const { local, customerId } = await buyFromPricing("standard", "fay@example.com");
    const sub = { providerCustomerId: customerId, providerSubscriptionId: local.provider_subscription_id as string };
    const before = await billing.portalUrl(sub, "http://localhost:3000/billing/x", { canCancel: false });
    const after = await billing.portalUrl(sub, "http://localhost:3000/billing/x", { canCancel: true });
    const card = await billing.cardUpdateUrl(sub, "http://localhost:3000/billing/x");
    const sessions = [...stripe.portalSessions.values()].slice(-3);
    expect(sessions.map((s) => s.url)).toEqual([before, after, card]);
    const configuration = (s: Obj) => stripe.portalConfigurations.get(s.configuration as string)!;
    expect(configuration(sessions[0]!)).toMatchObject({
      metadata: { haven: PORTAL_CONFIGURATIONS.withoutCancel },
      features: { subscription_cancel: { enabled: false }, payment_method_update: { enabled: true } },
    });
    expect(configuration(sessions[1]!)).toMatchObject({
      metadata: { haven: PORTAL_CONFIGURATIONS.withCancel },
      features: { subscription_cancel: { enabled: true, mode: "at_period_end" } },
    });
    expect(sessions[2]).toMatchObject({
      flow: { type: "payment_method_update" },
      customer: customerId,
      return_url: "http://localhost:3000/billing/x",
    });
    // A new process finds the configurations again by metadata instead of making more.
    const again = new StripeBilling(createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url));
    await again.portalUrl(sub, "http://localhost:3000/billing/x", { canCancel: true });
    expect(stripe.portalConfigurations.size).toBe(2);

    // Back from the card flow: the customer's new card becomes the subscription's; nothing to do a second time.
    const newCard = stripe.updateCustomerCard(customerId);
    const read = await billing.adoptCustomerDefaultCard(sub);
    expect(read?.state.status).toBe("active");
    expect(stripe.subscription(sub.providerSubscriptionId).default_payment_method).toBe(newCard);
    expect(await billing.adoptCustomerDefaultCard(sub)).toBeNull();
  });

  it("an unknown status is kept as it is; a subscription that is not a Haven plan is ignored", async () => {
    const { subscriptionId, local } = await buyFromPricing("basic", "gus@example.com");
    stripe.subscriptions.get(subscriptionId)!.status = "suspended_for_review";
    await post(ctx, event("customer.subscription.updated", stripe.subscription(subscriptionId))).expect(200);
    expect((await ctx.db("subscriptions").where({ id: local.id }).first()).status).toBe("suspended_for_review");
    stripe.subscriptions.get(subscriptionId)!.status = "active";
    await post(ctx, event("customer.subscription.updated", stripe.subscription(subscriptionId))).expect(200);

    const count = async () => Number((await ctx.db("subscriptions").count({ n: "*" }).first())!.n);
    const before = await count();
    // Another product's subscription on the same Stripe account: no plan on its price or its metadata.
    const foreign: Obj = { ...stripe.subscription(subscriptionId), id: "sub_test_foreign", metadata: {} };
    const item = (foreign.items as { data: Obj[] }).data[0]!;
    foreign.items = {
      data: [
        { ...item, price: { id: "price_other", unit_amount: 500, currency: "cad", metadata: {}, lookup_key: null } },
      ],
    };
    stripe.subscriptions.set("sub_test_foreign", foreign);
    expect(
      (await post(ctx, event("customer.subscription.updated", stripe.subscription("sub_test_foreign"))).expect(200))
        .body,
    ).toEqual({ received: true, recorded: true });
    expect(await count()).toBe(before);
  });

  it("Total Revenue is the paid invoices plus the one-time payments of before, nothing counted twice", async () => {
    // A one-time payment from before subscriptions still arrives as payment_intent.succeeded and counts once.
    const legacy = {
      id: "pi_test_legacy_one_time",
      object: "payment_intent",
      status: "succeeded",
      amount: 41200,
      amount_received: 41200,
      currency: "cad",
      metadata: { plan: "standard", source: "payment_page" },
      receipt_email: "old@example.com",
    };
    expect((await post(ctx, event("payment_intent.succeeded", legacy)).expect(200)).body.recorded).toBe(true);
    // An invoice's PaymentIntent (no plan metadata) is not a payment of its own: its invoice counts.
    const invoiceIntent = [...stripe.intents.values()].find(
      (i) => i.status === "succeeded" && !(i.metadata as Obj).plan,
    )!;
    expect((await post(ctx, event("payment_intent.succeeded", invoiceIntent)).expect(200)).body.recorded).toBe(false);
    // Revenue counts invoices before tax (docs/decisions.md#34).
    const { rows } = await ctx.db.raw(
      "select (select coalesce(sum(subtotal_cents), 0) from invoices where status = 'paid') + (select coalesce(sum(amount_cents), 0) from payments where status = 'succeeded' and subscription_id is null) as cents",
    );
    expect(await ctx.container.payments.totalRevenue()).toBe(Number(rows[0].cents) / 100);
    const stripeInvoices = [...stripe.invoices.values()]
      .filter((i) => i.status === "paid")
      .reduce((sum, i) => sum + (i.amount_paid as number), 0);
    const local = Number(
      (await ctx.db("invoices").where({ provider: "stripe", status: "paid" }).sum({ s: "amount_cents" }).first())!.s,
    );
    // Every paid Stripe invoice Haven was told about is counted once (the ones no webhook reached are not).
    expect(local).toBeLessThanOrEqual(stripeInvoices);
    expect(await ctx.db("payments").where({ provider: "stripe" })).toHaveLength(1);
  });
});

describe("Stripe shapes", () => {
  it("reads the period from the item and the invoice's subscription from parent (API 2026-10-28)", () => {
    const sub = {
      id: "sub_1",
      status: "past_due",
      customer: { id: "cus_1", object: "customer", email: "a@example.com", name: "A" },
      start_date: 1_790_000_000,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata: { plan: "standard", checkout_ref: "cs_test_1" },
      items: {
        data: [
          {
            id: "si_1",
            quantity: 1,
            current_period_start: 1_792_000_000,
            current_period_end: 1_794_600_000,
            price: {
              id: "price_1",
              unit_amount: 37000,
              currency: "cad",
              metadata: {},
              lookup_key: "haven_standard_monthly_37000",
            },
          },
        ],
      },
    } as unknown as Stripe.Subscription;
    expect(stateOf(sub)).toMatchObject({
      status: "past_due",
      planType: "standard",
      monthlyAmountCents: 37000,
      providerCustomerId: "cus_1",
      payerEmail: "a@example.com",
      checkoutRef: "cs_test_1",
      currentPeriodStart: new Date(1_792_000_000_000),
      currentPeriodEnd: new Date(1_794_600_000_000),
    });
    const invoice = {
      id: "in_1",
      status: "open",
      attempted: true,
      attempt_count: 2,
      amount_due: 37000,
      amount_paid: 0,
      currency: "cad",
      billing_reason: "subscription_cycle",
      period_start: 1_789_000_000,
      period_end: 1_792_000_000,
      lines: { data: [{ period: { start: 1_792_000_000, end: 1_794_600_000 } }] },
      parent: { type: "subscription_details", subscription_details: { subscription: "sub_1" } },
      status_transitions: { paid_at: null },
      payments: {
        data: [
          {
            payment: {
              type: "payment_intent",
              payment_intent: { id: "pi_1", last_payment_error: { message: "Your card has insufficient funds." } },
            },
          },
        ],
      },
    } as unknown as Stripe.Invoice;
    expect(invoiceStateOf(invoice)).toMatchObject({
      providerSubscriptionId: "sub_1",
      periodStart: new Date(1_792_000_000_000),
      failureReason: "Your card has insufficient funds.",
      attemptCount: 2,
      paidAt: null,
    });
  });
});
