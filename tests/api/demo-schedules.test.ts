// The demo provider beside Stripe (docs/decisions.md#23–25, #35; Stripe's side in stripe-schedules.test.ts): a
// downgrade then an upgrade prorates from the plan paid for; the minimum term ends with the provider's own third
// period (sign-ups at 21:00 Toronto on the 30th and the 31st); the price list is stored, not guessed; a past-due plan
// cannot change; a 3-D Secure renewal e-mails the page to confirm it. Times are given, never waited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { queuedMails } from "../support/jobs.js";

const TZ = "America/Toronto";
const at = (iso: string) => new Date(iso);
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
const days = (from: Date, n: number) => new Date(from.getTime() + n * 86_400_000);

/** Stripe's proration of a price difference for what is left of the period at `now` (seconds). */
const proration = (difference: number, start: number, end: number, now: number) =>
  Math.round((difference * (end - now)) / (end - start));

describe("with the demo provider", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  const start = (
    ref: string,
    planType: "basic" | "standard" | "premium",
    now: Date,
    options: { cardNumber?: string; priceList?: "pricing" | "checkout"; amountCents?: number } = {},
  ) =>
    ctx.container.subscriptions.startDemo(
      {
        checkoutRef: ref,
        planType,
        amountCents: options.amountCents ?? { basic: 14900, standard: 37000, premium: 79900 }[planType],
        payerEmail: `${ref}@example.com`,
        payerName: "Pat",
        cardNumber: options.cardNumber ?? "4242424242424242",
        priceList: options.priceList ?? "pricing",
        postalCode: "H2X 1Y4",
      },
      now,
    );

  it("a downgrade then an upgrade: the upgrade is prorated from the plan paid for", async () => {
    const t0 = at("2026-03-02T15:00:00Z");
    const sub = await start("down-up", "standard", t0);
    expect(await ctx.db("subscriptions").where({ id: sub.id }).first()).toMatchObject({
      price_list: "pricing",
      tax_postal_code: "H2X 1Y4",
      tax_province: "QC",
    });
    const down = await ctx.container.subscriptions.changePlan(
      sub.id,
      { planType: "basic", actor: "customer" },
      days(t0, 10),
    );
    expect(down).toMatchObject({ planType: "standard", scheduledPlanType: "basic", monthlyAmount: 370 });
    const upAt = days(t0, 15);
    const up = await ctx.container.subscriptions.changePlan(sub.id, { planType: "premium", actor: "customer" }, upAt);
    expect(up).toMatchObject({ planType: "premium", scheduledPlanType: null, monthlyAmount: 799 });
    const [invoice] = await ctx
      .db("invoices")
      .where({ subscription_id: sub.id, billing_reason: "subscription_update" });
    const expected = proration(
      79900 - 37000,
      seconds(sub.currentPeriodStart),
      seconds(sub.currentPeriodEnd),
      Math.floor(upAt.getTime() / 1000),
    );
    expect(Math.abs(Number(invoice.subtotal_cents ?? invoice.amount_cents) - expected)).toBeLessThanOrEqual(1);
  });

  it("an evening sign-up (21:00 Toronto on the 30th and on the 31st) that cancels inside the minimum pays three periods, never a fourth", async () => {
    for (const [ref, signUp] of [
      ["eve30", "2026-01-31T02:00:00Z"],
      ["eve31", "2026-04-01T01:00:00Z"],
    ] as const) {
      const sub = await start(ref, "basic", at(signUp));
      const canceled = await ctx.container.subscriptions.cancel(
        sub.id,
        { when: "period_end", actor: "customer" },
        days(at(signUp), 5),
      );
      expect(canceled.cancelAt).toBe(sub.minimumTermEndsAt);
      await ctx.container.subscriptions.renewDue(at("2026-12-31T12:00:00Z"));
      const after = await ctx.container.subscriptions.detail(sub.id);
      expect(after.subscription.status).toBe("canceled");
      expect(after.invoices).toHaveLength(3);
      // The minimum term is the end of the third period billed.
      expect(after.invoices[0]!.periodEnd).toBe(sub.minimumTermEndsAt);
    }
  });

  it("a past-due plan cannot change until its open invoice is paid; the payment-failed e-mail states when the plan ends unpaid", async () => {
    const t0 = at("2026-02-10T15:00:00Z");
    const sub = await start("pastdue", "basic", t0, { cardNumber: "4000000000000341" });
    await ctx.container.subscriptions.renewDue(at("2026-03-11T12:00:00Z"));
    const now = await ctx.container.subscriptions.get(sub.id);
    expect(now.status).toBe("past_due");
    await expect(
      ctx.container.subscriptions.changePlan(
        sub.id,
        { planType: "premium", actor: "customer" },
        at("2026-03-12T12:00:00Z"),
      ),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/pay the open invoice/) });
    expect(await ctx.db("invoices").where({ subscription_id: sub.id, billing_reason: "subscription_update" })).toEqual(
      [],
    );
    const failed = (await queuedMails(ctx)).filter(
      (m) => m.to === "pastdue@example.com" && /payment failed/.test(m.subject),
    );
    expect(failed).toHaveLength(1);
    expect(failed[0]!.text).toContain(
      "If this invoice is still unpaid on April 10, 2026, your plan ends on that date.",
    );
    // Paid with a new card, it can change again.
    await ctx.container.subscriptions.updateDemoCard(sub.id, { cardNumber: "4242424242424242", actor: "customer" });
    const up = await ctx.container.subscriptions.changePlan(
      sub.id,
      { planType: "standard", actor: "customer" },
      at("2026-03-12T12:00:00Z"),
    );
    expect(up.planType).toBe("standard");
  });

  it("a 3-D Secure renewal (card 4000 0027 6000 3184): the e-mail carries the page to confirm it (stored), no 'payment failed' e-mail; confirmed, it is paid", async () => {
    const sub = await start("sca", "standard", at("2026-02-03T15:00:00Z"), { cardNumber: "4000002760003184" });
    await ctx.container.subscriptions.renewDue(at("2026-03-04T12:00:00Z"));
    expect((await ctx.container.subscriptions.get(sub.id)).status).toBe("past_due");
    const open = await ctx.db("invoices").where({ subscription_id: sub.id, status: "open" }).first();
    expect(open.hosted_invoice_url).toMatch(/\/billing\/[^/]+\/card$/);
    const mails = (await queuedMails(ctx)).filter((m) => m.to === "sca@example.com");
    const asks = mails.filter((m) => /confirm your Haven payment/.test(m.subject));
    expect(asks).toHaveLength(1);
    expect(asks[0]!.text).toContain(open.hosted_invoice_url);
    expect(mails.filter((m) => /payment failed/.test(m.subject))).toHaveLength(0);
    // The page's card form confirms it: paid, active again.
    const path = new URL(open.hosted_invoice_url).pathname;
    await ctx
      .agent()
      .post(path)
      .type("form")
      .send({ cardNumber: "4000 0027 6000 3184", expiry: "12 / 39", cvc: "123" })
      .expect(303);
    expect((await ctx.container.subscriptions.get(sub.id)).status).toBe("active");
    expect((await ctx.db("invoices").where({ id: open.id }).first()).status).toBe("paid");
  });

  it("the price list is stored, not guessed: after set-price basic --checkout 199, a $194 subscriber's upgrade bills $889", async () => {
    const sub = await start("list194", "basic", at("2026-06-01T15:00:00Z"), {
      priceList: "checkout",
      amountCents: 19400,
    });
    await ctx.container.plans.setPrice("basic", { checkout: 199 });
    try {
      // My Home's Plan page shows the price the change will bill.
      const email = "list194@example.com";
      const { customer, property } = await ctx.container.customers.createWithProperty(
        { email, name: "Lee List", phone: "613-555-0103", subscriptionPlan: "free-score" },
        {
          address: "3 Bank Street",
          city: "Ottawa",
          province: "ON",
          postalCode: "K1P 5N2",
          squareFootage: 1500,
          yearBuilt: 1980,
        },
      );
      await ctx.container.transaction((tx) =>
        ctx.container.subscriptions.attachToProperty(
          "list194",
          { customerId: customer.id, propertyId: property.id },
          tx,
        ),
      );
      const home = await signInHome(ctx, email);
      const { body } = await home.get("/api/my-home/subscription").expect(200);
      const premium = body.subscriptions[0].changes.find((c: { planType: string }) => c.planType === "premium");
      expect(premium.price).toBe(889);
      // So does the staff page's plan change.
      const staff = await signInStaff(ctx);
      const page = await staff.agent.get(`/admin/subscriptions/${sub.id}`).expect(200);
      expect(page.text).toMatch(/Premium: \$889\.00\/month/);
      const up = await ctx.container.subscriptions.changePlan(
        sub.id,
        { planType: "premium", actor: "staff:1" },
        at("2026-06-05T15:00:00Z"),
      );
      expect(up.monthlyAmount).toBe(889);
    } finally {
      await ctx.container.plans.setPrice("basic", { checkout: 194 });
    }
  });
});
