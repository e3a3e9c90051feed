// Plan changes keep the money right (docs/decisions.md#49), with Stripe and with the demo provider alike.
// - A downgrade keeps the tax: Stripe's schedule update replaces the phases with what is sent, each phase with its own
//   tax rates, so Haven's phases carry the subscription's. On the stand-in, which applies those semantics
//   (tests/unit/stripe-stand-in-schedules.test.ts), the renewals after a downgrade, and after the schedule releases
//   the subscription, still carry Ontario's HST (/checkout's default_tax_rates) and Quebec's GST and QST (/pricing's
//   Checkout Session, on the item); an upgrade while the downgrade waits is taxed too.
// - An upgrade whose charge is declined leaves the plan as it was: with Stripe a pending update
//   (payment_behavior=pending_if_incomplete, its plan metadata kept with it), with the demo provider card 4000 0000
//   0000 0341 (it declines every charge after the first). The answer is a 402 with the card's message, nothing is
//   billed or stored, the history says so, and a downgrade that was waiting is dropped, as the upgrade asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StripeTaxRates, createStripeClient } from "../../src/modules/payments/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";
import { DECLINED, STAND_IN_KEYS, StripeStandIn } from "../support/stripe-stand-in.js";
import { postStripeEvent, stripeSubscription } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const t0 = new Date("2026-03-02T15:00:00Z");
const days = (n: number) => new Date(t0.getTime() + n * 86_400_000);

const deliver = (ctx: TestContext, type: string, object: Obj) => postStripeEvent(ctx, type, object).expect(200);

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

/** An Ontario home bought at /checkout: the subscription's default_tax_rates are Haven's HST. */
async function ontarioAtCheckout({ ctx, stripe }: StripeProvider, email: string): Promise<string> {
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
  await deliver(ctx, "customer.subscription.created", stripe.subscription(created.id));
  return created.id;
}

/** A Gatineau home bought from /pricing: Stripe Checkout's line, and so the item, carries GST and QST. */
async function quebecAtPricing({ ctx, stripe }: StripeProvider, email: string): Promise<string> {
  const { body } = await ctx
    .agent()
    .post("/api/create-checkout-session")
    .send({ planType: "standard", postalCode: "J8X 1A1" })
    .expect(200);
  const session = stripe.pay(body.url.split("/pay/")[1] as string, { email, name: "Pat Payer" });
  await deliver(ctx, "checkout.session.completed", session);
  return session.subscription as string;
}

const localId = async ({ ctx }: StripeProvider, providerId: string) =>
  (await ctx.db("subscriptions").where({ provider_subscription_id: providerId }).first()).id as number;

/** The period ends at Stripe and its invoice reaches Haven: the invoice as Haven stored it. */
async function renew({ ctx, stripe }: StripeProvider, providerId: string) {
  const { subscription, invoice } = stripe.advancePeriod(providerId);
  await deliver(ctx, "invoice.paid", invoice!);
  await deliver(ctx, "customer.subscription.updated", subscription);
  return ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first();
}

for (const [name, slug, setUp] of [
  ["with Stripe (the real SDK against the stand-in)", "stripe", withStripe],
  ["with the demo provider", "demo", withDemo],
] as const) {
  describe(`${name}: plan changes`, () => {
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

    if (slug === "stripe") {
      for (const [home, buy, kinds] of [
        ["an Ontario home (HST on the subscription)", ontarioAtCheckout, ["HST"]],
        ["a Gatineau home (GST and QST on the item)", quebecAtPricing, ["GST", "QST"]],
      ] as const) {
        it(`${home}: the downgraded renewal and the one after the schedule releases it`, async () => {
          const s = p as StripeProvider;
          const providerId = await buy(s, `${kinds.join("-").toLowerCase()}@example.com`);
          const id = await localId(s, providerId);
          const down = await s.ctx.container.subscriptions.changePlan(
            id,
            { planType: "basic", actor: "customer" },
            days(5),
          );
          expect(down.scheduledPlanType).toBe("basic");
          const phases = s.stripe.schedules.get(s.stripe.subscription(providerId).schedule as string)!.phases as Obj[];
          expect(phases).toHaveLength(2);
          for (const renewal of [await renew(s, providerId), await renew(s, providerId)]) {
            expect(renewal.status).toBe("paid");
            expect(renewal.tax_lines.map((l: { kind: string }) => l.kind)).toEqual(kinds);
            expect(renewal.tax_cents).toBeGreaterThan(0);
            expect(renewal.amount_cents).toBe(renewal.subtotal_cents + renewal.tax_cents);
          }
          expect(s.stripe.subscription(providerId).schedule).toBeNull();
          expect((await s.ctx.container.subscriptions.get(id)).planType).toBe("basic");
        });
      }

      it("an upgrade while the downgrade waits: its prorated invoice is taxed", async () => {
        const s = p as StripeProvider;
        const providerId = await ontarioAtCheckout(s, "up-after-down@example.com");
        const id = await localId(s, providerId);
        await s.ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, days(5));
        s.stripe.clock = () => days(10).getTime();
        try {
          await s.ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "customer" }, days(10));
        } finally {
          s.stripe.clock = () => t0.getTime();
        }
        const upgrade = await s.ctx
          .db("invoices")
          .where({ subscription_id: id, billing_reason: "subscription_update" })
          .first();
        expect(upgrade.tax_lines.map((l: { kind: string }) => l.kind)).toEqual(["HST"]);
        expect(upgrade.tax_cents).toBe(Math.round(upgrade.subtotal_cents * 0.13));
      });

      // What is sent, and what Stripe's webhooks then bring.
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
        const subjects = (await queuedMails(p.ctx)).filter((m) => m.to === "pending@example.com").map((m) => m.subject);
        expect(subjects.filter((subject) => /payment failed|plan changes/i.test(subject))).toEqual([]);
      });
    }
  });
}
