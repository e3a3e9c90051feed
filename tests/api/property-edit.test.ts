import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Property } from "../../src/modules/customers/customers.schemas.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

// PATCH /api/properties/{id}: staff edit a property and its customer with the intake's rules.
let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
let property: Property;
let sibling: Property;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = (await signInStaff(ctx)).agent;
  const made = await ctx.container.customers.createWithProperty(
    { email: "avery@example.ca", name: "Avery Tremblay", phone: "613-555-0142", subscriptionPlan: "standard" },
    {
      address: "12 Elm Street",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
      squareFootage: 1800,
      yearBuilt: 1990,
      roofType: "asphalt-shingle",
      notes: "Side door",
    },
  );
  property = made.property;
  // A second property of the same customer, which carries a copy of the client's name, e-mail and phone.
  const [second] = await ctx
    .db("properties")
    .insert({
      customer_id: made.customer.id,
      client_name: made.customer.name,
      client_email: made.customer.email,
      client_phone: made.customer.phone,
      subscription_plan: "standard",
      address: "4 Pine Road",
      city: "Ottawa",
      province: "ON",
      postal_code: "K2P 1L4",
    })
    .returning("id");
  sibling = (await ctx.container.customers.findPropertyFor({ kind: "staff" }, second.id))!;
});
afterAll(() => ctx.close());

const row = (id: number) => ctx.db("properties").where({ id }).first();

describe("PATCH /api/properties/{id}", () => {
  it("saves the fields sent, normalises a lower-case postal code, and keeps search in step", async () => {
    const res = await staff
      .patch(`/api/properties/${property.id}`)
      .send({
        address: "77 Bank Street",
        city: "Ottawa",
        province: "on",
        postalCode: "k1p5n2",
        squareFootage: "2,100",
        bedrooms: "3",
        notes: "",
      })
      .expect(200);
    expect(res.body).toMatchObject({
      id: property.id,
      address: "77 Bank Street",
      province: "ON",
      state: null,
      postalCode: "K1P 5N2",
      squareFootage: 2100,
      bedrooms: "3",
      notes: null,
    });
    // Fields not sent are kept.
    expect(res.body).toMatchObject({ yearBuilt: 1990, roofType: "asphalt-shingle", clientName: "Avery Tremblay" });
    const found = await staff.get("/api/properties").query({ q: "77 bank" }).expect(200);
    expect(found.body.map((p: Property) => p.id)).toEqual([property.id]);
    const byPostal = await staff.get("/api/properties").query({ q: "K1P5N2" }).expect(200);
    expect(byPostal.body.map((p: Property) => p.id)).toEqual([property.id]);
    expect((await staff.get("/api/properties").query({ q: "12 elm" }).expect(200)).body).toEqual([]);
  });

  it("accepts the spec's state/zipCode names, a US address included", async () => {
    const res = await staff.patch(`/api/properties/${sibling.id}`).send({ state: "ny", zipCode: "10001" }).expect(200);
    expect(res.body).toMatchObject({ province: null, state: "NY", postalCode: "10001" });
  });

  it("edits the customer's name, e-mail and phone on the customer and all of their properties", async () => {
    const res = await staff
      .patch(`/api/properties/${property.id}`)
      .send({ name: "Avery Gagnon", email: "avery.gagnon@example.ca", phone: "(613) 555-0199" })
      .expect(200);
    expect(res.body).toMatchObject({
      clientName: "Avery Gagnon",
      clientEmail: "avery.gagnon@example.ca",
      clientPhone: "(613) 555-0199",
    });
    const customer = await ctx.db("customers").where({ id: property.customerId }).first();
    expect(customer).toMatchObject({ name: "Avery Gagnon", email: "avery.gagnon@example.ca", phone: "(613) 555-0199" });
    expect(await row(sibling.id)).toMatchObject({
      client_name: "Avery Gagnon",
      client_email: "avery.gagnon@example.ca",
    });
    const found = await staff.get("/api/properties").query({ q: "6135550199" }).expect(200);
    expect(found.body.map((p: Property) => p.id).sort()).toEqual([property.id, sibling.id].sort());

    // The spec's Property names them clientName, clientEmail and clientPhone: those are the same fields.
    const spec = await staff
      .patch(`/api/properties/${property.id}`)
      .send({ clientName: "Avery Gagnon-Roy", clientPhone: "(613) 555-0123" })
      .expect(200);
    expect(spec.body).toMatchObject({ clientName: "Avery Gagnon-Roy", clientPhone: "(613) 555-0123" });
  });

  it("names every invalid field and writes nothing", async () => {
    const before = await row(property.id);
    const customerBefore = await ctx.db("customers").where({ id: property.customerId }).first();
    const res = await staff
      .patch(`/api/properties/${property.id}`)
      .send({
        address: "",
        postalCode: "K1S",
        province: "ZZ",
        squareFootage: "huge",
        yearBuilt: 1500,
        roofType: "thatch",
        email: "not-an-email",
        phone: "x",
        name: "Changed",
        notes: "a\u0000b",
      })
      .expect(400);
    expect(res.body.fields).toMatchObject({
      address: "Street address is required",
      postalCode: expect.stringMatching(/postal code/i),
      state: expect.stringMatching(/province/i),
      squareFootage: "Square footage must be a number",
      yearBuilt: expect.stringMatching(/Year built must be at least/),
      roofType: expect.stringMatching(/^Roof type must be one of/),
      email: "Enter a valid email address",
      phone: expect.stringMatching(/phone/i),
      notes: expect.any(String),
    });
    expect(await row(property.id)).toEqual(before);
    expect(await ctx.db("customers").where({ id: property.customerId }).first()).toEqual(customerBefore);
  });

  it("refuses a province and state that disagree", async () => {
    const res = await staff.patch(`/api/properties/${property.id}`).send({ province: "ON", state: "QC" }).expect(400);
    expect(res.body.fields.province).toBe("Province and state name different regions");
  });

  it("answers 404 for an unknown property and 400 for a bad id", async () => {
    await staff.patch("/api/properties/999999").send({ city: "Ottawa" }).expect(404);
    await staff.patch("/api/properties/abc").send({ city: "Ottawa" }).expect(400);
  });

  it("answers 401 without a staff session, and writes nothing", async () => {
    const before = await row(property.id);
    await ctx.agent().patch(`/api/properties/${property.id}`).send({ city: "Gatineau" }).expect(401);
    expect(await row(property.id)).toEqual(before);
  });
});

describe("the details dialog's edit form (POST /admin/properties/{id})", () => {
  it("shows the edit form with the stored values", async () => {
    const res = await staff.get(`/admin/properties/${property.id}/edit`).set("HX-Request", "true").expect(200);
    expect(res.text).toContain('data-testid="property-edit"');
    expect(res.text).toMatch(/name="address" value="77 Bank Street"/);
  });

  it("answers a refusal with the form, each message under its field and the typed values kept, writing nothing", async () => {
    const before = await row(property.id);
    const res = await staff
      .post(`/admin/properties/${property.id}`)
      .set("HX-Request", "true")
      .type("form")
      .send({
        name: "Avery G",
        email: "avery@example.ca",
        phone: "613-555-0199",
        address: "9 Typed Way",
        city: "Ottawa",
        state: "ON",
        zipCode: "K1S",
        squareFootage: "2100",
        yearBuilt: "1990",
      })
      .expect(200);
    expect(res.text).toContain('data-field-error="zipCode"');
    expect(res.text).toContain("Enter a valid postal code, like K1S 2B4");
    expect(res.text).toMatch(/name="address" value="9 Typed Way"/);
    expect(res.text).toMatch(/name="name" value="Avery G"/);
    expect(await row(property.id)).toEqual(before);
    // Without htmx: the form's page, as a 400.
    await staff.post(`/admin/properties/${property.id}`).type("form").send({ zipCode: "K1S" }).expect(400);
  });

  it("saves, then shows the updated details with a success notice", async () => {
    const res = await staff
      .post(`/admin/properties/${property.id}`)
      .set("HX-Request", "true")
      .type("form")
      .send({ address: "9 Typed Way", city: "Ottawa", state: "ON", zipCode: "k1s 2b4", bedrooms: "" })
      .expect(200);
    expect(res.text).toContain('data-testid="property-details"');
    expect(res.text).toContain("Details saved");
    expect(await row(property.id)).toMatchObject({ address: "9 Typed Way", postal_code: "K1S 2B4", bedrooms: null });
    const plain = await staff
      .post(`/admin/properties/${property.id}`)
      .type("form")
      .send({ city: "Ottawa" })
      .expect(303);
    expect(plain.headers.location).toBe(`/admin/properties/${property.id}?saved=1`);
  });

  it("is 404 for an unknown property and refuses without a staff session", async () => {
    await staff
      .post("/admin/properties/999999")
      .set("HX-Request", "true")
      .type("form")
      .send({ city: "Ottawa" })
      .expect(404);
    const anon = await ctx.agent().post(`/admin/properties/${property.id}`).type("form").send({ city: "Gatineau" });
    expect(anon.status).toBe(302);
    expect(anon.headers.location).toBe(`/login?next=${encodeURIComponent(`/admin/properties/${property.id}`)}`);
    expect((await row(property.id)).city).toBe("Ottawa");
  });
});

describe("PATCH /api/properties/{id}: the customer's language (docs/decisions.md#65)", () => {
  const localeOf = async () => (await ctx.db("customers").where({ id: property.customerId }).first()).locale as string;

  it("sets the customer's locale, and the audit trail shows the change", async () => {
    expect(await localeOf()).toBe("en-CA");
    await staff.patch(`/api/properties/${property.id}`).send({ locale: "fr-CA" }).expect(200);
    expect(await localeOf()).toBe("fr-CA");
    const event = await ctx
      .db("audit_events")
      .where({ action: "property.update", record_type: "property", record_id: String(property.id) })
      .orderBy("id", "desc")
      .first();
    expect([event.before.clientLocale, event.after.clientLocale]).toEqual(["en-CA", "fr-CA"]);
    await staff.patch(`/api/properties/${property.id}`).send({ locale: "en-CA" }).expect(200);
  });

  it("refuses a language it does not speak, and a field it does not know, with a 400 that writes nothing", async () => {
    const before = await row(property.id);
    const bad = await staff.patch(`/api/properties/${property.id}`).send({ locale: "fr-FR", city: "Gatineau" });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.locale).toBe("Locale must be en-CA or fr-CA");
    const unknown = await staff.patch(`/api/properties/${property.id}`).send({ city: "Gatineau", language: "fr" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("language");
    expect((await row(property.id)).city).toBe(before.city);
    expect(await localeOf()).toBe("en-CA");
  });
});
