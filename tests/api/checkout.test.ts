import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStripeSite, openStripeSite } from "../support/subscriptions.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { until } from "../support/processes.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";

const paymentRows = (ctx: TestContext) => ctx.db("payments").orderBy("id");

describe("checkout in demo mode (no Stripe keys)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  it("a demo checkout session is Haven's own hosted checkout at the pricing page's price, pending until paid", async () => {
    const prices = { basic: 14900, standard: 37000, premium: 79900 };
    for (const planType of ["basic", "standard", "premium"] as const) {
      const res = await ctx.agent().post("/api/create-checkout-session").send({ planType }).expect(200);
      expect(res.body.url).toMatch(/^\/demo-checkout\/demo_cs_[a-f0-9]{24}$/);
      const [row] = await ctx.db("payments").where({ provider_id: res.body.url.split("/").at(-1) });
      expect(row).toMatchObject({
        provider: "demo",
        kind: "checkout_session",
        plan_type: planType,
        // The total with tax: no postal code names the home, so the business's province (ON, 13 % HST).
        amount_cents: Math.round(prices[planType] * 1.13),
        subtotal_cents: prices[planType],
        postal_code: null,
        currency: "cad",
        status: "pending",
      });
    }
    // Nothing is paid until the card form confirms a payment.
    expect(await ctx.container.payments.totalRevenue()).toBe(0);
  });

  it("the demo hosted checkout: one price from /pricing to the payment, then on to the intake page (docs/decisions.md#23)", async () => {
    const browser = ctx.agent();
    const pricing = await browser.get("/pricing").expect(200);
    expect(pricing.text).toMatch(/data-plan="standard"[\s\S]*?data-plan-price>\$370</);
    const { body } = await browser.post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const sessionId = body.url.split("/").at(-1);
    const page = await browser.get(body.url).expect(200);
    expect(page.headers["cache-control"]).toBe("no-store");
    expect(page.text).toContain('data-testid="summary-price">$370<');
    // No postal code came with it: the business's province's tax, shown before the pay button.
    expect(page.text).toContain('data-testid="summary-total">$418.10<');
    // The other price list's $412 is never shown (a bare "412" may occur inside the page's random ids).
    expect(page.text).not.toMatch(/\$\s*412\b|\b412\.00\b/);
    expect(page.text).toContain('data-island="checkout/PaymentForm"');
    const secret = /(demo_cs_[a-f0-9]+_secret_[a-f0-9]+)/.exec(page.text)![1];
    const card = {
      name: "Morgan Reyes",
      email: "morgan@example.com",
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 39",
      cvc: "123",
    };
    expect(
      (
        await browser
          .post("/api/demo/confirm-payment")
          .send({ ...card, cardNumber: "4000 0000 0000 0002", clientSecret: secret })
          .expect(402)
      ).body.message,
    ).toBe("Your card was declined.");
    const paid = await browser
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: secret })
      .expect(200);
    expect(paid.body).toEqual({ paymentIntentId: sessionId, status: "succeeded" });
    const [row] = await ctx.db("payments").where({ provider_id: sessionId });
    expect(row).toMatchObject({
      kind: "checkout_session",
      plan_type: "standard",
      amount_cents: 41810,
      subtotal_cents: 37000,
      status: "succeeded",
      customer_email: "morgan@example.com",
    });
    // Paid: the session's page sends the browser on, as Stripe's success_url does.
    const again = await browser.get(body.url).expect(303);
    expect(again.headers.location).toBe(`/property-intake?session_id=${sessionId}&plan=standard`);
    await browser.get(again.headers.location!).expect(200);
    const verified = await browser.get(`/api/verify-payment?session_id=${sessionId}`).expect(200);
    expect(verified.body).toEqual({ success: true, customer: { email: "morgan@example.com", name: "Morgan Reyes" } });
    const intake = {
      stripeSessionId: sessionId,
      planType: "standard",
      email: "morgan@example.com",
      name: "Morgan Reyes",
      phone: "613-555-0199",
      property: {
        address: "5 Pine Street",
        city: "Springfield",
        state: "IL",
        zipCode: "62704",
        squareFootage: "1600",
        yearBuilt: "1999",
      },
    };
    const created = await browser.post("/api/customers").send(intake).expect(201);
    expect(await ctx.db("customers").where({ id: created.body.id }).first()).toMatchObject({
      stripe_session_id: sessionId,
      subscription_plan: "standard",
    });
    // Another e-mail than the payer's cannot take the session over.
    await ctx
      .agent()
      .post("/api/customers")
      .send({ ...intake, email: "mallory@example.com" })
      .expect(400);
  });

  it("the demo hosted checkout page is not found for unknown or malformed session ids", async () => {
    for (const id of [
      "demo_cs_ffffffffffffffffffffffff",
      "demo_cs_1",
      "x%27%3B--",
      "demo_pi_ffffffffffffffffffffffff",
    ]) {
      const res = await ctx.agent().get(`/demo-checkout/${id}`).expect(404);
      expect(res.text, id).not.toContain("data-island");
    }
    // A payment intent of /checkout is not a hosted checkout session either.
    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 194, plan: "basic" })
      .expect(200);
    await ctx
      .agent()
      .get(`/demo-checkout/${body.clientSecret.split("_secret_")[0]}`)
      .expect(404);
  });

  it("the demo journey's ids: a confirmed card payment verifies, and its plan reaches the intake link", async () => {
    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 194, plan: "basic" })
      .expect(200);
    const intentId = body.clientSecret.split("_secret_")[0];
    const unpaid = await ctx.agent().get(`/api/verify-payment?session_id=${intentId}`).expect(200);
    expect(unpaid.body.success).toBe(false);
    const card = {
      name: "Demo Payer",
      email: "payer@example.com",
      cardNumber: "4242424242424242",
      expiry: "12 / 39",
      cvc: "123",
    };
    await ctx
      .agent()
      .post("/api/demo/confirm-payment")
      .send({ ...card, clientSecret: body.clientSecret })
      .expect(200);
    const [row] = await ctx.db("payments").where({ provider_id: intentId });
    expect(row).toMatchObject({
      provider: "demo",
      kind: "payment_intent",
      plan_type: "basic",
      amount_cents: 21922,
      subtotal_cents: 19400,
      currency: "cad",
      status: "succeeded",
    });
    const verified = await ctx.agent().get(`/api/verify-payment?session_id=${intentId}`).expect(200);
    expect(verified.body).toEqual({ success: true, customer: { email: "payer@example.com", name: "Demo Payer" } });
    const success = await ctx.agent().get(`/payment-success?plan=basic&payment_intent=${intentId}`).expect(200);
    expect(success.text).toContain(`href="/property-intake?plan=basic&session_id=${intentId}&demo=1"`);
  });

  it("refuses a bad plan and writes nothing", async () => {
    const before = (await paymentRows(ctx)).length;
    const res = await ctx.agent().post("/api/create-checkout-session").send({ planType: "gold" }).expect(400);
    expect(res.body.fields).toEqual({ planType: "Plan must be one of basic, standard, premium" });
    await ctx.agent().post("/api/create-checkout-session").send({}).expect(400);
    expect((await paymentRows(ctx)).length).toBe(before);
  });

  it("verify-payment: unknown ids are unpaid, the spec's fake demo id is accepted, bad ids are 400", async () => {
    const unknown = await ctx
      .agent()
      .get("/api/verify-payment?session_id=demo_cs_ffffffffffffffffffffffff")
      .expect(200);
    expect(unknown.body).toEqual({ success: false, customer: { email: null, name: null } });
    const fake = await ctx.agent().get("/api/verify-payment?session_id=demo_session_abc123def").expect(200);
    expect(fake.body.success).toBe(true);
    const stripeId = await ctx.agent().get("/api/verify-payment?session_id=cs_test_123").expect(200);
    expect(stripeId.body.success).toBe(false);
    const missing = await ctx.agent().get("/api/verify-payment").expect(400);
    expect(missing.body.fields).toEqual({ session_id: "Session id is required" });
    const bad = await ctx.agent().get("/api/verify-payment?session_id=abc%27%3B--").expect(400);
    expect(bad.body.fields).toEqual({ session_id: "Session id is not valid" });
  });

  it("create-payment-intent charges only the server's amount", async () => {
    const before = (await paymentRows(ctx)).length;
    const tampered = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 1, plan: "standard" })
      .expect(400);
    expect(tampered.body).toEqual({
      message: "Amount does not match the plan's price",
      fields: { amount: "Amount must be 412 for the standard plan" },
    });
    // The pricing-page reading is not what checkout charges either.
    await ctx.agent().post("/api/create-payment-intent").send({ amount: 370, plan: "standard" }).expect(400);
    const asText = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: "412", plan: "standard" })
      .expect(400);
    expect(asText.body.fields).toEqual({ amount: "Amount must be a number" });
    const noPlan = await ctx.agent().post("/api/create-payment-intent").send({ amount: 412 }).expect(400);
    expect(noPlan.body.fields).toEqual({ plan: "Plan must be one of basic, standard, premium" });
    expect((await paymentRows(ctx)).length).toBe(before);

    const res = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 412, plan: "standard" })
      .expect(200);
    expect(res.body.clientSecret).toMatch(/^demo_pi_[a-f0-9]+_secret_[a-f0-9]+$/);
    const [row] = await ctx.db("payments").where({ client_secret: res.body.clientSecret });
    expect(row).toMatchObject({
      kind: "payment_intent",
      plan_type: "standard",
      amount_cents: 46556,
      subtotal_cents: 41200,
      status: "pending",
    });
  });

  describe("the demo card confirmation", () => {
    const card = {
      name: "Ada Lovelace",
      email: "ada@example.com",
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 39",
      cvc: "123",
    };
    let clientSecret: string;
    let intentId: string;
    beforeAll(async () => {
      const res = await ctx
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 889, plan: "premium" })
        .expect(200);
      clientSecret = res.body.clientSecret;
      intentId = clientSecret.split("_secret_")[0]!;
    });
    const confirm = (over: Record<string, string>) =>
      ctx
        .agent()
        .post("/api/demo/confirm-payment")
        .send({ ...card, clientSecret, ...over });
    const status = async () => (await ctx.db("payments").where({ provider_id: intentId }).first()).status;

    it("checks Luhn, expiry, CVC and the required fields on the server", async () => {
      expect((await confirm({ cardNumber: "4242 4242 4242 4241" }).expect(400)).body.fields).toEqual({
        cardNumber: "Your card number is invalid.",
      });
      expect((await confirm({ expiry: "01 / 20" }).expect(400)).body.fields).toEqual({
        expiry: "Your card's expiration date is in the past.",
      });
      expect((await confirm({ expiry: "13 / 30" }).expect(400)).body.fields).toEqual({
        expiry: "Enter the expiry date as MM / YY.",
      });
      expect((await confirm({ cvc: "12" }).expect(400)).body.fields).toEqual({
        cvc: "Your card's security code is invalid.",
      });
      const empty = await confirm({ name: "", email: "", cardNumber: "", expiry: "", cvc: "" }).expect(400);
      expect(empty.body.fields).toEqual({
        name: "Name on card is required",
        email: "Email is required",
        cardNumber: "Card number is required",
        expiry: "Expiry date is required",
        cvc: "CVC is required",
      });
      expect(await status()).toBe("pending");
    });

    it("declines the declining test card with the reason and leaves the intent pending", async () => {
      const res = await confirm({ cardNumber: "4000 0000 0000 0002" }).expect(402);
      expect(res.body).toEqual({ message: "Your card was declined." });
      expect(await status()).toBe("pending");
    });

    it("refuses a wrong client secret", async () => {
      await confirm({ clientSecret: `${intentId}_secret_00000000` }).expect(404);
      expect(await status()).toBe("pending");
    });

    it("succeeds once with a good card; a repeat changes nothing", async () => {
      const revenueBefore = await ctx.container.payments.totalRevenue();
      const res = await confirm({}).expect(200);
      expect(res.body).toEqual({ paymentIntentId: intentId, status: "succeeded" });
      await confirm({}).expect(200);
      const row = await ctx.db("payments").where({ provider_id: intentId }).first();
      expect(row).toMatchObject({
        status: "succeeded",
        customer_email: "ada@example.com",
        customer_name: "Ada Lovelace",
      });
      expect(await ctx.container.payments.totalRevenue()).toBe(revenueBefore + 889);
      const verified = await ctx.agent().get(`/api/verify-payment?session_id=${intentId}`).expect(200);
      expect(verified.body).toEqual({ success: true, customer: { email: "ada@example.com", name: "Ada Lovelace" } });
    });
  });

  // A double-click on the pay button: the second confirmation is answered as the first (a 500 from the unique
  // checkout_ref showed an error page for a payment that went through).
  describe("a second confirmation of the same payment", () => {
    const card = {
      name: "Grace Hopper",
      email: "grace@example.com",
      cardNumber: "4242 4242 4242 4242",
      expiry: "12 / 39",
      cvc: "123",
    };
    const confirm = (clientSecret: string) =>
      ctx
        .agent()
        .post("/api/demo/confirm-payment")
        .send({ ...card, clientSecret });
    /** What one purchase left: its payment row, its subscriptions and their invoices. */
    async function recorded(id: string) {
      const payments = await ctx.db("payments").where({ provider_id: id }).select("status", "subscription_id");
      const subscriptions = await ctx.db("subscriptions").where({ checkout_ref: id }).pluck("id");
      const invoices = await ctx
        .db("invoices")
        .whereIn("subscription_id", subscriptions)
        .select("status", "billing_reason");
      return { payments, subscriptions, invoices };
    }
    const oneOfEach = (subscriptionId: unknown) => ({
      payments: [{ status: "succeeded", subscription_id: subscriptionId }],
      subscriptions: [subscriptionId],
      invoices: [{ status: "paid", billing_reason: "subscription_create" }],
    });
    /** Backends of this test's database waiting for a lock. */
    const lockWaits = async () =>
      (
        await ctx.db.raw(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0].n as number;

    it("two at once (/checkout's card form): the same answer twice, one payment, one subscription, one invoice", async () => {
      const { body } = await ctx
        .agent()
        .post("/api/create-payment-intent")
        .send({ amount: 412, plan: "standard" })
        .expect(200);
      const id = body.clientSecret.split("_secret_")[0];
      const [first, second] = await Promise.all([confirm(body.clientSecret), confirm(body.clientSecret)]);
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.body).toEqual({ paymentIntentId: id, status: "succeeded" });
      expect(second.body).toEqual(first.body);
      const { subscriptions } = await recorded(id);
      expect(await recorded(id)).toEqual(oneOfEach(subscriptions[0]));
    });

    it("the second while the first is still starting the subscription (hosted checkout): the same answer, one of each", async () => {
      const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "basic" }).expect(200);
      const id = body.url.split("/").at(-1);
      const { client_secret: secret } = await ctx.db("payments").where({ provider_id: id }).first("client_secret");
      // The first confirmation is held inside its transaction after writing its subscription, before its invoice.
      let locked!: () => void;
      let release!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      const holder = ctx.db.transaction(async (tx) => {
        await tx.raw("lock table invoices in exclusive mode");
        locked();
        await released;
      });
      await isLocked;
      const first = confirm(secret).then((res) => res);
      await until("the first confirmation to wait for the invoices", async () => (await lockWaits()) === 1, 10_000, 10);
      // The second starts now: the payment is settled, the subscription not yet committed.
      const second = confirm(secret).then((res) => res);
      await until("the second confirmation to wait for the first", async () => (await lockWaits()) === 2, 10_000, 10);
      release();
      await holder;
      const [a, b] = await Promise.all([first, second]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body).toEqual({ paymentIntentId: id, status: "succeeded" });
      expect(b.body).toEqual(a.body);
      // A third, later, says the same.
      expect((await confirm(secret).expect(200)).body).toEqual(a.body);
      const { subscriptions } = await recorded(id);
      expect(await recorded(id)).toEqual(oneOfEach(subscriptions[0]));
    });
  });

  it("totalRevenue sums the succeeded payments only", async () => {
    const { rows } = await ctx.db.raw(
      // Revenue is before tax (docs/decisions.md#32).
      "select coalesce(sum(coalesce(subtotal_cents, amount_cents)),0)::int as cents from payments where status = 'succeeded'",
    );
    expect(await ctx.container.payments.totalRevenue()).toBe(rows[0].cents / 100);
    expect(await ctx.container.payments.totalRevenue()).toBeGreaterThan(0);
  });

  it("POST /checkout/start (no script) redirects to the demo hosted checkout, or back to /pricing", async () => {
    const ok = await ctx.agent().post("/checkout/start").type("form").send({ planType: "premium" }).expect(303);
    expect(ok.headers.location).toMatch(/^\/demo-checkout\/demo_cs_[a-f0-9]{24}$/);
    const bad = await ctx.agent().post("/checkout/start").type("form").send({ planType: "x" }).expect(303);
    expect(bad.headers.location).toBe("/pricing?checkout_error=1");
  });

  it("/pricing shows the spec's alert only when a form checkout came back with checkout_error=1", async () => {
    const ALERT = "Error creating checkout session. Please try again.";
    const failed = await ctx.agent().get("/pricing?checkout_error=1").expect(200);
    expect(failed.text).toContain(`role="alert" data-testid="checkout-error">${ALERT}</div>`);
    // The route is not cached: the plain page right after has no alert, and other values show none.
    for (const q of ["", "?checkout_error=0", "?checkout_error=%3Cscript%3E"]) {
      const res = await ctx.agent().get(`/pricing${q}`).expect(200);
      // The sentence is in the page for the plan buttons' own failure (data-failed), never as the alert.
      expect(res.text, q).not.toContain('data-testid="checkout-error"');
      expect(res.text, q).toContain(`data-failed="${ALERT}"`);
      expect(res.text).toContain('data-plan="standard"');
    }
  });

  it("renders the payment page with the server's amount, defaulting to standard", async () => {
    const standard = await ctx.agent().get("/checkout").expect(200);
    expect(standard.text).toContain("Order Summary");
    // The price before tax; the tax and total follow the home's postal code, in the form (docs/decisions.md#32).
    expect(standard.text).toContain('data-testid="summary-price">$412<');
    expect(standard.text).toContain('data-island="checkout/PaymentForm"');
    expect(standard.headers["content-security-policy"]).not.toContain("stripe.com");
    const premium = await ctx.agent().get("/checkout?plan=premium").expect(200);
    expect(premium.text).toContain('data-testid="summary-price">$889<');
    const unknown = await ctx.agent().get("/checkout?plan=gold").expect(302);
    expect(unknown.headers.location).toBe("/pricing");
  });

  it("renders /payment-success with the plan and a link on to the intake page", async () => {
    const res = await ctx.agent().get("/payment-success?plan=basic&payment_intent=demo_pi_abc").expect(200);
    expect(res.text).toContain("Payment Successful!");
    expect(res.text).toContain("Subscription Details");
    expect(res.text).toContain("Next Steps");
    expect(res.text).toContain('href="/property-intake?plan=basic&session_id=demo_pi_abc&demo=1"');
    const failed = await ctx
      .agent()
      .get("/payment-success?plan=basic&payment_intent=pi_1&redirect_status=failed")
      .expect(302);
    expect(failed.headers.location).toBe("/checkout?plan=basic");
  });

  it("/property-intake redirects to /pricing unless (session_id and plan) or (demo and plan)", async () => {
    for (const q of [
      "",
      "?plan=basic",
      "?session_id=cs_1",
      "?demo=1",
      "?session_id=cs_1&plan=gold",
      "?session_id=%3Cx%3E&plan=basic",
    ]) {
      const res = await ctx.agent().get(`/property-intake${q}`).expect(302);
      expect(res.headers.location, q).toBe("/pricing");
    }
    for (const q of ["?session_id=cs_1&plan=basic", "?demo=1&plan=premium"]) {
      const res = await ctx.agent().get(`/property-intake${q}`).expect(200);
      expect(res.text).toContain('data-island="customers/PropertyIntake"');
    }
  });
});

describe("checkout in Stripe mode (real SDK against the local stand-in)", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    ({ ctx, stripe } = await openStripeSite());
  });
  afterAll(() => closeStripeSite({ ctx, stripe }));

  it("creates a subscription-mode Checkout Session with the pricing page's monthly Price, and the spec's URLs", async () => {
    const res = await ctx.agent().post("/api/create-checkout-session").send({ planType: "basic" }).expect(200);
    expect(res.body.url).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    const [call] = stripe.apiCalls("POST", "/v1/checkout/sessions");
    expect(call!.authorization).toBe("Bearer sk_test_stand_in");
    // docs/decisions.md#23: a recurring monthly CAD Price per plan and amount, made once and found again by lookup key.
    const [price] = [...stripe.prices.values()];
    expect(price).toMatchObject({
      lookup_key: "haven_basic_monthly_14900",
      unit_amount: 14900,
      currency: "cad",
      recurring: { interval: "month" },
      metadata: { plan: "basic" },
    });
    expect(call!.form).toMatchObject({
      mode: "subscription",
      "line_items[0][quantity]": "1",
      "line_items[0][price]": price!.id,
      "metadata[plan]": "basic",
      "subscription_data[metadata][plan]": "basic",
    });
    expect(call!.form).not.toHaveProperty("line_items[0][price_data][unit_amount]");
    // A second session for the same plan reuses the Price (cached; a new process finds it by lookup key).
    await ctx.agent().post("/api/create-checkout-session").send({ planType: "basic" }).expect(200);
    expect(stripe.prices.size).toBe(1);
    expect(stripe.apiCalls("POST", "/v1/checkout/sessions").at(-1)!.form["line_items[0][price]"]).toBe(price!.id);
    // From PUBLIC_URL (here its default, http://localhost:3000), never from the request's Host.
    expect(call!.form.success_url).toBe(
      `${ctx.env.PUBLIC_URL}/property-intake?session_id={CHECKOUT_SESSION_ID}&plan=basic`,
    );
    expect(call!.form.cancel_url).toBe(`${ctx.env.PUBLIC_URL}/pricing`);
  });

  it("verify-payment asks Stripe: unpaid is false, paid is true with the customer; the subscription is recorded once, no payments row", async () => {
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "premium" }).expect(200);
    const sessionId = body.url.split("/pay/")[1];
    const unpaid = await ctx.agent().get(`/api/verify-payment?session_id=${sessionId}`).expect(200);
    expect(unpaid.body).toEqual({ success: false, customer: { email: null, name: null } });
    stripe.pay(sessionId, { email: "kim@example.com", name: "Kim Lee" });
    for (let i = 0; i < 2; i++) {
      const paid = await ctx.agent().get(`/api/verify-payment?session_id=${sessionId}`).expect(200);
      expect(paid.body).toEqual({ success: true, customer: { email: "kim@example.com", name: "Kim Lee" } });
    }
    // Revenue counts the subscription's invoices, so a subscription purchase is no payments row.
    expect(await ctx.db("payments").where({ provider_id: sessionId })).toHaveLength(0);
    const subs = await ctx.db("subscriptions").where({ checkout_ref: sessionId });
    expect(subs).toHaveLength(1);
    expect(subs[0]).toMatchObject({
      provider: "stripe",
      plan_type: "premium",
      status: "active",
      monthly_amount_cents: 79900,
      payer_email: "kim@example.com",
    });
    const invoices = await ctx.db("invoices").where({ subscription_id: subs[0].id });
    // $799.00 + HST 13 % (the business's province: no postal code was sent).
    expect(invoices).toMatchObject([
      { status: "paid", amount_cents: 90_287, subtotal_cents: 79_900, billing_reason: "subscription_create" },
    ]);
  });

  it("an id Stripe does not know, or a demo id, is not paid", async () => {
    const unknown = await ctx.agent().get("/api/verify-payment?session_id=cs_test_nope").expect(200);
    expect(unknown.body.success).toBe(false);
    const demo = await ctx.agent().get("/api/verify-payment?session_id=demo_session_abcdef123").expect(200);
    expect(demo.body.success).toBe(false);
  });

  it("/checkout: a default_incomplete subscription at the plan's checkout price; a tampered amount never reaches Stripe", async () => {
    const calls = stripe.apiCalls("POST", "/v1/subscriptions").length;
    await ctx.agent().post("/api/create-payment-intent").send({ amount: 100, plan: "standard" }).expect(400);
    expect(stripe.apiCalls("POST", "/v1/subscriptions")).toHaveLength(calls);
    const res = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 412, plan: "standard" })
      .expect(200);
    const [call] = stripe.apiCalls("POST", "/v1/subscriptions").slice(-1);
    const price = [...stripe.prices.values()].find((p) => p.lookup_key === "haven_standard_monthly_41200")!;
    expect(price).toMatchObject({ unit_amount: 41200, recurring: { interval: "month" } });
    expect(call!.form).toMatchObject({
      "items[0][price]": price.id,
      payment_behavior: "default_incomplete",
      "payment_settings[save_default_payment_method]": "on_subscription",
      "metadata[plan]": "standard",
      "metadata[source]": "payment_page",
    });
    expect(call!.form.customer).toMatch(/^cus_test_/);
    // The secret is the first invoice's confirmation secret; no PaymentIntent is made by Haven any more.
    expect(stripe.apiCalls("POST", "/v1/payment_intents")).toHaveLength(0);
    const sub = [...stripe.subscriptions.values()].at(-1)!;
    const invoice = stripe.invoices.get(sub.latest_invoice as string)!;
    expect(res.body).toEqual({
      clientSecret: (invoice.confirmation_secret as { client_secret: string }).client_secret,
    });
    const intent = stripe.intents.get(res.body.clientSecret.split("_secret_")[0])!;
    // Recorded at once, incomplete, found again by the PaymentIntent id.
    expect(await ctx.db("subscriptions").where({ checkout_ref: intent.id }).first()).toMatchObject({
      provider_subscription_id: sub.id,
      status: "incomplete",
      monthly_amount_cents: 41200,
    });
    // A succeeded intent verifies too (the /checkout → /payment-success → intake path).
    stripe.succeedIntent(intent.id as string, "ivy@example.com");
    const verified = await ctx.agent().get(`/api/verify-payment?session_id=${intent.id}`).expect(200);
    expect(verified.body).toEqual({ success: true, customer: { email: "ivy@example.com", name: null } });
  });

  it("Stripe speaks the language the plan was chosen in: the customer's preferred_locales, the Checkout page's locale", async () => {
    await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 412, plan: "standard", locale: "fr-CA" })
      .expect(200);
    const customer = stripe.customers.get(stripe.apiCalls("POST", "/v1/subscriptions").at(-1)!.form.customer!)!;
    expect(customer.preferred_locales).toEqual(["fr-CA"]);
    await ctx.agent().post("/api/create-payment-intent").send({ amount: 412, plan: "standard" }).expect(200);
    expect(stripe.apiCalls("POST", "/v1/customers").at(-1)!.form["preferred_locales[0]"]).toBe("en-CA");
    // /fr/pricing's plan button: Stripe's hosted page in French.
    const started = await ctx.agent().post("/fr/checkout/start").type("form").send({ planType: "basic" }).expect(303);
    expect(started.headers.location).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    expect(stripe.apiCalls("POST", "/v1/checkout/sessions").at(-1)!.form.locale).toBe("fr-CA");
  });

  it("the payment page's success path: intent → paid in Stripe → /payment-success → verify-payment → POST /api/customers with the pi_ id", async () => {
    const browser = ctx.agent();
    const page = await browser.get("/checkout?plan=premium").expect(200);
    expect(page.text).toContain("pk_test_stand_in");
    const { body } = await browser
      .post("/api/create-payment-intent")
      .send({ amount: 889, plan: "premium" })
      .expect(200);
    const intentId = String(body.clientSecret).split("_secret_")[0]!;
    expect(intentId).toMatch(/^pi_test_\w+$/);
    // $889.00 + HST 13 % (the business's province: no postal code was sent).
    expect(stripe.intents.get(intentId)).toMatchObject({ amount: 100457, currency: "cad" });
    expect(stripe.subscriptionOf(intentId)).toMatchObject({
      status: "incomplete",
      metadata: { plan: "premium", source: "payment_page" },
    });

    // Not paid yet: verification fails and intake is refused.
    expect((await browser.get(`/api/verify-payment?session_id=${intentId}`).expect(200)).body.success).toBe(false);
    const intake = {
      stripeSessionId: intentId,
      planType: "basic",
      email: "rowan@example.com",
      name: "Rowan Ash",
      phone: "306-555-0111",
      property: {
        address: "5 Pine Street",
        city: "Springfield",
        state: "IL",
        zipCode: "62704",
        squareFootage: "1600",
        yearBuilt: "1999",
      },
    };
    await browser.post("/api/customers").send(intake).expect(400);

    // Stripe.js confirms the card (receipt_email comes from the form) and returns to /payment-success.
    stripe.succeedIntent(intentId, "rowan@example.com");
    const success = await browser
      .get(
        `/payment-success?plan=premium&payment_intent=${intentId}&payment_intent_client_secret=${body.clientSecret}&redirect_status=succeeded`,
      )
      .expect(200);
    expect(success.text).toContain("Payment Successful!");
    expect(success.text).toContain(`href="/property-intake?plan=premium&session_id=${intentId}"`);
    await browser.get(`/property-intake?plan=premium&session_id=${intentId}`).expect(200);

    const verified = await browser.get(`/api/verify-payment?session_id=${intentId}`).expect(200);
    expect(verified.body).toEqual({ success: true, customer: { email: "rowan@example.com", name: null } });
    expect(await ctx.db("payments").where({ provider_id: intentId })).toHaveLength(0);
    expect(await ctx.db("subscriptions").where({ checkout_ref: intentId }).first()).toMatchObject({
      status: "active",
      plan_type: "premium",
      monthly_amount_cents: 88900,
      payer_email: "rowan@example.com",
    });

    const created = await browser.post("/api/customers").send(intake).expect(201);
    // The plan paid for wins over the form's planType.
    expect(await ctx.db("customers").where({ id: created.body.id }).first()).toMatchObject({
      stripe_session_id: intentId,
      email: "rowan@example.com",
      subscription_plan: "premium",
    });
    expect((await browser.get("/api/properties").expect(200)).body).toEqual([
      expect.objectContaining({ id: created.body.propertyId, address: "5 Pine Street" }),
    ]);
    // The subscription now belongs to the customer and home intake made.
    expect(await ctx.db("subscriptions").where({ checkout_ref: intentId }).first()).toMatchObject({
      customer_id: created.body.id,
      property_id: created.body.propertyId,
    });
    // A retry from the same browser gets the same customer; the subscription is still one.
    expect((await browser.post("/api/customers").send(intake).expect(200)).body).toEqual(created.body);
    expect(await ctx.db("subscriptions").where({ checkout_ref: intentId })).toHaveLength(1);
    // Another browser knowing the pi_ id but not the payer's e-mail gets nothing.
    const stranger = ctx.agent();
    await stranger
      .post("/api/customers")
      .send({ ...intake, email: "mallory@example.com" })
      .expect(400);
    expect((await stranger.get("/api/properties").expect(200)).body).toEqual([]);
  });

  it("the payment page allows Stripe.js in its CSP, and demo confirmation is off", async () => {
    const page = await ctx.agent().get("/checkout?plan=basic").expect(200);
    const csp = page.headers["content-security-policy"];
    expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src 'self' https:\/\/js\.stripe\.com/);
    expect(page.text).toContain("pk_test_stand_in");
    // Elsewhere Stripe.js stays out; only form posts may go on to Stripe's hosted checkout.
    const home = (await ctx.agent().get("/").expect(200)).headers["content-security-policy"];
    expect(home).not.toContain("js.stripe.com");
    expect(home).toMatch(/form-action 'self' https:\/\/checkout\.stripe\.com/);
    await ctx.agent().get("/demo-checkout/demo_cs_ffffffffffffffffffffffff").expect(404);
    await ctx
      .agent()
      .post("/api/demo/confirm-payment")
      .send({
        clientSecret: "demo_pi_ab_secret_cd",
        name: "A",
        email: "a@example.com",
        cardNumber: "4242424242424242",
        expiry: "12/39",
        cvc: "123",
      })
      .expect(404);
  });

  it("a Stripe outage is a clear 502, and the form fallback returns to /pricing", async () => {
    stripe.failWith = 500;
    try {
      const res = await ctx.agent().post("/api/create-checkout-session").send({ planType: "basic" }).expect(502);
      expect(res.body).toEqual({ message: "The payment provider could not be reached. Please try again." });
      const form = await ctx.agent().post("/checkout/start").type("form").send({ planType: "basic" }).expect(303);
      expect(form.headers.location).toBe("/pricing?checkout_error=1");
      await ctx.agent().get("/api/verify-payment?session_id=cs_test_any").expect(502);
    } finally {
      stripe.failWith = null;
    }
    const ok = await ctx.agent().post("/checkout/start").type("form").send({ planType: "standard" }).expect(303);
    expect(ok.headers.location).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
  });
});
