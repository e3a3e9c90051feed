// The stand-in against Stripe's API reference for the Subscription Schedule calls Haven makes to downgrade at the
// period's end (src/modules/subscriptions/stripe-billing.ts). Each test quotes the reference (docs.stripe.com/api/
// subscription_schedules, also in the stripe SDK's types) and checks the stand-in does that, the unkind parts
// included: an update's phases replace the schedule's, each with only the tax rates it is given.
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly, subscribed, taxRatesOf } from "../support/stripe-conformance.js";

type Obj = Record<string, unknown>;
let c: Conformance;
let standard: string;
let basic: string;
beforeAll(async () => {
  c = await conformance();
  standard = await monthly(c.stripe, 37000);
  basic = await monthly(c.stripe, 14900);
});
afterAll(() => c.standIn.close());

/** A downgrade at the period's end as a schedule: the current phase, then a month of `basic`. */
async function downgrade(
  subscription: Stripe.Subscription,
  taxes: { item?: string[]; defaults?: string[] },
  options: { metadata?: Record<string, string> } = {},
) {
  const schedule = await c.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
  const item = subscription.items.data[0]!;
  const tax = {
    ...(taxes.defaults ? { default_tax_rates: taxes.defaults } : {}),
  };
  const itemTax = taxes.item ? { tax_rates: taxes.item } : {};
  return c.stripe.subscriptionSchedules.update(schedule.id, {
    end_behavior: "release",
    proration_behavior: "none",
    phases: [
      {
        items: [{ price: standard, quantity: 1, ...itemTax }],
        start_date: schedule.phases[0]!.start_date,
        end_date: item.current_period_end,
        ...tax,
      },
      {
        items: [{ price: basic, quantity: 1, ...itemTax }],
        duration: { interval: "month", interval_count: 1 },
        ...tax,
        ...(options.metadata ? { metadata: options.metadata } : {}),
      },
    ],
  });
}

describe("subscriptionSchedules.create", () => {
  it('from_subscription: "a subscription schedule will be created using the subscription\'s item(s)"; "other parameters (such as phase values) cannot be set"', async () => {
    const { hst } = c.rates;
    const { subscription } = await subscribed(c, standard, { item: [hst] });
    await expect(
      c.stripe.subscriptionSchedules.create({
        from_subscription: subscription.id,
        phases: [{ items: [{ price: basic }] }],
      } as Stripe.SubscriptionScheduleCreateParams),
    ).rejects.toMatchObject({ statusCode: 400 });
    const schedule = await c.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    const phase = schedule.phases[0]!;
    expect(phase.items[0]!.price).toBe(standard);
    expect((phase.items[0]!.tax_rates ?? []).map((r) => r.id)).toEqual([hst]);
    expect(phase.end_date).toBe(subscription.items.data[0]!.current_period_end);
    expect((await c.stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id);
    // retrieve: the same schedule, its current phase the subscription's period.
    const read = await c.stripe.subscriptionSchedules.retrieve(schedule.id);
    expect(read.current_phase).toEqual({ start_date: phase.start_date, end_date: phase.end_date });
  });
});

describe("subscriptionSchedules.update", () => {
  it("phases replace the schedule's: each phase's tax rates \"will set the Subscription's default_tax_rates … for any Invoices issued by the Subscription during this Phase\" — phases sent without them bill no tax", async () => {
    const { hst } = c.rates;
    const { subscription } = await subscribed(c, standard, { defaults: [hst] });
    await downgrade(subscription, {});
    // The current phase applies at once: the subscription has no tax rates left.
    expect((await c.stripe.subscriptions.retrieve(subscription.id)).default_tax_rates).toEqual([]);
    const renewal = c.standIn.advancePeriod(subscription.id).invoice!;
    expect(renewal).toMatchObject({ subtotal: 14900, total: 14900 });
    expect(taxRatesOf(renewal)).toEqual([]);
  });

  it('phases that carry the tax rates keep them: the downgrade\'s renewals, and after the schedule releases the subscription; "These Tax Rates will override the default_tax_rates"', async () => {
    const { hst, gst, qst } = c.rates;
    const ontario = await subscribed(c, standard, { defaults: [hst] });
    await downgrade(ontario.subscription, { defaults: [hst] });
    const quebec = await subscribed(c, standard, { item: [gst, qst] });
    // An item's rates win over the phase's default ones.
    await downgrade(quebec.subscription, { item: [gst, qst], defaults: [hst] });
    for (const [{ subscription }, rates] of [
      [ontario, [hst]],
      [quebec, [gst, qst]],
    ] as const) {
      const first = c.standIn.advancePeriod(subscription.id).invoice!;
      expect(first.subtotal).toBe(14900);
      expect(taxRatesOf(first)).toEqual(rates);
      const released = c.standIn.advancePeriod(subscription.id).invoice!;
      expect(c.standIn.subscription(subscription.id).schedule).toBeNull();
      expect(taxRatesOf(released)).toEqual(rates);
    }
  });

  it("\"Metadata on a schedule's phase will update the underlying subscription's metadata when the phase is entered, adding new keys and replacing existing keys\"", async () => {
    const { subscription } = await subscribed(c, standard);
    await c.stripe.subscriptions.update(subscription.id, { metadata: { postal_code: "K1N 5W8" } });
    await downgrade(subscription, {}, { metadata: { plan: "basic" } });
    expect(c.standIn.subscription(subscription.id).metadata).toEqual({ plan: "standard", postal_code: "K1N 5W8" });
    c.standIn.advancePeriod(subscription.id);
    expect(c.standIn.subscription(subscription.id).metadata).toEqual({ plan: "basic", postal_code: "K1N 5W8" });
  });

  it('the current phase keeps its start date ("You can not modify the start date of the current phase"); a released schedule cannot be updated', async () => {
    const { subscription } = await subscribed(c, standard);
    const schedule = await c.stripe.subscriptionSchedules.create({ from_subscription: subscription.id });
    await expect(
      c.stripe.subscriptionSchedules.update(schedule.id, {
        phases: [
          {
            items: [{ price: basic }],
            start_date: schedule.phases[0]!.start_date + 60,
            duration: { interval: "month" },
          },
        ],
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await c.stripe.subscriptionSchedules.release(schedule.id);
    await expect(c.stripe.subscriptionSchedules.update(schedule.id, { end_behavior: "release" })).rejects.toMatchObject(
      {
        statusCode: 400,
      },
    );
  });
});

describe("subscriptionSchedules.release", () => {
  it('"Releases the subscription schedule immediately, which will stop scheduling of its phases, but leave any existing subscription in place … set the subscription\'s ID to the released_subscription property"', async () => {
    const { hst } = c.rates;
    const { subscription } = await subscribed(c, standard, { defaults: [hst] });
    const schedule = await downgrade(subscription, { defaults: [hst] });
    const released = await c.stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({ status: "released", released_subscription: subscription.id, subscription: null });
    const after = c.standIn.subscription(subscription.id);
    expect(after.schedule).toBeNull();
    const renewal = c.standIn.advancePeriod(subscription.id).invoice!;
    // The downgrade never happens; the subscription bills as the current phase left it.
    expect(renewal.subtotal).toBe(37000);
    expect(taxRatesOf(renewal)).toEqual([hst]);
    // "A schedule can only be released if its status is not_started or active."
    await expect(c.stripe.subscriptionSchedules.release(schedule.id)).rejects.toMatchObject({ statusCode: 400 });
    expect((after.items as { data: Obj[] }).data).toHaveLength(1);
  });
});
