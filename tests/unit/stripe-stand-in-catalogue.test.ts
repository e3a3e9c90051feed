// The stand-in against Stripe's API reference for the catalogue, checkout, one-time payment and billing-portal calls
// Haven makes (src/modules/payments/payment-providers.ts, stripe-tax-rates.ts, src/modules/quotes/quote-payments.ts,
// src/modules/subscriptions/stripe-billing.ts). Each test quotes the reference (docs.stripe.com/api, also in the
// stripe SDK's types) and checks the stand-in does that.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Conformance, conformance, monthly } from "../support/stripe-conformance.js";

let c: Conformance;
beforeAll(async () => {
  c = await conformance();
});
afterAll(() => c.standIn.close());

describe("prices.list and prices.create", () => {
  it('lookup_keys finds a Price again; "transfer_lookup_key: If set to true, will atomically remove the lookup key from the existing price, and assign it to this price"', async () => {
    const key = "haven_standard_monthly_37000";
    const first = await c.stripe.prices.create({
      currency: "cad",
      unit_amount: 37000,
      recurring: { interval: "month" },
      lookup_key: key,
      product_data: { name: "Haven Standard Plan" },
    });
    await expect(
      c.stripe.prices.create({ currency: "cad", unit_amount: 37000, lookup_key: key, product_data: { name: "Again" } }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect((await c.stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 })).data[0]!.id).toBe(first.id);
    const second = await c.stripe.prices.create({
      currency: "cad",
      unit_amount: 37000,
      recurring: { interval: "month" },
      lookup_key: key,
      transfer_lookup_key: true,
      product_data: { name: "Haven Standard Plan" },
    });
    expect((await c.stripe.prices.list({ lookup_keys: [key], limit: 1 })).data[0]!.id).toBe(second.id);
  });
});

describe("taxRates.create, taxRates.list and taxRates.retrieve", () => {
  it("an exclusive rate is kept as given and found again by its metadata", async () => {
    const made = await c.stripe.taxRates.create({
      display_name: "HST",
      percentage: 13,
      inclusive: false,
      country: "CA",
      state: "ON",
      jurisdiction: "ON",
      tax_type: "hst",
      metadata: { haven_tax: "ON-HST-13-2010-07-01" },
    });
    expect(await c.stripe.taxRates.retrieve(made.id)).toMatchObject({ percentage: 13, inclusive: false, state: "ON" });
    const found = [];
    for await (const rate of c.stripe.taxRates.list({ active: true, limit: 100 }))
      if (rate.metadata?.haven_tax === "ON-HST-13-2010-07-01") found.push(rate.id);
    expect(found).toEqual([made.id]);
    await expect(c.stripe.taxRates.create({ display_name: "X" } as never)).rejects.toMatchObject({ statusCode: 400 });
  });
});

describe("customers.create", () => {
  it("keeps the e-mail, name and metadata; no default card until one is set", async () => {
    const customer = await c.stripe.customers.create({
      email: "a@example.com",
      name: "A",
      metadata: { plan: "basic" },
    });
    expect(customer).toMatchObject({ email: "a@example.com", name: "A", metadata: { plan: "basic" } });
    expect(customer.invoice_settings.default_payment_method).toBeNull();
  });
});

describe("checkout.sessions.create and checkout.sessions.retrieve", () => {
  it("subscription mode needs \"at least one recurring price\"; the line's tax_rates are in amount_total and go on the subscription's item", async () => {
    const once = (await c.stripe.prices.create({ currency: "cad", unit_amount: 500, product_data: { name: "One" } }))
      .id;
    await expect(
      c.stripe.checkout.sessions.create({ mode: "subscription", line_items: [{ price: once, quantity: 1 }] }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const price = await monthly(c.stripe, 37000);
    const session = await c.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price, quantity: 1, tax_rates: [c.rates.hst] }],
      success_url: "http://haven.test/property-intake?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://haven.test/pricing",
      subscription_data: { metadata: { plan: "standard" } },
    });
    expect(session).toMatchObject({ amount_subtotal: 37000, amount_total: 41810, total_details: { amount_tax: 4810 } });
    c.standIn.pay(session.id);
    const read = await c.stripe.checkout.sessions.retrieve(session.id);
    expect(read).toMatchObject({ status: "complete", payment_status: "paid" });
    const sub = c.standIn.subscription(read.subscription as string);
    expect(sub.metadata).toEqual({ plan: "standard" });
    const item = (sub.items as { data: { tax_rates: { id: string }[] }[] }).data[0]!;
    expect(item.tax_rates.map((r) => r.id)).toEqual([c.rates.hst]);
  });
});

describe("paymentIntents.create and paymentIntents.retrieve", () => {
  it("a one-time intent waits for a payment method; its client secret names it", async () => {
    const intent = await c.stripe.paymentIntents.create({ amount: 56500, currency: "cad", metadata: { quote: "7" } });
    expect(intent.status).toBe("requires_payment_method");
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
    c.standIn.succeedIntent(intent.id);
    expect(await c.stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
      status: "succeeded",
      amount_received: 56500,
    });
  });
});

describe("billingPortal.configurations and billingPortal.sessions", () => {
  it("a configuration is found again by its metadata; a session needs a known customer and configuration", async () => {
    const configuration = await c.stripe.billingPortal.configurations.create({
      features: {
        invoice_history: { enabled: true },
        payment_method_update: { enabled: true },
        subscription_cancel: { enabled: false },
      },
      metadata: { haven: "portal_without_cancel" },
    });
    const listed = await c.stripe.billingPortal.configurations.list({ active: true, limit: 100 });
    expect(listed.data.find((x) => x.metadata?.haven === "portal_without_cancel")?.id).toBe(configuration.id);
    const customer = await c.stripe.customers.create({ email: "portal@example.com" });
    const session = await c.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: "http://haven.test/my-home",
      configuration: configuration.id,
      flow_data: { type: "payment_method_update" },
    });
    expect(session.url).toMatch(/\/portal\/bps_/);
    await expect(
      c.stripe.billingPortal.sessions.create({ customer: customer.id, configuration: "bpc_missing" }),
    ).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe("paymentIntents.create with confirm and off_session (a home's tax owed, src/modules/subscriptions/home-tax.ts)", () => {
  it('"confirm: Set to true to attempt to confirm this PaymentIntent immediately"; a declined card is a card error', async () => {
    const customer = await c.stripe.customers.create({ email: "owed@example.com" });
    const params = {
      amount: 3296,
      currency: "cad",
      customer: customer.id,
      payment_method: "pm_card_owed",
      off_session: true,
      confirm: true,
    };
    const paid = await c.stripe.paymentIntents.create(params);
    expect(paid).toMatchObject({ status: "succeeded", amount_received: 3296, customer: customer.id });
    c.standIn.failingCards.add("pm_card_failing");
    await expect(
      c.stripe.paymentIntents.create({ ...params, payment_method: "pm_card_failing" }),
    ).rejects.toMatchObject({
      statusCode: 402,
      type: "StripeCardError",
      code: "card_declined",
    });
  });
});
