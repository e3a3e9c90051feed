// The subscriptions service's rules in demo mode (docs/decisions.md#23–25): a purchase starts a
// monthly subscription, periods are billed once each, the minimum term holds, plans change as the issue says,
// and a failing card is noticed. Dates are given; nothing waits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";

const TZ = "America/Toronto";
const at = (iso: string) => new Date(iso);
const card = {
  name: "Morgan Reyes",
  email: "morgan@example.com",
  cardNumber: "4242 4242 4242 4242",
  expiry: "12 / 39",
  cvc: "123",
};
const property = {
  address: "45 Rideau Street",
  city: "Ottawa",
  state: "ON",
  zipCode: "K1N 5W8",
  squareFootage: "1800",
  yearBuilt: "1995",
};

const mailJobs = async (ctx: TestContext) =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);

describe("subscriptions (demo provider)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  const start = (
    checkoutRef: string,
    cardNumber = "4242424242424242",
    now = at("2026-01-31T15:00:00Z"),
    planType: "basic" | "standard" | "premium" = "standard",
  ) =>
    ctx.container.subscriptions.startDemo(
      {
        checkoutRef,
        planType,
        amountCents: planType === "standard" ? 37000 : planType === "premium" ? 79900 : 14900,
        payerEmail: `${checkoutRef}@example.com`,
        payerName: "Pat",
        cardNumber,
      },
      now,
    );

  it("the /pricing path: a paid demo checkout starts a monthly subscription, intake attaches it, revenue counts the invoice once", async () => {
    const agent = ctx.agent();
    const { body } = await agent.post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const page = await agent.get(body.url).expect(200);
    const secret = /(demo_cs_[a-f0-9]+_secret_[a-f0-9]+)/.exec(page.text)![1];
    const sessionId = body.url.split("/").at(-1);
    await agent
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: secret })
      .expect(200);
    // A repeat confirmation starts nothing new.
    await agent
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: secret })
      .expect(200);
    const sub = await ctx.container.subscriptions.byCheckoutRef(sessionId);
    expect(sub).toMatchObject({
      planType: "standard",
      status: "active",
      provider: "demo",
      monthlyAmount: 370,
      propertyId: null,
    });
    expect(Number((await ctx.db("subscriptions").count({ n: "*" }).first())!.n)).toBe(1);
    expect(await ctx.container.payments.totalRevenue()).toBe(370);
    const made = await agent
      .post("/api/customers")
      .send({
        stripeSessionId: sessionId,
        planType: "standard",
        email: card.email,
        name: card.name,
        phone: "613-555-0100",
        property,
      })
      .expect(201);
    const attached = await ctx.container.subscriptions.get(sub!.id);
    expect(attached).toMatchObject({
      customerId: made.body.id,
      propertyId: made.body.propertyId,
      customerEmail: card.email,
    });
    expect((await ctx.db("properties").where({ id: made.body.propertyId }).first()).subscription_plan).toBe("standard");
    // Standard's services became schedules on the home (docs/decisions.md#26): the four of Basic's kind and HVAC twice.
    expect((await ctx.container.planServices.forSubscription(sub!.id)).length).toBe(7);
    const receipts = (await mailJobs(ctx)).filter((m: { subject: string }) => m.subject.includes("receipt"));
    expect(receipts).toHaveLength(1);
  });

  it("the /checkout path bills /checkout's own price every month", async () => {
    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 194, plan: "basic" })
      .expect(200);
    const paid = await ctx
      .agent()
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: body.clientSecret })
      .expect(200);
    const sub = await ctx.container.subscriptions.byCheckoutRef(paid.body.paymentIntentId);
    expect(sub).toMatchObject({ planType: "basic", monthlyAmount: 194, status: "active" });
  });

  it("periods follow the month-end rule, each billed once; the minimum term ends three months after the start", async () => {
    const sub = await start("jan31");
    expect(sub.currentPeriodStart).toBe("2026-01-31T05:00:00.000Z");
    expect(sub.currentPeriodEnd).toBe("2026-02-28T05:00:00.000Z");
    expect(sub.minimumTermEndsAt).toBe("2026-04-30T04:00:00.000Z");
    const first = await ctx.container.subscriptions.renewDue(at("2026-05-01T12:00:00Z"));
    expect(first.billed).toBeGreaterThanOrEqual(3);
    const again = await ctx.container.subscriptions.renewDue(at("2026-05-01T12:00:00Z"));
    expect(again).toEqual({ billed: 0, paid: 0, failed: 0, ended: 0, planChanges: 0 });
    const { invoices } = await ctx.container.subscriptions.detail(sub.id);
    expect(invoices.map((i) => i.periodStart.slice(0, 10)).reverse()).toEqual([
      "2026-01-31",
      "2026-02-28",
      "2026-03-31",
      "2026-04-30",
    ]);
    // Prices are before tax (docs/decisions.md#32): $370 plus Ontario's HST on each invoice.
    expect(invoices.every((i) => i.status === "paid" && i.subtotal === 370 && i.amount === 418.1)).toBe(true);
  });

  it("a cancellation before the minimum takes effect when it ends; nothing is billed after; it can be undone until then", async () => {
    const sub = await start("early-cancel", undefined, at("2026-03-10T15:00:00Z"));
    const canceled = await ctx.container.subscriptions.cancel(
      sub.id,
      { when: "period_end", reason: "Moving", actor: "customer" },
      at("2026-03-20T12:00:00Z"),
    );
    expect(canceled.cancelAt).toBe(canceled.minimumTermEndsAt);
    expect(canceled.cancelAt).toBe("2026-06-10T04:00:00.000Z");
    const undone = await ctx.container.subscriptions.resume(sub.id, { actor: "customer" });
    expect(undone.cancelAt).toBeNull();
    await ctx.container.subscriptions.cancel(
      sub.id,
      { when: "period_end", reason: null, actor: "customer" },
      at("2026-03-21T12:00:00Z"),
    );
    await ctx.container.subscriptions.renewDue(at("2026-08-01T12:00:00Z"));
    const after = await ctx.container.subscriptions.detail(sub.id);
    expect(after.subscription).toMatchObject({ status: "canceled", canceledAt: "2026-06-10T04:00:00.000Z" });
    // March, April and May: three invoices, none after the cancellation took effect.
    expect(after.invoices).toHaveLength(3);
    await expect(ctx.container.subscriptions.resume(sub.id, { actor: "customer" })).rejects.toMatchObject({
      status: 409,
    });
    const subjects = (await mailJobs(ctx))
      .filter((m: { to: string }) => m.to === "early-cancel@example.com")
      .map((m: { subject: string }) => m.subject);
    expect(subjects.filter((s: string) => /cancellation is scheduled/i.test(s))).toHaveLength(2);
    expect(subjects.filter((s: string) => /has ended/i.test(s))).toHaveLength(1);
  });

  it("after the minimum, a cancellation takes effect at the end of the paid period; staff can end one at once", async () => {
    const sub = await start("late-cancel", undefined, at("2026-01-05T15:00:00Z"));
    await ctx.container.subscriptions.renewDue(at("2026-05-06T12:00:00Z"));
    const canceled = await ctx.container.subscriptions.cancel(
      sub.id,
      { when: "period_end", actor: "customer" },
      at("2026-05-20T12:00:00Z"),
    );
    expect(canceled.cancelAt).toBe("2026-06-05T04:00:00.000Z");
    const other = await start("cancel-now", undefined, at("2026-01-05T15:00:00Z"));
    const ended = await ctx.container.subscriptions.cancel(
      other.id,
      { when: "now", reason: "Fraud", actor: "staff:1" },
      at("2026-01-10T12:00:00Z"),
    );
    expect(ended).toMatchObject({
      status: "canceled",
      canceledAt: "2026-01-10T12:00:00.000Z",
      cancellationReason: "Fraud",
    });
    await expect(
      ctx.container.subscriptions.cancel(other.id, { when: "period_end", actor: "customer" }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("an upgrade applies at once with a prorated invoice; a downgrade at the end of the period", async () => {
    const sub = await start("plans", undefined, at("2026-02-01T15:00:00Z"));
    const up = await ctx.container.subscriptions.changePlan(
      sub.id,
      { planType: "premium", actor: "staff:1" },
      at("2026-02-15T05:00:00Z"),
    );
    expect(up).toMatchObject({ planType: "premium", monthlyAmount: 799 });
    const { invoices } = await ctx.container.subscriptions.detail(sub.id);
    const proration = invoices.find((i) => i.billingReason === "subscription_update")!;
    // Half of February's 28 days is left: half of (799 − 370).
    expect(proration.subtotal).toBeCloseTo(214.5, 1);
    const down = await ctx.container.subscriptions.changePlan(
      sub.id,
      { planType: "basic", actor: "cli" },
      at("2026-02-20T12:00:00Z"),
    );
    expect(down).toMatchObject({
      planType: "premium",
      scheduledPlanType: "basic",
      scheduledPlanAt: down.currentPeriodEnd,
      monthlyAmount: 799,
    });
    await expect(
      ctx.container.subscriptions.changePlan(sub.id, { planType: "basic", actor: "cli" }),
    ).rejects.toMatchObject({ status: 409 });
    await ctx.container.subscriptions.renewDue(at("2026-03-02T12:00:00Z"));
    const after = await ctx.container.subscriptions.detail(sub.id);
    expect(after.subscription).toMatchObject({ planType: "basic", monthlyAmount: 149, scheduledPlanType: null });
    expect(after.invoices[0]).toMatchObject({ subtotal: 149, billingReason: "subscription_cycle" });
    expect(after.events.map((e) => e.kind)).toEqual(expect.arrayContaining(["plan_changed", "plan_change_scheduled"]));
  });

  it("a failing card leaves the subscription past due with an e-mail; a new card pays and it is active again; unpaid for a month it ends", async () => {
    const sub = await start("dunning", "4000000000000341", at("2026-01-10T15:00:00Z"));
    await ctx.container.subscriptions.renewDue(at("2026-02-10T12:00:00Z"));
    const pastDue = await ctx.container.subscriptions.get(sub.id);
    expect(pastDue).toMatchObject({ status: "past_due", lastPaymentError: "Your card was declined." });
    expect(await ctx.container.subscriptions.pastDueCount()).toBeGreaterThanOrEqual(1);
    const failed = (await mailJobs(ctx)).filter(
      (m: { to: string; subject: string }) => m.to === "dunning@example.com" && /failed/i.test(m.subject),
    );
    expect(failed).toHaveLength(1);
    const recovered = await ctx.container.subscriptions.updateDemoCard(
      sub.id,
      { cardNumber: "4242424242424242", actor: "customer" },
      at("2026-02-11T12:00:00Z"),
    );
    expect(recovered).toMatchObject({ status: "active", cardLast4: "4242", lastPaymentError: null });
    const other = await start("dunning-out", "4000000000000341", at("2026-01-10T15:00:00Z"));
    await ctx.container.subscriptions.renewDue(at("2026-03-11T12:00:00Z"));
    expect(await ctx.container.subscriptions.get(other.id)).toMatchObject({ status: "canceled" });
  });

  it("while past due the plan's visits are held, and paid again they are released", async () => {
    const { customer, property: home } = await ctx.container.customers.createWithProperty(
      { email: "held@example.com", name: "Held Owner", phone: "613-555-0101", subscriptionPlan: "standard" },
      { address: "9 Held Lane", city: "Ottawa", province: "ON", postalCode: "K1N 5T5" },
    );
    const sub = await start("held", "4000000000000341", at("2026-03-20T15:00:00Z"));
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(
        "held",
        { customerId: customer.id, propertyId: home.id },
        tx,
        at("2026-03-20T15:00:00Z"),
      ),
    );
    const held = async () =>
      Number(
        (await ctx.db("maintenance_tasks").where({ property_id: home.id, held: true }).count({ n: "*" }).first())!.n,
      );
    expect(await held()).toBe(0);
    await ctx.container.subscriptions.renewDue(at("2026-04-20T12:00:00Z"));
    expect((await ctx.container.subscriptions.get(sub.id)).status).toBe("past_due");
    // May's window cleaning and air conditioning visits wait for the payment.
    expect(await held()).toBeGreaterThan(0);
    await ctx.container.subscriptions.updateDemoCard(
      sub.id,
      { cardNumber: "4242424242424242", actor: "customer" },
      at("2026-04-21T12:00:00Z"),
    );
    expect(await held()).toBe(0);
  });

  it("metrics: MRR of active and past-due subscriptions in dollars, and the cancellations of this month", async () => {
    const m = await ctx.container.subscriptions.metrics(at("2026-06-15T12:00:00Z"));
    const rows = await ctx
      .db("subscriptions")
      .whereIn("status", ["active", "past_due", "trialing"])
      .sum({ c: "monthly_amount_cents" })
      .first();
    expect(m.mrr).toBe(Number(rows!.c) / 100);
    const june = await ctx
      .db("subscriptions")
      .where("canceled_at", ">=", "2026-06-01T04:00:00Z")
      .where("canceled_at", "<=", "2026-06-15T12:00:00Z")
      .count({ n: "*" })
      .first();
    expect(m.canceledThisMonth).toBe(Number(june!.n));
    expect(m.canceledThisMonth).toBeGreaterThan(0);
    expect(m.pastDue + m.active).toBe(
      Number(
        (await ctx.db("subscriptions").whereIn("status", ["active", "past_due", "trialing"]).count({ n: "*" }).first())!
          .n,
      ),
    );
  });

  it("revenue is paid invoices plus one-time payments, nothing counted twice", async () => {
    // Invoices count before tax (docs/decisions.md#34): the tax collected is not revenue.
    const invoices = Number(
      (await ctx.db("invoices").where({ status: "paid" }).sum({ c: "subtotal_cents" }).first())!.c,
    );
    const oneTime = Number(
      (await ctx
        .db("payments")
        .where({ status: "succeeded" })
        .whereNull("subscription_id")
        .sum({ c: "amount_cents" })
        .first())!.c ?? 0,
    );
    expect(await ctx.container.payments.totalRevenue()).toBe((invoices + oneTime) / 100);
    const stats = await ctx.agent().get("/api/dashboard/stats");
    expect([200, 401]).toContain(stats.status);
  });
});
