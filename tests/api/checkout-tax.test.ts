import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStripeSite, openStripeSite } from "../support/subscriptions.js";
import { type TestContext, createTestContext } from "../support/context.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";

// docs/decisions.md#32: prices before tax, the tax of the home's province shown before every pay button and charged
// with it; /checkout makes nothing (here or at Stripe) until the customer submits, and is limited per address.

const POSTAL_CODE_MESSAGE = "Enter a valid postal code, like K1S 2B4";
const OTTAWA = "K1S 2B4";
const card = {
  name: "Olive Ottawa",
  email: "olive@example.com",
  cardNumber: "4242424242424242",
  expiry: "12 / 39",
  cvc: "123",
};

const count = async (ctx: TestContext, table: string) => Number((await ctx.db(table).count({ n: "*" }))[0]!.n);

describe("tax at checkout, demo mode", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Trusting the loopback proxy lets each request name its client address (X-Forwarded-For): the limit is per address.
    ctx = await createTestContext({ TRUST_PROXY: "loopback" });
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx?.close());

  it("quotes a Standard subscriber in Ottawa $412.00 + HST $53.56 = $465.56, and writes nothing", async () => {
    const before = await count(ctx, "payments");
    const { body } = await ctx.agent().get(`/api/checkout/quote?plan=standard&postalCode=k1s2b4`).expect(200);
    expect(body).toEqual({
      plan: "standard",
      priceList: "checkout",
      postalCode: OTTAWA,
      province: "ON",
      subtotalCents: 41_200,
      lines: [{ label: "HST 13%", amountCents: 5356 }],
      taxCents: 5356,
      totalCents: 46_556,
    });
    // /pricing's price list, a Quebec home: GST and QST as two lines.
    const quebec = await ctx.agent().get("/api/checkout/quote?plan=standard&priceList=pricing&postalCode=H2X 1Y4");
    expect(quebec.body).toMatchObject({
      province: "QC",
      subtotalCents: 37_000,
      lines: [
        { label: "GST 5%", amountCents: 1850 },
        { label: "QST 9.975%", amountCents: 3691 },
      ],
      totalCents: 42_541,
    });
    // No postal code yet: the business's province (BUSINESS_PROVINCE, ON by default).
    expect((await ctx.agent().get("/api/checkout/quote?plan=basic").expect(200)).body).toMatchObject({
      postalCode: null,
      province: "ON",
      totalCents: 21_922,
    });
    // Opening the payment page makes nothing either.
    await ctx.agent().get("/checkout?plan=standard").expect(200);
    expect(await count(ctx, "payments")).toBe(before);
  });

  it("refuses a postal code that names no province, field by field, and writes nothing", async () => {
    const before = await count(ctx, "payments");
    for (const postalCode of ["D1A 1A1", "12345", "K1S", ""]) {
      const quote = await ctx.agent().get(`/api/checkout/quote?plan=standard&postalCode=${postalCode}`).expect(400);
      expect(quote.body.fields, postalCode).toEqual({ postalCode: POSTAL_CODE_MESSAGE });
      const intent = await ctx
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 412, plan: "standard", postalCode, email: card.email })
        .expect(400);
      expect(intent.body.fields, postalCode).toEqual({ postalCode: POSTAL_CODE_MESSAGE });
      const session = await ctx
        .agent()
        .post("/api/create-checkout-session")
        .send({ planType: "standard", postalCode })
        .expect(400);
      expect(session.body.fields, postalCode).toEqual({ postalCode: POSTAL_CODE_MESSAGE });
    }
    expect(await count(ctx, "payments")).toBe(before);
  });

  it("/checkout's submit charges the total with tax, keeps the postal code, and verify-payment hands it to intake", async () => {
    const browser = ctx.agent();
    const { body } = await browser
      .post("/api/create-payment-intent")
      .set("X-Forwarded-For", "198.51.100.20")
      .send({ amount: 412, plan: "standard", postalCode: "k1s-2b4", email: card.email, name: card.name })
      .expect(200);
    const id = String(body.clientSecret).split("_secret_")[0]!;
    expect(await ctx.db("payments").where({ provider_id: id }).first()).toMatchObject({
      kind: "payment_intent",
      status: "pending",
      amount_cents: 46_556,
      subtotal_cents: 41_200,
      postal_code: OTTAWA,
      customer_email: card.email,
    });
    await browser
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: body.clientSecret })
      .expect(200);
    // The subscription bills the price before tax each month; the payment was the total.
    const subscription = await ctx.db("subscriptions").where({ checkout_ref: id }).first();
    expect(subscription).toMatchObject({
      monthly_amount_cents: 41_200,
      plan_type: "standard",
      price_list: "checkout",
      tax_postal_code: OTTAWA,
      tax_province: "ON",
    });
    // Its first invoice is the payment: the total with Ontario's HST.
    expect(await ctx.db("invoices").where({ subscription_id: subscription.id })).toMatchObject([
      { status: "paid", amount_cents: 46_556, subtotal_cents: 41_200, tax_cents: 5356, tax_province: "ON" },
    ]);
    const verified = await browser.get(`/api/verify-payment?session_id=${id}`).expect(200);
    expect(verified.body).toEqual({
      success: true,
      customer: { email: card.email, name: card.name },
      postalCode: OTTAWA,
      province: "ON",
    });
    // Revenue counts the price before tax (docs/decisions.md#32).
    const paid = await ctx.db("payments").where({ provider_id: id, status: "succeeded" }).first();
    expect(paid.subtotal_cents).toBe(41_200);
  });

  it("the /pricing journey's demo hosted checkout shows the subtotal, the tax and the total before its pay button", async () => {
    const { body } = await ctx
      .agent()
      .post("/api/create-checkout-session")
      .send({ planType: "standard", postalCode: OTTAWA })
      .expect(200);
    const sessionId = String(body.url).split("/").at(-1)!;
    expect(await ctx.db("payments").where({ provider_id: sessionId }).first()).toMatchObject({
      amount_cents: 41_810,
      subtotal_cents: 37_000,
      postal_code: OTTAWA,
    });
    const page = await ctx.agent().get(body.url).expect(200);
    const text = page.text.replace(/\s+/g, " ");
    expect(text).toMatch(/data-testid="summary-subtotal">\$370\.00</);
    expect(text).toMatch(/HST 13%<\/dt> ?<dd[^>]*>\$48\.10</);
    expect(text).toMatch(/data-testid="summary-total">\$418\.10</);
    expect(text.indexOf("summary-total")).toBeLessThan(text.indexOf('data-island="checkout/PaymentForm"'));
  });

  it("in French, the demo hosted checkout of a home in Montréal says 370,00 $ + TPS 18,50 $ + TVQ 36,91 $ = 425,41 $", async () => {
    const { body } = await ctx
      .agent()
      .post("/api/create-checkout-session")
      .send({ planType: "standard", postalCode: "H2X 1Y4" })
      .expect(200);
    const page = await ctx.agent().get(`/fr${body.url}`).expect(200);
    // Every kind of space as one: French puts non-breaking ones before $ and %.
    const text = page.text.replace(/\s+/g, " ");
    expect(text).toContain('<html lang="fr-CA">');
    expect(text).toMatch(/data-testid="summary-subtotal">370,00 \$</);
    expect(text).toMatch(/TPS 5 %<\/dt> ?<dd[^>]*>18,50 \$</);
    expect(text).toMatch(/TVQ 9,975 %<\/dt> ?<dd[^>]*>36,91 \$</);
    expect(text).toMatch(/data-testid="summary-total">425,41 \$</);
    expect(text).toContain("Taxes d&#39;une propriété au Québec (H2X 1Y4)");
    // The card form goes on to the French intake page, as Stripe's success_url does in French.
    expect(text).toContain("/fr/property-intake?session_id=");
  });

  it("limits /checkout's submits per client address: a clear 429 past twenty in 15 minutes, which writes nothing", async () => {
    const submit = (address: string) =>
      ctx
        .agent()
        .post("/api/create-payment-intent")
        .set("X-Forwarded-For", address)
        .send({ amount: 194, plan: "basic", postalCode: OTTAWA, email: "limit@example.com" });
    for (let i = 0; i < 20; i++) await submit("203.0.113.9").expect(200);
    const before = await count(ctx, "payments");
    const refused = await submit("203.0.113.9").expect(429);
    expect(refused.body.message).toMatch(
      /^Too many payment attempts from your network\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await count(ctx, "payments")).toBe(before);
    // Another address is not held up.
    await submit("203.0.113.10").expect(200);
  });
});

describe("a business not registered for GST/HST (BUSINESS_TAX_REGISTERED=false)", () => {
  it("charges no tax: the quote has no tax line and the payment is the price", async () => {
    const ctx = await createTestContext({ BUSINESS_TAX_REGISTERED: "false" });
    try {
      await ctx.container.plans.seed();
      const { body } = await ctx.agent().get(`/api/checkout/quote?plan=standard&postalCode=${OTTAWA}`).expect(200);
      expect(body).toMatchObject({ subtotalCents: 41_200, lines: [], taxCents: 0, totalCents: 41_200 });
      const intent = await ctx
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 412, plan: "standard", postalCode: OTTAWA, email: card.email })
        .expect(200);
      expect(await ctx.db("payments").where({ client_secret: intent.body.clientSecret }).first()).toMatchObject({
        amount_cents: 41_200,
        subtotal_cents: 41_200,
      });
    } finally {
      await ctx.close();
    }
  });
});

describe("tax at checkout, Stripe mode (real SDK against the local stand-in)", () => {
  let stripe: StripeStandIn;
  let ctx: TestContext;
  beforeAll(async () => {
    ({ ctx, stripe } = await openStripeSite());
  });
  afterAll(() => closeStripeSite({ ctx, stripe }));

  it("opening /checkout makes nothing at Stripe; the submit makes the customer with the e-mail and a subscription taxed with Ontario's HST", async () => {
    await ctx.agent().get("/checkout?plan=standard").expect(200);
    await ctx.agent().get(`/api/checkout/quote?plan=standard&postalCode=${OTTAWA}`).expect(200);
    expect(stripe.apiCalls("POST", /^\/v1\/(customers|subscriptions|tax_rates)$/)).toEqual([]);

    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 412, plan: "standard", postalCode: OTTAWA, email: "olive@example.com", name: "Olive Ottawa" })
      .expect(200);
    const [customerCall] = stripe.apiCalls("POST", "/v1/customers");
    expect(customerCall!.form).toMatchObject({
      email: "olive@example.com",
      name: "Olive Ottawa",
      "metadata[postal_code]": OTTAWA,
      "metadata[price_list]": "checkout",
    });
    const [rate] = [...stripe.taxRates.values()];
    expect(rate).toMatchObject({
      inclusive: false,
      percentage: 13,
      display_name: "HST",
      country: "CA",
      state: "ON",
      metadata: { haven_tax: "ON-HST-13-2010-07-01" },
    });
    const [subscriptionCall] = stripe.apiCalls("POST", "/v1/subscriptions");
    expect(subscriptionCall!.form).toMatchObject({
      "default_tax_rates[0]": rate!.id,
      "metadata[plan]": "standard",
      "metadata[postal_code]": OTTAWA,
      "metadata[price_list]": "checkout",
      payment_behavior: "default_incomplete",
    });
    const intentId = String(body.clientSecret).split("_secret_")[0]!;
    // The Payment Element confirms $465.56: $412.00 + HST $53.56.
    expect(stripe.intents.get(intentId)).toMatchObject({ amount: 46_556, currency: "cad" });
    stripe.succeedIntent(intentId, "olive@example.com");
    const verified = await ctx.agent().get(`/api/verify-payment?session_id=${intentId}`).expect(200);
    expect(verified.body).toMatchObject({ success: true, postalCode: OTTAWA });
    // Subscriptions reads the metadata back: the home's postal code and the price list are stored.
    expect(await ctx.db("subscriptions").where({ checkout_ref: intentId }).first()).toMatchObject({
      price_list: "checkout",
      tax_postal_code: OTTAWA,
      monthly_amount_cents: 41_200,
    });
  });

  it("finds its Tax Rate objects again by metadata: created once, never twice, even by a new process", async () => {
    await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 194, plan: "basic", postalCode: "K2P 1L5", email: "second@example.com" })
      .expect(200);
    const other = await createTestContext(stripe.env());
    try {
      await other.container.plans.seed();
      await other
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 194, plan: "basic", postalCode: "K2P 1L5", email: "third@example.com" })
        .expect(200);
    } finally {
      await other.close();
    }
    expect(stripe.apiCalls("POST", "/v1/tax_rates")).toHaveLength(1);
    const rateIds = stripe.apiCalls("POST", "/v1/subscriptions").map((call) => call.form["default_tax_rates[0]"]);
    expect(new Set(rateIds).size).toBe(1);
  });

  it("a /pricing Checkout Session carries the home's rates on its line, and metadata postal_code and price_list", async () => {
    const { body } = await ctx
      .agent()
      .post("/api/create-checkout-session")
      .send({ planType: "standard", postalCode: "h2x1y4" })
      .expect(200);
    const [call] = stripe.apiCalls("POST", "/v1/checkout/sessions").slice(-1);
    const quebec = [...stripe.taxRates.values()].filter((r) =>
      (r.metadata as Record<string, string>).haven_tax?.startsWith("QC-"),
    );
    expect(quebec.map((r) => (r.metadata as Record<string, string>).haven_tax).sort()).toEqual([
      "QC-GST-5-2008-01-01",
      "QC-QST-9.975-2013-01-01",
    ]);
    expect(call!.form).toMatchObject({
      "metadata[postal_code]": "H2X 1Y4",
      "metadata[price_list]": "pricing",
      "subscription_data[metadata][postal_code]": "H2X 1Y4",
      "subscription_data[metadata][price_list]": "pricing",
    });
    expect([call!.form["line_items[0][tax_rates][0]"], call!.form["line_items[0][tax_rates][1]"]].sort()).toEqual(
      quebec.map((r) => r.id).sort(),
    );
    // Stripe's page shows $370.00 + GST $18.50 + QST $36.91 = $425.41 before Pay.
    const session = stripe.sessions.get(String(body.url).split("/").at(-1)!)!;
    expect(session.amount_total).toBe(42_541);
  });

  it("with STRIPE_AUTOMATIC_TAX=true, Stripe Tax computes the tax: no Tax Rate objects, the home's postal code on the customer", async () => {
    const auto = await createTestContext({ ...stripe.env(), STRIPE_AUTOMATIC_TAX: "true" });
    try {
      await auto.container.plans.seed();
      const rates = stripe.apiCalls("POST", "/v1/tax_rates").length;
      await auto
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 412, plan: "standard", postalCode: OTTAWA, email: "auto@example.com" })
        .expect(200);
      const [customer] = stripe.apiCalls("POST", "/v1/customers").slice(-1);
      expect(customer!.form).toMatchObject({ "address[country]": "CA", "address[postal_code]": OTTAWA });
      const [subscription] = stripe.apiCalls("POST", "/v1/subscriptions").slice(-1);
      expect(subscription!.form).toMatchObject({ "automatic_tax[enabled]": "true" });
      expect(subscription!.form["default_tax_rates[0]"]).toBeUndefined();
      await auto
        .agent()
        .post("/api/create-checkout-session")
        .send({ planType: "basic", postalCode: OTTAWA })
        .expect(200);
      const [session] = stripe.apiCalls("POST", "/v1/checkout/sessions").slice(-1);
      expect(session!.form).toMatchObject({ "automatic_tax[enabled]": "true", billing_address_collection: "required" });
      expect(session!.form["line_items[0][tax_rates][0]"]).toBeUndefined();
      expect(stripe.apiCalls("POST", "/v1/tax_rates")).toHaveLength(rates);
    } finally {
      await auto.close();
    }
  });
});
