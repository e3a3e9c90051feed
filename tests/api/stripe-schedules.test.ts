// Stripe done the way Stripe documents it (docs/decisions.md#23–25, #35; the demo provider's side in
// demo-schedules.test.ts): a downgrade waits in a Subscription Schedule and an upgrade meanwhile prorates from the
// plan paid for; the minimum term ends with Stripe's own third period (sign-ups at 21:00 Toronto on the 30th and the
// 31st); the price list is the one stored on the subscription; a 3-D Secure renewal e-mails Stripe's hosted page; an
// unpaid plan is recovered from the billing link's card flow. Times are given, never waited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStripeClient } from "../../src/modules/payments/index.js";
import { signBillingToken } from "../../src/modules/subscriptions/index.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { queuedMails } from "../support/jobs.js";
import { STAND_IN_KEYS, StripeStandIn, monthsFrom } from "../support/stripe-stand-in.js";
import { postStripeEvent, stripeSubscription } from "../support/subscriptions.js";

type Obj = Record<string, unknown>;
const TZ = "America/Toronto";
const at = (iso: string) => new Date(iso);
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
const days = (from: Date, n: number) => new Date(from.getTime() + n * 86_400_000);

const deliver = (ctx: TestContext, type: string, object: Obj) => postStripeEvent(ctx, type, object).expect(200);

/** Stripe's proration of a price difference for what is left of the period at `now` (seconds). */
const proration = (difference: number, start: number, end: number, now: number) =>
  Math.round((difference * (end - now)) / (end - start));

describe("with Stripe (the real SDK against the stand-in)", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    ctx = await createTestContext({ ...stripe.env(), BUSINESS_TZ: TZ });
    await ctx.container.plans.seed();
  });
  afterAll(async () => {
    await ctx.close();
    await stripe.close();
  });
  const providerIdOf = async (id: number) =>
    (await ctx.db("subscriptions").where({ id }).first()).provider_subscription_id as string;
  const itemOf = (providerId: string) => (stripe.subscription(providerId).items as { data: Obj[] }).data[0]!;

  it("a downgrade waits in a Subscription Schedule (the paid price stays); an upgrade meanwhile releases it and prorates from the plan paid for", async () => {
    const t0 = at("2026-03-02T15:00:00Z");
    stripe.clock = () => t0.getTime();
    const id = await stripeSubscription(ctx, stripe, "schedule@example.com", "standard");
    const providerId = await providerIdOf(id);

    const downAt = days(t0, 10);
    stripe.clock = () => downAt.getTime();
    const down = await ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "staff:1" }, downAt);
    expect(down).toMatchObject({ planType: "standard", scheduledPlanType: "basic", monthlyAmount: 370 });
    // Stripe still bills Standard this period; its schedule moves to Basic when the period ends.
    expect((itemOf(providerId).price as Obj).unit_amount).toBe(37000);
    const scheduleId = stripe.subscription(providerId).schedule as string;
    expect(scheduleId).toMatch(/^sub_sched_/);
    const schedule = stripe.schedules.get(scheduleId)!;
    expect(schedule).toMatchObject({ end_behavior: "release", status: "active" });
    const phases = schedule.phases as Obj[];
    expect(phases).toHaveLength(2);
    expect(phases[0]).toMatchObject({ end_date: itemOf(providerId).current_period_end });
    expect((stripe.prices.get((phases[1]!.items as Obj[])[0]!.price as string) as Obj).unit_amount).toBe(14900);
    expect(stripe.apiCalls("POST", `/v1/subscriptions/${providerId}`).filter((r) => r.form["items[0][price]"])).toEqual(
      [],
    );

    const upAt = days(t0, 15);
    stripe.clock = () => upAt.getTime();
    const up = await ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "staff:1" }, upAt);
    expect(up).toMatchObject({ planType: "premium", scheduledPlanType: null, monthlyAmount: 799 });
    expect(stripe.schedules.get(scheduleId)).toMatchObject({ status: "released" });
    const item = itemOf(providerId);
    const [start, end] = [item.current_period_start as number, item.current_period_end as number];
    // Stripe's two proration lines: the remaining time at Premium, less the unused time at Standard.
    const share = (cents: number) => proration(cents, start, end, Math.floor(upAt.getTime() / 1000));
    const expected = share(79900) - share(37000);
    const invoices = [...stripe.invoices.values()].filter(
      (i) =>
        i.billing_reason === "subscription_update" &&
        ((i.parent as Obj).subscription_details as Obj).subscription === providerId,
    );
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.subtotal).toBe(expected);
    const events = (await ctx.container.subscriptions.detail(id)).events.map((e) => e.kind);
    expect(events).toContain("plan_change_undone");
    // The next period bills Premium: the released schedule changes nothing more.
    const renewal = stripe.advancePeriod(providerId).invoice!;
    expect(((renewal.lines as { data: Obj[] }).data[0] as Obj).amount).toBe(79900);
  });

  it("a downgrade takes effect when the period ends: Stripe's schedule bills the lower price, the webhook moves Haven's plan", async () => {
    const t0 = at("2026-05-05T15:00:00Z");
    stripe.clock = () => t0.getTime();
    const id = await stripeSubscription(ctx, stripe, "later@example.com", "premium");
    const providerId = await providerIdOf(id);
    await ctx.container.subscriptions.changePlan(id, { planType: "standard", actor: "customer" }, days(t0, 3));
    const { subscription, invoice } = stripe.advancePeriod(providerId);
    expect(((invoice!.lines as { data: Obj[] }).data[0] as Obj).amount).toBe(37000);
    await deliver(ctx, "customer.subscription.updated", subscription);
    expect(await ctx.container.subscriptions.get(id)).toMatchObject({
      planType: "standard",
      scheduledPlanType: null,
      monthlyAmount: 370,
    });
    // Its one month done, the schedule releases the subscription at Standard.
    stripe.advancePeriod(providerId);
    expect(stripe.subscription(providerId).schedule).toBeNull();
    expect((itemOf(providerId).price as Obj).unit_amount).toBe(37000);
  });

  it("a cancellation while a downgrade waits: the plan ending first drops the downgrade (its schedule released); one coming later is a 409", async () => {
    const t0 = at("2025-06-10T15:00:00Z");
    stripe.clock = () => t0.getTime();
    const id = await stripeSubscription(ctx, stripe, "both-ways@example.com", "standard");
    const providerId = await providerIdOf(id);
    // Inside the minimum the cancellation would come after the downgrade: refused, nothing changed.
    await ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, days(t0, 2));
    await expect(
      ctx.container.subscriptions.cancel(id, { when: "period_end", actor: "customer" }, days(t0, 3)),
    ).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/take it back first/) });
    expect(stripe.subscription(providerId).cancel_at).toBeNull();
    // Past the minimum, a cancellation at the period's end comes with the downgrade: the plan ends instead.
    await ctx.container.subscriptions.changePlan(id, { planType: "standard", actor: "customer" }, days(t0, 3));
    for (let i = 0; i < 3; i++)
      await deliver(ctx, "customer.subscription.updated", stripe.advancePeriod(providerId).subscription);
    const now = days(new Date((itemOf(providerId).current_period_start as number) * 1000), 2);
    await ctx.container.subscriptions.changePlan(id, { planType: "basic", actor: "customer" }, now);
    const scheduleId = stripe.subscription(providerId).schedule as string;
    const canceled = await ctx.container.subscriptions.cancel(id, { when: "period_end", actor: "customer" }, now);
    expect(canceled).toMatchObject({ planType: "standard", scheduledPlanType: null });
    expect(canceled.cancelAt).toBe(new Date((itemOf(providerId).current_period_end as number) * 1000).toISOString());
    expect(stripe.schedules.get(scheduleId)).toMatchObject({ status: "released" });
    expect(stripe.subscription(providerId).cancel_at).toBe(itemOf(providerId).current_period_end);
  });

  for (const [label, signUp] of [
    ["the 30th", "2026-01-31T02:00:00Z"], // 21:00 on Jan 30 in Toronto
    ["the 31st", "2026-04-01T01:00:00Z"], // 21:00 on Mar 31 in Toronto
  ] as const) {
    it(`an evening sign-up (21:00 Toronto on ${label}) that cancels inside the minimum ends with Stripe's third period, never billed a fourth`, async () => {
      stripe.clock = () => at(signUp).getTime();
      const id = await stripeSubscription(ctx, stripe, `evening-${label.slice(4, 6)}@example.com`, "basic");
      const providerId = await providerIdOf(id);
      const anchor = seconds(signUp);
      const thirdPeriodEnd = new Date(monthsFrom(anchor, 3) * 1000);
      const sub = await ctx.container.subscriptions.get(id);
      expect(sub.minimumTermEndsAt).toBe(thirdPeriodEnd.toISOString());
      const canceled = await ctx.container.subscriptions.cancel(
        id,
        { when: "period_end", actor: "customer" },
        days(at(signUp), 5),
      );
      expect(canceled.cancelAt).toBe(thirdPeriodEnd.toISOString());
      expect(stripe.subscription(providerId).cancel_at).toBe(monthsFrom(anchor, 3));
      const ends: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { subscription } = stripe.advancePeriod(providerId);
        ends.push(itemOf(providerId).current_period_end as number);
        if (subscription.status === "canceled") break;
      }
      // Stripe's months count from the anchor (Jan 31 → Feb 28 → Mar 31): three invoices, then the end.
      expect(ends.slice(0, 2)).toEqual([monthsFrom(anchor, 2), monthsFrom(anchor, 3)]);
      expect(stripe.subscription(providerId).status).toBe("canceled");
      const billed = [...stripe.invoices.values()].filter(
        (i) => ((i.parent as Obj).subscription_details as Obj).subscription === providerId,
      );
      expect(billed).toHaveLength(3);
    });
  }

  it("Stripe's figures are stored as Stripe gives them: subtotal, each tax with its rate (total_taxes and the Tax Rate), total", async () => {
    stripe.clock = () => Date.now();
    const client = createStripeClient(STAND_IN_KEYS.STRIPE_SECRET_KEY, stripe.url);
    const hst = await client.taxRates.create({ display_name: "HST", percentage: 13, inclusive: false, country: "CA" });
    const plan = await ctx.container.plans.get("standard");
    const price = await ctx.container.stripe!.billing.priceFor(plan, 37000);
    const customer = await client.customers.create({ email: "taxed@example.com", name: "Tax Payer" });
    stripe.updateCustomerCard(customer.id);
    const created = await client.subscriptions.create({
      customer: customer.id,
      items: [{ price }],
      default_tax_rates: [hst.id],
      metadata: { plan: "standard", price_list: "pricing", postal_code: "K1N 5W8" },
    });
    await deliver(ctx, "customer.subscription.created", stripe.subscription(created.id));
    const invoice = await ctx
      .db("invoices")
      .where({ provider_invoice_id: stripe.subscription(created.id).latest_invoice })
      .first();
    expect(invoice).toMatchObject({ status: "paid", amount_cents: 41810, subtotal_cents: 37000, tax_cents: 4810 });
    expect(invoice.tax_lines).toEqual([{ kind: "HST", label: "HST 13%", percent: 13, amountCents: 4810 }]);
    expect(invoice.hosted_invoice_url).toMatch(/\/hosted\/in_/);
  });

  it("the price list is the subscription's own: a /checkout subscription's upgrade bills /checkout's price", async () => {
    const id = await stripeSubscription(ctx, stripe, "list@example.com", "basic", { price_list: "checkout" });
    expect(await ctx.db("subscriptions").where({ id }).first()).toMatchObject({
      price_list: "checkout",
      tax_postal_code: "K1N 5W8",
      tax_province: "ON",
      monthly_amount_cents: 19400,
    });
    const up = await ctx.container.subscriptions.changePlan(id, { planType: "premium", actor: "staff:1" });
    expect(up.monthlyAmount).toBe(889);
  });

  it("a 3-D Secure renewal: the e-mail carries Stripe's hosted invoice page (stored), no 'payment failed' e-mail; confirmed, it is paid", async () => {
    stripe.clock = () => Date.now();
    const id = await stripeSubscription(ctx, stripe, "sca@example.com", "standard");
    const providerId = await providerIdOf(id);
    const { subscription, invoice } = stripe.advancePeriod(providerId, { requiresAction: true });
    await deliver(ctx, "invoice.payment_action_required", invoice!);
    await deliver(ctx, "invoice.payment_failed", invoice!);
    await deliver(ctx, "customer.subscription.updated", subscription);
    const row = await ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first();
    expect(row).toMatchObject({ status: "open", hosted_invoice_url: invoice!.hosted_invoice_url });
    const mails = (await queuedMails(ctx)).filter((m) => m.to === "sca@example.com");
    const asks = mails.filter((m) => /confirm your Haven payment/.test(m.subject));
    expect(asks).toHaveLength(1);
    expect(asks[0]!.text).toContain(invoice!.hosted_invoice_url as string);
    expect(mails.filter((m) => /payment failed/.test(m.subject))).toHaveLength(0);
    expect((await ctx.container.subscriptions.get(id)).status).toBe("past_due");

    const paid = stripe.confirmInvoice(invoice!.id as string);
    await deliver(ctx, "invoice.paid", paid);
    expect((await ctx.container.subscriptions.get(id)).status).toBe("active");
    expect((await ctx.db("invoices").where({ provider_invoice_id: invoice!.id }).first()).status).toBe("paid");
  });

  it("unpaid (Stripe's retries ended 'mark unpaid') is recovered from the billing link's card flow, which applies the new card on return", async () => {
    stripe.clock = () => Date.now();
    stripe.retriesEnd = "unpaid";
    try {
      const id = await stripeSubscription(ctx, stripe, "unpaid@example.com", "basic");
      const providerId = await providerIdOf(id);
      const failed = stripe.failRenewal(providerId);
      await deliver(ctx, "invoice.payment_failed", failed);
      const { subscription } = stripe.advancePeriod(providerId);
      await deliver(ctx, "customer.subscription.updated", subscription);
      expect((await ctx.container.subscriptions.get(id)).status).toBe("unpaid");
      const stopped = (await queuedMails(ctx)).filter(
        (m) => m.to === "unpaid@example.com" && /stopped/.test(m.subject),
      );
      expect(stopped).toHaveLength(1);
      expect(stopped[0]!.text).toContain("update your card");

      const token = signBillingToken(id, ctx.env.SESSION_SECRET);
      const toPortal = await ctx.agent().get(`/billing/${token}/card`).expect(303);
      expect(toPortal.headers.location).toMatch(/\/portal\/bps_/);
      const session = [...stripe.portalSessions.values()].at(-1)!;
      expect(session.return_url).toMatch(new RegExp(`/billing/${token.replace(/\./g, "\\.")}/card/return$`));
      stripe.updateCustomerCard(stripe.subscription(providerId).customer as string);
      const back = await ctx.agent().get(`/billing/${token}/card/return`).expect(303);
      expect(back.headers.location).toBe(`/billing/${token}?done=card`);
      expect((await ctx.container.subscriptions.get(id)).status).toBe("active");
      expect((await ctx.db("invoices").where({ provider_invoice_id: failed.id }).first()).status).toBe("paid");
      const kinds = (await ctx.container.subscriptions.detail(id)).events.map((e) => e.kind);
      expect(kinds).toContain("payment_recovered");
    } finally {
      stripe.retriesEnd = "canceled";
    }
  });
});
