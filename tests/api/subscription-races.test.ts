// One change at a time per subscription (docs/decisions.md#35, #56), with the demo provider and with Stripe (the
// real SDK against the stand-in): parallel upgrades bill once and e-mail once, an upgrade and a cancellation sent
// together both apply (one sent while the other is pending is a 409, then made), parallel downgrades log one event,
// a repeat gets the first answer, and a 503 says "Nothing was changed" only when nothing was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { stripeSubscription } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
type Agent = Awaited<ReturnType<typeof signInStaff>>["agent"];

const mailJobs = async (ctx: TestContext): Promise<{ subject: string; to: string; text: string }[]> =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string; text: string } }) => r.payload);

const prorations = (ctx: TestContext, id: number) =>
  ctx.db("invoices").where({ subscription_id: id, billing_reason: "subscription_update" });

/** The same change sent `n` times at once. */
const together = (n: number, send: () => Promise<{ status: number; body: Obj }>) =>
  Promise.all(Array.from({ length: n }, send));

function raceSuite(
  name: string,
  setup: () => Promise<{
    ctx: TestContext;
    staff: Agent;
    make: (email: string, plan: string) => Promise<number>;
    close: () => Promise<void>;
  }>,
) {
  describe(name, () => {
    let ctx: TestContext;
    let staff: Agent;
    let make: (email: string, plan: string) => Promise<number>;
    let close: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      ({ ctx, staff, make, close } = await setup());
    });
    afterAll(() => close());

    it("5 parallel upgrades give 1 invoice and 1 e-mail, and every request the first answer", async () => {
      const id = await make("five@example.com", "standard");
      const answers = await together(5, () =>
        staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" }),
      );
      // Those that saw the subscription before the first was answered get its answer; one that saw it after is
      // refused (already on Premium) with the state the first left.
      expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      const first = answers.find((a) => a.status === 200)!;
      expect(first.body).toMatchObject({ planType: "premium" });
      for (const answer of answers)
        expect(answer.status === 200 ? answer.body : answer.body.subscription).toEqual(first.body);
      expect(await prorations(ctx, id)).toHaveLength(1);
      const mails = (await mailJobs(ctx)).filter((m) => m.to === "five@example.com" && /plan changes/.test(m.subject));
      expect(mails).toHaveLength(1);
      const events = await ctx.db("subscription_events").where({ subscription_id: id, kind: "plan_changed" });
      expect(events).toHaveLength(1);
    });

    it("an upgrade and a cancellation sent together both apply, whichever runs first (one while the other is pending is a 409, then made)", async () => {
      const id = await make("both@example.com", "basic");
      const upgrade = () => staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" });
      const cancel = () => staff.post(`/api/subscriptions/${id}/cancel`).send({ when: "period_end", reason: "Moving" });
      const answers = await Promise.all([upgrade(), cancel()]);
      expect(answers.some((a) => a.status === 200)).toBe(true);
      for (const [i, answer] of answers.entries()) {
        if (answer.status === 200) continue;
        expect(answer.status).toBe(409);
        expect(answer.body.message).toMatch(/Another change to this plan is in progress/);
        await (i === 0 ? upgrade() : cancel()).expect(200);
      }
      const after = (await staff.get(`/api/subscriptions/${id}`).expect(200)).body.subscription;
      expect(after).toMatchObject({ planType: "standard", monthlyAmount: 370 });
      expect(after.cancelAt).not.toBeNull();
      expect(await prorations(ctx, id)).toHaveLength(1);
    });

    it("3 parallel downgrades give 1 event and 1 e-mail", async () => {
      const id = await make("three@example.com", "premium");
      const answers = await together(3, () =>
        staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "basic" }),
      );
      expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      for (const answer of answers)
        expect(answer.status === 200 ? answer.body : answer.body.subscription).toMatchObject({
          planType: "premium",
          scheduledPlanType: "basic",
        });
      const events = await ctx.db("subscription_events").where({ subscription_id: id, kind: "plan_change_scheduled" });
      expect(events).toHaveLength(1);
      const mails = (await mailJobs(ctx)).filter((m) => m.to === "three@example.com" && /plan changes/.test(m.subject));
      expect(mails).toHaveLength(1);
    });

    it("a repeat with the same Idempotency-Key gets the first answer; a refused change is a 409 with the current state", async () => {
      const id = await make("repeat@example.com", "basic");
      const first = await staff
        .post(`/api/subscriptions/${id}/change-plan`)
        .set("Idempotency-Key", "upgrade-1")
        .send({ planType: "premium" })
        .expect(200);
      // Something else happens in between: the key still names the first change.
      await staff.post(`/api/subscriptions/${id}/cancel`).send({ when: "period_end" }).expect(200);
      const again = await staff
        .post(`/api/subscriptions/${id}/change-plan`)
        .set("Idempotency-Key", "upgrade-1")
        .send({ planType: "premium" })
        .expect(200);
      expect(again.body).toEqual(first.body);
      expect(await prorations(ctx, id)).toHaveLength(1);
      const refused = await staff
        .post(`/api/subscriptions/${id}/change-plan`)
        .send({ planType: "premium" })
        .expect(409);
      expect(refused.body.message).toMatch(/already on the Premium plan/);
      expect(refused.body.subscription).toMatchObject({ id, planType: "premium" });
      expect(refused.body.subscription.cancelAt).not.toBeNull();
      await staff
        .post(`/api/subscriptions/${id}/change-plan`)
        .set("Idempotency-Key", "not a key!")
        .send({ planType: "standard" })
        .expect(400);
    });
  });
}

raceSuite("one change at a time (demo provider)", async () => {
  const ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto" });
  await ctx.container.plans.seed();
  const { agent: staff } = await signInStaff(ctx);
  const prices: Record<string, number> = { basic: 14900, standard: 37000, premium: 79900 };
  const make = async (email: string, plan: string) =>
    (
      await ctx.container.subscriptions.startDemo(
        {
          checkoutRef: `race_${email}`,
          planType: plan as "basic",
          amountCents: prices[plan]!,
          payerEmail: email,
          payerName: "Pat",
          cardNumber: "4242424242424242",
          priceList: "pricing",
          postalCode: "K1N 5W8",
        },
        new Date(Date.now() - 3 * 86_400_000),
      )
    ).id;
  return { ctx, staff, make, close: () => ctx.close() };
});

let stripe: StripeStandIn;
raceSuite("one change at a time (Stripe)", async () => {
  stripe = await StripeStandIn.start();
  const ctx = await createTestContext({ ...stripe.env(), BUSINESS_TZ: "America/Toronto" });
  await ctx.container.plans.seed();
  const { agent: staff } = await signInStaff(ctx);
  const make = (email: string, plan: string) => stripeSubscription(ctx, stripe, email, plan);
  const close = async () => {
    await ctx.close();
    await stripe.close();
  };
  return { ctx, staff, make, close };
});

describe("a 503 says 'Nothing was changed' only when nothing was (Stripe)", () => {
  let ctx: TestContext;
  let standIn: StripeStandIn;
  beforeAll(async () => {
    standIn = await StripeStandIn.start();
    ctx = await createTestContext({ ...standIn.env(), BUSINESS_TZ: "America/Toronto" });
    await ctx.container.plans.seed();
  });
  afterAll(async () => {
    await ctx.close();
    await standIn.close();
  });

  it("Stripe applies an upgrade whose answer is lost: 202 pending, nothing local; a retry of the same change settles it, billed once", async () => {
    const id = await stripeSubscription(ctx, standIn, "lost@example.com", "basic");
    const { agent: staff } = await signInStaff(ctx);
    const before = await ctx.db("subscriptions").where({ id }).first();
    // The Standard price exists already (prices are found again by lookup key): only the change itself is lost.
    await ctx.container.stripe!.billing.priceFor(await ctx.container.plans.get("standard"), 37000);
    standIn.loseAnswers = true;
    let res: { status: number; body: Obj };
    try {
      res = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" });
    } finally {
      standIn.loseAnswers = false;
    }
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "pending", subscription: { id, planType: "basic" } });
    expect(res.body.message).toMatch(/pending.*being checked/);
    expect(res.body.message).not.toMatch(/Nothing was changed/);
    expect(await ctx.db("subscriptions").where({ id }).first()).toEqual(before);
    // Stripe did apply it; the same change again carries the same idempotency key and gets Stripe's first answer.
    const providerId = before.provider_subscription_id as string;
    expect(((standIn.subscription(providerId).items as { data: Obj[] }).data[0]!.price as Obj).unit_amount).toBe(37000);
    const again = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "standard" }).expect(200);
    expect(again.body).toMatchObject({ planType: "standard", monthlyAmount: 370 });
    const updates = standIn
      .apiCalls("POST", `/v1/subscriptions/${providerId}`)
      .filter((r) => r.form["items[0][price]"]);
    expect(new Set(updates.map((u) => u.idempotencyKey)).size).toBe(1);
    expect(
      [...standIn.invoices.values()].filter(
        (i) =>
          i.billing_reason === "subscription_update" &&
          (i.parent as { subscription_details: Obj }).subscription_details.subscription === providerId,
      ),
    ).toHaveLength(1);
    expect(await prorations(ctx, id)).toHaveLength(1);
  });

  it("a webhook waits for the subscription's lock, then reads it back: a change made meanwhile is never overwritten by an older read", async () => {
    const id = await stripeSubscription(ctx, standIn, "webhook-lock@example.com", "basic");
    const row = await ctx.db("subscriptions").where({ id }).first();
    const providerId = row.provider_subscription_id as string;
    // A transaction holds the row (as a change does while it applies Stripe's answer).
    const holder = await ctx.db.transaction();
    await holder("subscriptions").where({ id }).forUpdate().first();
    const { payload, header } = StripeStandIn.signedEvent(
      "customer.subscription.updated",
      standIn.subscription(providerId),
    );
    const delivery = ctx
      .agent()
      .post("/api/stripe/webhook")
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", header)
      .send(payload)
      .then((r) => r);
    // Wait until the webhook is waiting on a lock in this database.
    for (let i = 0; i < 500; i++) {
      const waiting = await holder.raw(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (waiting.rows[0].n > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Meanwhile the change lands at Stripe (a cancellation), and the holder commits.
    const cancelAt = (standIn.subscription(providerId).items as { data: Obj[] }).data[0]!.current_period_end as number;
    Object.assign(standIn.subscriptions.get(providerId)!, { cancel_at: cancelAt });
    await holder.commit();
    expect((await delivery).status).toBe(200);
    const after = await ctx.db("subscriptions").where({ id }).first();
    expect(after.cancel_at?.getTime()).toBe(cancelAt * 1000);
  });

  it("Stripe unreachable before anything is sent: 503 'Nothing was changed', and nothing was", async () => {
    const id = await stripeSubscription(ctx, standIn, "down@example.com", "basic");
    const { agent: staff } = await signInStaff(ctx);
    const calls = standIn.requests.length;
    standIn.failWith = 503;
    try {
      const res = await staff.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" }).expect(503);
      expect(res.body.message).toBe("The payment provider could not be reached. Nothing was changed.");
    } finally {
      standIn.failWith = null;
    }
    expect(standIn.requests.slice(calls).every((r) => r.method === "GET")).toBe(true);
  });
});

describe("one change at a time from My Home (demo provider)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: "America/Toronto" });
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  it("5 parallel upgrades by the homeowner give 1 invoice and 1 e-mail", async () => {
    const email = "owner-race@example.com";
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email, name: "Olive Owner", phone: "613-555-0102", subscriptionPlan: "free-score" },
      {
        address: "12 Elgin Street",
        city: "Ottawa",
        province: "ON",
        postalCode: "K1P 5K8",
        squareFootage: 1500,
        yearBuilt: 1980,
      },
    );
    const started = new Date(Date.now() - 3 * 86_400_000);
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: "home_race",
        planType: "basic",
        amountCents: 14900,
        payerEmail: email,
        payerName: "Olive Owner",
        cardNumber: "4242424242424242",
        priceList: "pricing",
        postalCode: "K1P 5K8",
      },
      started,
    );
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(
        "home_race",
        { customerId: customer.id, propertyId: property.id },
        tx,
      ),
    );
    const home = await signInHome(ctx, email);
    const answers = await together(5, () =>
      home.post("/api/my-home/subscription/change-plan").send({ subscriptionId: sub.id, planType: "premium" }),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    expect(await prorations(ctx, sub.id)).toHaveLength(1);
    const mails = (await mailJobs(ctx)).filter((m) => m.to === email && /plan changes/.test(m.subject));
    expect(mails).toHaveLength(1);
  });
});
