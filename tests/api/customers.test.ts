import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_TAKEN_MESSAGE } from "../../src/modules/customers/customers.service.js";
import { PAYER_EMAIL_MESSAGE } from "../../src/modules/payments/index.js";
import { closeStripeSite, openStripeSite } from "../support/subscriptions.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import type { StripeStandIn } from "../support/stripe-stand-in.js";

const property = {
  address: "12 Elm Street",
  city: "Springfield",
  state: "IL",
  zipCode: "62704",
  squareFootage: "2400",
  yearBuilt: "1987",
  bedrooms: "4",
  bathrooms: "2.5",
  stories: "2",
  hvacUnits: "1",
  electricalPanels: "1",
  plumbingSystems: "Copper",
  roofType: "asphalt-shingle",
  heatingType: "gas",
  coolingType: "central-ac",
  waterHeaterType: "gas-tank",
  foundationType: "Poured concrete",
  notes: "Dog in the yard",
};
const payload = (stripeSessionId: string, over: Record<string, unknown> = {}) => ({
  stripeSessionId,
  planType: "standard",
  email: "jo@example.com",
  name: "Jo Homeowner",
  phone: "217-555-0100",
  property,
  ...over,
});

/** A paid demo payment, as the /checkout card form makes it; its id is what /payment-success hands to intake. */
async function paidDemoSession(
  ctx: TestContext,
  planType: "basic" | "standard" | "premium" = "standard",
  email = "jo@example.com",
): Promise<string> {
  const amount = (await ctx.container.plans.get(planType)).checkoutPrice;
  const { body } = await ctx.agent().post("/api/create-payment-intent").send({ amount, plan: planType }).expect(200);
  const card = { name: "Demo Payer", email, cardNumber: "4242424242424242", expiry: "12 / 39", cvc: "123" };
  const paid = await ctx
    .agent()
    .post("/api/demo/confirm-payment")
    .send({ ...card, clientSecret: body.clientSecret })
    .expect(200);
  return paid.body.paymentIntentId;
}

const counts = async (ctx: TestContext) => ({
  customers: Number((await ctx.db("customers").count({ n: "*" }).first())!.n),
  properties: Number((await ctx.db("properties").count({ n: "*" }).first())!.n),
});

describe("POST /api/customers (demo mode)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.container.plans.seed();
  });
  afterAll(() => ctx.close());

  it("names every missing field with the spec's messages and writes nothing", async () => {
    const before = await counts(ctx);
    const empty = await ctx.agent().post("/api/customers").send({}).expect(400);
    expect(empty.body.message).toBe("Invalid input");
    expect(empty.body.fields).toEqual({
      stripeSessionId: "Checkout session is required",
      planType: "Plan must be one of basic, standard, premium",
      email: "Email is required",
      name: "Name is required",
      phone: "Phone is required",
      property: "Property information is required",
    });
    const blank = await ctx
      .agent()
      .post("/api/customers")
      .send(
        payload("demo_session_abcdef12", {
          name: " ",
          phone: "",
          property: { address: "", city: "", state: "", zipCode: "", squareFootage: "", yearBuilt: "" },
        }),
      )
      .expect(400);
    expect(blank.body.fields).toEqual({
      name: "Name is required",
      phone: "Phone is required",
      "property.address": "Street address is required",
      "property.city": "City is required",
      "property.state": "Province is required",
      "property.zipCode": "Postal code is required",
      "property.squareFootage": "Square footage is required",
      "property.yearBuilt": "Year built is required",
    });
    expect(await counts(ctx)).toEqual(before);
  });

  it("refuses bad formats, numbers and every enumeration of §3", async () => {
    const res = await ctx
      .agent()
      .post("/api/customers")
      .send(
        payload("bad id!", {
          planType: "gold",
          email: "not-an-email",
          phone: "call me",
          property: {
            ...property,
            state: "ZZ",
            zipCode: "S4P 3Y",
            squareFootage: "big",
            yearBuilt: "1492",
            bedrooms: "7",
            bathrooms: "5",
            stories: "4",
            hvacUnits: "5",
            electricalPanels: "3",
            roofType: "straw",
            heatingType: "fire",
            coolingType: "fan",
            waterHeaterType: "kettle",
          },
        }),
      )
      .expect(400);
    expect(res.body.fields).toEqual({
      stripeSessionId: "Checkout session is not valid",
      planType: "Plan must be one of basic, standard, premium",
      email: "Enter a valid email address",
      phone: "Enter a valid phone number",
      "property.state": "Province must be a two-letter province or US state code",
      "property.zipCode": "Enter a valid postal code, like K1S 2B4",
      "property.squareFootage": "Square footage must be a number",
      "property.yearBuilt": "Year built must be at least 1600",
      "property.bedrooms": "Bedrooms must be one of 1, 2, 3, 4, 5, 6+",
      "property.bathrooms": "Bathrooms must be one of 1, 1.5, 2, 2.5, 3, 3.5, 4, 4+",
      "property.stories": "Stories must be one of 1, 1.5, 2, 2.5, 3",
      "property.hvacUnits": "HVAC units must be one of 1, 2, 3, 4+, unknown",
      "property.electricalPanels": "Electrical panels must be one of 1, 2, multiple, unknown",
      "property.roofType": "Roof type must be one of asphalt-shingle, metal, tile, slate, flat, other, unknown",
      "property.heatingType": "Heating type must be one of gas, electric, oil, propane, heat-pump, other, unknown",
      "property.coolingType":
        "Cooling type must be one of central-ac, window-units, mini-split, evaporative, none, unknown",
      "property.waterHeaterType":
        "Water heater type must be one of gas-tank, electric-tank, gas-tankless, electric-tankless, solar, unknown",
    });
    const fraction = await ctx
      .agent()
      .post("/api/customers")
      .send(payload("demo_session_abcdef12", { property: { ...property, squareFootage: 1200.5 } }))
      .expect(400);
    expect(fraction.body.fields).toEqual({ "property.squareFootage": "Square footage must be a whole number" });
  });

  it("refuses a session that is not paid: unknown demo ids and pending intents", async () => {
    const before = await counts(ctx);
    const unknown = await ctx
      .agent()
      .post("/api/customers")
      .send(payload("demo_cs_0123456789abcdef01234567"))
      .expect(400);
    expect(unknown.body).toEqual({
      message: "Payment could not be verified",
      fields: { stripeSessionId: "This checkout session is not paid" },
    });
    const { body } = await ctx
      .agent()
      .post("/api/create-payment-intent")
      .send({ amount: 412, plan: "standard" })
      .expect(200);
    const pendingId = body.clientSecret.split("_secret_")[0];
    await ctx.agent().post("/api/customers").send(payload(pendingId)).expect(400);
    await ctx.agent().post("/api/customers").send(payload("cs_test_forged")).expect(400);
    expect(await counts(ctx)).toEqual(before);
  });

  it("creates the customer and property, sets the session cookie, and is idempotent per session", async () => {
    const sessionId = await paidDemoSession(ctx, "premium");
    const browser = ctx.agent();
    const first = await browser.post("/api/customers").send(payload(sessionId)).expect(201);
    expect(first.body).toEqual({ id: expect.any(Number), propertyId: expect.any(Number) });
    expect(String(first.headers["set-cookie"])).toContain("haven_session=");

    const retry = await browser
      .post("/api/customers")
      .send(payload(sessionId, { name: "Someone Else" }))
      .expect(200);
    expect(retry.body).toEqual(first.body);
    expect(await ctx.db("customers").where({ stripe_session_id: sessionId })).toHaveLength(1);
    expect(await ctx.db("properties").where({ customer_id: first.body.id })).toHaveLength(1);

    const list = await browser.get("/api/properties").expect(200);
    expect(list.body).toHaveLength(1);
    // The plan paid for wins over the form's planType.
    expect(list.body[0]).toMatchObject({
      id: first.body.propertyId,
      address: "12 Elm Street",
      city: "Springfield",
      state: "IL",
      postalCode: "62704",
      squareFootage: 2400,
      yearBuilt: 1987,
      bedrooms: "4",
      bathrooms: "2.5",
      roofType: "asphalt-shingle",
      notes: "Dog in the yard",
      clientName: "Jo Homeowner",
      clientEmail: "jo@example.com",
      clientPhone: "217-555-0100",
      subscriptionPlan: "premium",
    });
  });

  describe("Canadian addresses (docs/decisions.md#31)", () => {
    const ottawa = { ...property, city: "Ottawa", state: "ON", zipCode: "K1S 2B4" };

    it("takes an Ottawa address: the province is stored as the province, the postal code as 'K1S 2B4'", async () => {
      const sessionId = await paidDemoSession(ctx, "basic", "ottawa@example.com");
      const browser = ctx.agent();
      const made = await browser
        .post("/api/customers")
        .send(
          payload(sessionId, { email: "ottawa@example.com", property: { ...ottawa, state: "on", zipCode: "k1s2b4" } }),
        )
        .expect(201);
      const [listed] = (await browser.get("/api/properties").expect(200)).body;
      expect(listed).toMatchObject({
        id: made.body.propertyId,
        city: "Ottawa",
        province: "ON",
        state: null,
        postalCode: "K1S 2B4",
      });
    });

    it("accepts the onboarding names (province, postalCode) and both pairs when they agree", async () => {
      const { state: _s, zipCode: _z, ...street } = ottawa;
      const sessionId = await paidDemoSession(ctx, "basic", "pair@example.com");
      const browser = ctx.agent();
      await browser
        .post("/api/customers")
        .send(
          payload(sessionId, {
            email: "pair@example.com",
            property: { ...street, province: "ON", postalCode: "K2P-1L4" },
          }),
        )
        .expect(201);
      expect((await browser.get("/api/properties").expect(200)).body[0]).toMatchObject({
        province: "ON",
        state: null,
        postalCode: "K2P 1L4",
      });
      const bothSession = await paidDemoSession(ctx, "basic", "both@example.com");
      const other = ctx.agent();
      await other
        .post("/api/customers")
        .send(
          payload(bothSession, {
            email: "both@example.com",
            property: { ...ottawa, province: "on", postalCode: "k1s 2b4" },
          }),
        )
        .expect(201);
      expect((await other.get("/api/properties").expect(200)).body[0]).toMatchObject({
        province: "ON",
        state: null,
        postalCode: "K1S 2B4",
      });
    });

    it.each([
      [{ zipCode: "K1S 2B" }, { "property.zipCode": "Enter a valid postal code, like K1S 2B4" }],
      [{ zipCode: "D1S 2B4" }, { "property.zipCode": "Enter a valid postal code, like K1S 2B4" }],
      [{ zipCode: "K1S 2B4 X" }, { "property.zipCode": "Enter a valid postal code, like K1S 2B4" }],
      [{ state: "Ontario" }, { "property.state": "Province must be a two-letter province or US state code" }],
      [{ province: "NY" }, { "property.province": "Province must be a two-letter Canadian province code" }],
      [{ province: "QC" }, { "property.province": "Province and state name different regions" }],
      [{ postalCode: "K2P 1L4" }, { "property.postalCode": "Postal code and ZIP code differ" }],
    ])("refuses %o naming the field, and writes nothing", async (change, fields) => {
      const before = await counts(ctx);
      const sessionId = await paidDemoSession(ctx, "basic", "refused@example.com");
      const res = await ctx
        .agent()
        .post("/api/customers")
        .send(payload(sessionId, { email: "refused@example.com", property: { ...ottawa, ...change } }))
        .expect(400);
      expect(res.body.fields).toEqual(fields);
      expect(await counts(ctx)).toEqual(before);
    });
  });

  it("refuses a NUL character in any text field with a 400 naming the field, and writes nothing", async () => {
    const before = await counts(ctx);
    const sessionId = await paidDemoSession(ctx);
    const browser = ctx.agent();
    const res = await browser
      .post("/api/customers")
      .send(
        payload(sessionId, {
          name: "Jo\u0000Homeowner",
          property: { ...property, city: "Spring\u0000field", notes: "\u0000" },
        }),
      )
      .expect(400);
    expect(res.body.fields).toEqual({
      name: "Contains a character that is not allowed (NUL)",
      "property.city": "Contains a character that is not allowed (NUL)",
      "property.notes": "Contains a character that is not allowed (NUL)",
    });
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(await counts(ctx)).toEqual(before);
    expect((await browser.get("/api/properties").expect(200)).body).toEqual([]);
  });

  it("refuses an email other than the one the payment was made with, naming the email field", async () => {
    const before = await counts(ctx);
    const sessionId = await paidDemoSession(ctx, "basic", "jo@example.com");
    const thief = ctx.agent();
    const res = await thief
      .post("/api/customers")
      .send(payload(sessionId, { email: "mallory@example.com", name: "Mallory" }))
      .expect(400);
    expect(res.body).toEqual({ message: PAYER_EMAIL_MESSAGE, fields: { email: PAYER_EMAIL_MESSAGE } });
    expect(res.headers["set-cookie"]).toBeUndefined();
    expect(await counts(ctx)).toEqual(before);
    expect((await thief.get("/api/properties").expect(200)).body).toEqual([]);
    // The payer's own address, in any case, is the same address.
    const owner = await ctx
      .agent()
      .post("/api/customers")
      .send(payload(sessionId, { email: "Jo@Example.COM" }))
      .expect(201);
    expect((await ctx.db("customers").where({ id: owner.body.id }).first()).email).toBe("Jo@Example.COM");
  });

  it("a retry attaches the existing customer only for the same email: another browser with another email gets 409", async () => {
    // The spec's fake demo id: the provider holds no payer e-mail, so only the saved customer's e-mail decides.
    const id = "demo_session_5e55i0nabc";
    const owner = ctx.agent();
    const first = await owner.post("/api/customers").send(payload(id)).expect(201);
    const before = await counts(ctx);

    const thief = ctx.agent();
    const stolen = await thief
      .post("/api/customers")
      .send(payload(id, { email: "mallory@example.com", name: "Mallory" }))
      .expect(409);
    expect(stolen.body).toEqual({ message: SESSION_TAKEN_MESSAGE, fields: { email: SESSION_TAKEN_MESSAGE } });
    expect(stolen.headers["set-cookie"]).toBeUndefined();
    expect((await thief.get("/api/properties").expect(200)).body).toEqual([]);
    expect(await counts(ctx)).toEqual(before);

    // The same browser retrying the same payload, and the same person in another browser, get the same customer.
    expect((await owner.post("/api/customers").send(payload(id)).expect(200)).body).toEqual(first.body);
    const otherDevice = ctx.agent();
    expect(
      (
        await otherDevice
          .post("/api/customers")
          .send(payload(id, { email: "JO@example.com" }))
          .expect(200)
      ).body,
    ).toEqual(first.body);
    expect((await otherDevice.get("/api/properties").expect(200)).body.map((p: { id: number }) => p.id)).toEqual([
      first.body.propertyId,
    ]);
    expect(await counts(ctx)).toEqual(before);
  });

  it("concurrent first attempts for one session make one customer; a different email among them gets 409", async () => {
    const sessionId = await paidDemoSession(ctx, "standard", "jo@example.com");
    const same = await Promise.all([1, 2, 3, 4].map(() => ctx.agent().post("/api/customers").send(payload(sessionId))));
    expect(same.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(same.map((r) => r.body.id)).size).toBe(1);
    expect(await ctx.db("customers").where({ stripe_session_id: sessionId })).toHaveLength(1);

    const id = "demo_session_race0123456";
    const raced = await Promise.all(
      ["a@example.com", "b@example.com", "c@example.com"].map((email) =>
        ctx.agent().post("/api/customers").send(payload(id, { email })),
      ),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await ctx.db("customers").where({ stripe_session_id: id })).toHaveLength(1);
  });

  it("accepts the spec's fake demo session id (demo and plan only), once", async () => {
    const id = "demo_session_0a1b2c3d4e5f";
    const first = await ctx
      .agent()
      .post("/api/customers")
      .send(payload(id, { planType: "basic" }))
      .expect(201);
    const again = await ctx
      .agent()
      .post("/api/customers")
      .send(payload(id, { planType: "basic" }))
      .expect(200);
    expect(again.body.id).toBe(first.body.id);
  });

  describe("isolation: two customers and an anonymous caller", () => {
    const alice = () => ctx.agent();
    let a: ReturnType<typeof alice>;
    let b: ReturnType<typeof alice>;
    let aIds: { id: number; propertyId: number };
    let bIds: { id: number; propertyId: number };
    beforeAll(async () => {
      a = ctx.agent();
      b = ctx.agent();
      aIds = (
        await a
          .post("/api/customers")
          .send(
            payload(await paidDemoSession(ctx, "standard", "alice@example.com"), {
              email: "alice@example.com",
              name: "Alice",
            }),
          )
          .expect(201)
      ).body;
      bIds = (
        await b
          .post("/api/customers")
          .send(
            payload(await paidDemoSession(ctx, "standard", "bob@example.com"), {
              email: "bob@example.com",
              name: "Bob",
            }),
          )
          .expect(201)
      ).body;
    });

    it("each customer lists only their own properties; anonymous gets []", async () => {
      const aList = (await a.get("/api/properties").expect(200)).body;
      const bList = (await b.get("/api/properties").expect(200)).body;
      expect(aList.map((p: { id: number }) => p.id)).toEqual([aIds.propertyId]);
      expect(bList.map((p: { id: number }) => p.id)).toEqual([bIds.propertyId]);
      expect((await ctx.agent().get("/api/properties").expect(200)).body).toEqual([]);
    });

    it("GET /api/properties/:id answers the owner and 404s everyone else", async () => {
      expect((await a.get(`/api/properties/${aIds.propertyId}`).expect(200)).body.clientEmail).toBe(
        "alice@example.com",
      );
      const other = await a.get(`/api/properties/${bIds.propertyId}`).expect(404);
      expect(other.body).toEqual({ message: "Property not found" });
      await ctx.agent().get(`/api/properties/${aIds.propertyId}`).expect(404);
      await a.get("/api/properties/999999").expect(404);
      const bad = await a.get("/api/properties/abc").expect(400);
      expect(bad.body.fields).toEqual({ id: "Id must be a number" });
    });

    it("staff see every property", async () => {
      const { agent } = await signInStaff(ctx);
      const all = (await agent.get("/api/properties").expect(200)).body.map((p: { id: number }) => p.id);
      expect(all).toEqual(expect.arrayContaining([aIds.propertyId, bIds.propertyId]));
      await agent.get(`/api/properties/${bIds.propertyId}`).expect(200);
    });
  });
});

describe("POST /api/customers (Stripe mode)", () => {
  let ctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    ({ ctx, stripe } = await openStripeSite());
  });
  afterAll(() => closeStripeSite({ ctx, stripe }));

  it("needs a Checkout Session Stripe reports paid; demo ids are refused", async () => {
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "basic" }).expect(200);
    const sessionId = body.url.split("/pay/")[1];
    await ctx.agent().post("/api/customers").send(payload(sessionId)).expect(400);
    await ctx.agent().post("/api/customers").send(payload("demo_session_0a1b2c3d4e5f")).expect(400);
    expect(await counts(ctx)).toEqual({ customers: 0, properties: 0 });

    stripe.pay(sessionId, { email: "jo@example.com", name: "Jo Homeowner" });
    const created = await ctx.agent().post("/api/customers").send(payload(sessionId)).expect(201);
    const customer = await ctx.db("customers").where({ id: created.body.id }).first();
    expect(customer).toMatchObject({ stripe_session_id: sessionId, subscription_plan: "basic" });
    // the purchase is a subscription (revenue counts its invoices), attached to the new customer.
    expect(await ctx.db("payments").where({ provider_id: sessionId })).toHaveLength(0);
    expect(await ctx.db("subscriptions").where({ checkout_ref: sessionId })).toMatchObject([
      { customer_id: created.body.id, status: "active" },
    ]);
  });

  it("refuses an email other than the one Stripe reports for the paid session", async () => {
    const { body } = await ctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const sessionId = body.url.split("/pay/")[1];
    stripe.pay(sessionId, { email: "kim@example.com", name: "Kim Lee" });
    const before = await counts(ctx);
    const res = await ctx.agent().post("/api/customers").send(payload(sessionId)).expect(400);
    expect(res.body).toEqual({ message: PAYER_EMAIL_MESSAGE, fields: { email: PAYER_EMAIL_MESSAGE } });
    expect(await counts(ctx)).toEqual(before);
    await ctx
      .agent()
      .post("/api/customers")
      .send(payload(sessionId, { email: "KIM@example.com", name: "Kim Lee" }))
      .expect(201);
  });
});
