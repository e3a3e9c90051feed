// An upgrade whose charge is declined leaves the plan as it was (docs/decisions.md#49), with Stripe (a pending update:
// payment_behavior=pending_if_incomplete, its plan metadata kept with it) and with the demo provider (card 4000 0000
// 0000 0341 declines every charge after the first) alike: the answer is a 402 with the card's message, nothing is
// billed or stored, the history says so, and a downgrade that was waiting is dropped, as the upgrade asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { DECLINED, StripeStandIn } from "../support/stripe-stand-in.js";
import { stripeSubscription } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const t0 = new Date("2026-03-02T15:00:00Z");
const days = (n: number) => new Date(t0.getTime() + n * 86_400_000);

const deliver = (ctx: TestContext, type: string, object: Obj) => {
  const { payload, header } = StripeStandIn.signedEvent(type, structuredClone(object));
  return ctx
    .agent()
    .post("/api/stripe/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", header)
    .send(payload)
    .expect(200);
};

interface Provider {
  ctx: TestContext;
  /** A Standard subscription whose card pays the first invoice and declines every later charge; its local id. */
  failingCard(email: string): Promise<number>;
  /** What the provider holds after the declined upgrade: the plan's monthly amount it bills. */
  billed(id: number): Promise<number>;
  close(): Promise<void>;
}

type StripeProvider = Provider & { stripe: StripeStandIn; providerId(id: number): Promise<string> };

async function withStripe(): Promise<StripeProvider> {
  const stripe = await StripeStandIn.start();
  stripe.clock = () => t0.getTime();
  const ctx = await createTestContext(stripe.env());
  await ctx.container.plans.seed();
  const providerId = async (id: number) =>
    (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
  const item = async (id: number) => (stripe.subscription(await providerId(id)).items as { data: Obj[] }).data[0]!;
  return {
    ctx,
    stripe,
    providerId,
    async failingCard(email) {
      const id = await stripeSubscription(ctx, stripe, email, "standard");
      const sub = stripe.subscription(await providerId(id));
      const customer = stripe.customers.get(sub.customer as string)!;
      stripe.failingCards.add((customer.invoice_settings as Obj).default_payment_method as string);
      return id;
    },
    billed: async (id) => ((await item(id)).price as Obj).unit_amount as number,
    async close() {
      await ctx.close();
      await stripe.close();
    },
  };
}

async function withDemo(): Promise<Provider> {
  const ctx = await createTestContext({});
  await ctx.container.plans.seed();
  return {
    ctx,
    async failingCard(email) {
      const sub = await ctx.container.subscriptions.startDemo(
        {
          checkoutRef: email,
          planType: "standard",
          amountCents: 37000,
          payerEmail: email,
          payerName: "Pat",
          cardNumber: "4000000000000341",
          priceList: "pricing",
          postalCode: "K1N 5W8",
        },
        t0,
      );
      return sub.id;
    },
    billed: async (id) => (await ctx.db("subscriptions").where({ id }).first()).monthly_amount_cents as number,
    close: () => ctx.close(),
  };
}

for (const [name, slug, setUp] of [
  ["with Stripe (the real SDK against the stand-in)", "stripe", withStripe],
  ["with the demo provider", "demo", withDemo],
] as const) {
  describe(`${name}: a declined upgrade`, () => {
    let p: Provider;
    beforeAll(async () => {
      p = await setUp();
    });
    afterAll(() => p.close());

    it("answers 402 with the card's message; the plan, the price billed and the invoices are as they were; the history says so", async () => {
      const id = await p.failingCard(`declined-${slug}@example.com`);
      const { agent } = await signInStaff(p.ctx);
      const res = await agent.post(`/api/subscriptions/${id}/change-plan`).send({ planType: "premium" }).expect(402);
      expect(res.body).toEqual({ message: DECLINED });
      expect(await p.ctx.container.subscriptions.get(id)).toMatchObject({ planType: "standard", status: "active" });
      expect(await p.billed(id)).toBe(37000);
      expect(await p.ctx.db("invoices").where({ subscription_id: id, billing_reason: "subscription_update" })).toEqual(
        [],
      );
      const events = (await p.ctx.container.subscriptions.detail(id)).events;
      expect(events.find((e) => e.kind === "plan_change_declined")).toMatchObject({
        fromPlan: "standard",
        toPlan: "premium",
      });
      expect(events.map((e) => e.kind)).not.toContain("plan_changed");
    });

    it("a downgrade that was waiting is dropped first, as the upgrade asked; the plan stays as it is", async () => {
      const id = await p.failingCard(`declined-down-${slug}@example.com`);
      await p.ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, days(3));
      await expect(
        p.ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "customer" }, days(5)),
      ).rejects.toMatchObject({ status: 402, message: DECLINED });
      expect(await p.ctx.container.subscriptions.get(id)).toMatchObject({
        planType: "standard",
        scheduledPlanType: null,
      });
      expect(await p.billed(id)).toBe(37000);
      const kinds = (await p.ctx.container.subscriptions.detail(id)).events.map((e) => e.kind);
      expect(kinds).toEqual(expect.arrayContaining(["plan_change_undone", "plan_change_declined"]));
    });

    // With Stripe, what is sent and what its webhooks then bring.
    if (slug === "stripe")
      it("one pending update with its metadata; Stripe's webhooks for the unpaid invoice store nothing and e-mail no 'payment failed'", async () => {
        const { stripe, providerId: providerIdOf } = p as StripeProvider;
        const id = await p.failingCard("pending@example.com");
        const providerId = await providerIdOf(id);
        await expect(
          p.ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "customer" }, days(5)),
        ).rejects.toMatchObject({ status: 402 });
        const [call] = stripe.apiCalls("POST", `/v1/subscriptions/${providerId}`);
        expect(call!.form).toMatchObject({
          payment_behavior: "pending_if_incomplete",
          proration_behavior: "always_invoice",
          "metadata[plan]": "premium",
        });
        const sub = stripe.subscription(providerId);
        expect(sub.pending_update).not.toBeNull();
        const open = stripe.invoices.get(sub.latest_invoice as string)!;
        expect(open).toMatchObject({ status: "open", billing_reason: "subscription_update" });
        await deliver(p.ctx, "invoice.payment_failed", open);
        await deliver(p.ctx, "customer.subscription.updated", sub);
        expect(await p.ctx.container.subscriptions.get(id)).toMatchObject({
          planType: "standard",
          status: "active",
          lastPaymentError: null,
        });
        expect(await p.ctx.db("invoices").where({ provider_invoice_id: open.id })).toEqual([]);
        const mails = await p.ctx.db.raw(
          "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send'",
        );
        const subjects = mails.rows
          .map((r: { payload: { to: string; subject: string } }) => r.payload)
          .filter((m: { to: string }) => m.to === "pending@example.com")
          .map((m: { subject: string }) => m.subject);
        expect(subjects.filter((s: string) => /payment failed|plan changes/i.test(s))).toEqual([]);
      });
  });
}
