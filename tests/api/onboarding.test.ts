import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEAD_MESSAGE } from "../../src/modules/bookings/bookings.schemas.js";
import { addDays } from "../../src/shared/business-time.js";
import { SAVED_MESSAGE, SCHEDULED_MESSAGE } from "../../src/modules/onboarding/onboarding.service.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const minDate = () => ctx.container.bookings.calendar().minDate;

/** Reading A's payload, with completedAt. */
const form = (over: Record<string, unknown> = {}) => ({
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "306 555 0199",
  address: "221 Spadina Cres",
  city: "Saskatoon",
  province: "SK",
  postalCode: "s7k1a1",
  squareFootage: "1850",
  yearBuilt: "1962",
  bedrooms: "3",
  bathrooms: "1.5",
  garageType: "detached",
  basementStatus: "partially-finished",
  ownershipType: "owner",
  financingType: "mortgage",
  householdIncome: "100k-150k",
  occupation: "professional",
  householdSize: "2",
  preferredDate: minDate(),
  preferredTime: "morning",
  accessMethod: "key-code",
  accessCode: "2468",
  accessInstructions: "Side door",
  completedAt: new Date().toISOString(),
  ...over,
});

const count = async (table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);
const counts = async () => ({
  customers: await count("customers"),
  properties: await count("properties"),
  bookings: await count("inspection_bookings"),
  mail: Number(
    (await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail.send'"))
      .rows[0].n,
  ),
});

describe("POST /api/onboarding", () => {
  it("stores the customer in the onboarding page's language; a language Haven does not speak is a 400 that writes nothing", async () => {
    const res = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ email: "camille.onboarding@example.com", locale: "fr-CA" }))
      .expect(201);
    const property = await ctx.db("properties").where({ id: res.body.propertyId }).first();
    expect(await ctx.db("customers").where({ id: property.customer_id }).first()).toMatchObject({ locale: "fr-CA" });
    const before = await counts();
    const refused = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ email: "klingon.onboarding@example.com", locale: "tlh" }))
      .expect(400);
    expect(refused.body.fields).toMatchObject({ locale: "Locale must be en-CA or fr-CA" });
    expect(await counts()).toEqual(before);
  });

  it("creates the customer, the property and the booking, answers reading B's fields and sets the cookie", async () => {
    const before = await counts();
    const agent = ctx.agent();
    const res = await agent.post("/api/onboarding").send(form()).expect(201);
    expect(res.body).toEqual({
      propertyId: expect.any(Number),
      bookingId: expect.any(Number),
      message: SCHEDULED_MESSAGE,
    });
    expect(String(res.headers["set-cookie"])).toContain("haven_session=");
    expect(await counts()).toEqual({
      customers: before.customers + 1,
      properties: before.properties + 1,
      bookings: before.bookings + 1,
      mail: before.mail + 1,
    });

    const property = await ctx.db("properties").where({ id: res.body.propertyId }).first();
    expect(property).toMatchObject({
      address: "221 Spadina Cres",
      city: "Saskatoon",
      province: "SK",
      postal_code: "S7K 1A1",
      square_footage: 1850,
      year_built: 1962,
      bedrooms: "3",
      bathrooms: "1.5",
      garage_type: "detached",
      basement_status: "partially-finished",
      ownership_type: "owner",
      financing_type: "mortgage",
      household_income: "100k-150k",
      occupation: "professional",
      household_size: "2",
      client_name: "Ada Lovelace",
      subscription_plan: "free-score",
    });
    const bookings = (await agent.get("/api/inspection-bookings").expect(200)).body;
    expect(bookings).toEqual([
      expect.objectContaining({
        id: res.body.bookingId,
        propertyId: res.body.propertyId,
        scheduledDate: minDate(),
        timeSlot: "morning",
        accessMethod: "key-code",
        accessCode: "2468",
        source: "onboarding",
      }),
    ]);
    const properties = (await agent.get("/api/properties").expect(200)).body;
    expect(properties.map((p: { id: number }) => p.id)).toEqual([res.body.propertyId]);
  });

  it("saves without a booking when no date, time or access method is given", async () => {
    const before = await counts();
    const res = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ preferredDate: "", preferredTime: "", accessMethod: "", accessCode: "" }))
      .expect(201);
    expect(res.body).toEqual({ propertyId: expect.any(Number), message: SAVED_MESSAGE });
    expect(await counts()).toMatchObject({
      properties: before.properties + 1,
      bookings: before.bookings,
      mail: before.mail,
    });
  });

  it("keeps the access code only for key-code and lockbox", async () => {
    const res = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ accessMethod: "owner-present", accessCode: "9999" }))
      .expect(201);
    const booking = await ctx.db("inspection_bookings").where({ id: res.body.bookingId }).first();
    expect(booking).toMatchObject({
      access_method: "owner-present",
      access_code: null,
      access_instructions: "Side door",
    });
  });

  it("names every missing required field, with reading A's message, and writes nothing", async () => {
    const before = await counts();
    const res = await ctx.agent().post("/api/onboarding").send({ completedAt: new Date().toISOString() }).expect(400);
    expect(res.body.message).toBe(
      "Please fill in all required fields: First name, Last name, Email, Phone, Street address, City, Province, Postal code, Square footage, Year built, Bedrooms, Bathrooms, Ownership, Household income and Occupation",
    );
    expect(Object.keys(res.body.fields).sort()).toEqual(
      [
        "address",
        "bathrooms",
        "bedrooms",
        "city",
        "email",
        "firstName",
        "householdIncome",
        "lastName",
        "occupation",
        "ownershipType",
        "phone",
        "postalCode",
        "province",
        "squareFootage",
        "yearBuilt",
      ].sort(),
    );
    const some = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ email: "", city: "  " }))
      .expect(400);
    expect(some.body.message).toBe("Please fill in all required fields: Email and City");
    expect(await counts()).toEqual(before);
  });

  it("names the missing fields by their French labels, as a French list, when the page is French", async () => {
    const before = await counts();
    const one = await ctx
      .agent()
      .post("/api/onboarding")
      .set("Accept-Language", "fr-CA")
      .send(form({ email: "" }))
      .expect(400);
    expect(one.body.message).toBe("Veuillez remplir tous les champs obligatoires\u00a0: Courriel");
    const three = await ctx
      .agent()
      .post("/api/onboarding")
      .set("Accept-Language", "fr-CA")
      .send(form({ email: "", city: " ", yearBuilt: undefined }))
      .expect(400);
    expect(three.body.message).toBe(
      "Veuillez remplir tous les champs obligatoires\u00a0: Courriel, Ville et Année de construction",
    );
    expect(Object.keys(three.body.fields).sort()).toEqual(["city", "email", "yearBuilt"]);
    expect(await counts()).toEqual(before);
  });

  it("also requires reading A's step 3 and step 4 fields, each named with its own message", async () => {
    const before = await counts();
    const step3 = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ squareFootage: "", yearBuilt: undefined, bedrooms: "", bathrooms: null }))
      .expect(400);
    expect(step3.body).toEqual({
      message: "Please fill in all required fields: Square footage, Year built, Bedrooms and Bathrooms",
      fields: {
        squareFootage: "Square footage is required",
        yearBuilt: "Year built is required",
        bedrooms: "Bedrooms is required",
        bathrooms: "Bathrooms is required",
      },
    });
    const step4 = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ ownershipType: "", householdIncome: "", occupation: undefined }))
      .expect(400);
    expect(step4.body).toEqual({
      message: "Please fill in all required fields: Ownership, Household income and Occupation",
      fields: {
        ownershipType: "Ownership type is required",
        householdIncome: "Household income is required",
        occupation: "Occupation is required",
      },
    });
    // The optional ones stay optional.
    await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ garageType: "", basementStatus: "", financingType: "", householdSize: "" }))
      .expect(201);
    expect((await counts()).customers).toBe(before.customers + 1);
  });

  it("refuses a NUL character in any text field with a 400 naming it, and writes nothing", async () => {
    const before = await counts();
    const NUL = "Contains a character that is not allowed (NUL)";
    for (const field of [
      "firstName",
      "lastName",
      "email",
      "phone",
      "address",
      "city",
      "postalCode",
      "financingType",
      "accessCode",
      "accessInstructions",
    ]) {
      const res = await ctx
        .agent()
        .post("/api/onboarding")
        .send(form({ [field]: "A\u0000" }))
        .expect(400);
      expect(res.body.fields[field], field).toBe(NUL);
    }
    const res = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ financingType: "\u0000" }))
      .expect(400);
    expect(res.body).toEqual({ message: NUL, fields: { financingType: NUL } });
    expect(await counts()).toEqual(before);
  });

  it("needs the date, time and access method together", async () => {
    const before = await counts();
    const res = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ preferredTime: "", accessMethod: "" }))
      .expect(400);
    expect(res.body.message).toBe("Please fill in all required fields: Preferred time and Access method");
    expect(res.body.fields).toEqual({
      preferredTime: "Required to schedule the inspection",
      accessMethod: "Required to schedule the inspection",
    });
    expect(await counts()).toEqual(before);
  });

  it("enforces the 4-day lead and the enumerations on the server", async () => {
    const before = await counts();
    const early = await ctx
      .agent()
      .post("/api/onboarding")
      .send(form({ preferredDate: addDays(minDate(), -1) }))
      .expect(400);
    expect(early.body).toEqual({ message: LEAD_MESSAGE, fields: { preferredDate: LEAD_MESSAGE } });
    const bad = await ctx
      .agent()
      .post("/api/onboarding")
      .send(
        form({
          province: "ZZ",
          bedrooms: "6+",
          bathrooms: "5",
          preferredTime: "9:00 AM",
          accessMethod: "meet-inspector",
          householdIncome: "lots",
          postalCode: "90210",
          completedAt: "yesterday",
        }),
      )
      .expect(400);
    expect(bad.body.fields).toEqual({
      province: "Province must be one of AB, BC, MB, NB, NL, NS, ON, PE, QC, SK",
      postalCode: "Enter a valid postal code, like K1S 2B4",
      bedrooms: "Bedrooms must be one of 1, 2, 3, 4, 5+",
      bathrooms: "Bathrooms must be one of 1, 1.5, 2, 2.5, 3, 3.5, 4+",
      householdIncome: "Household income must be one of 50k-100k, 100k-150k, 150k-200k, 200k-300k, over-300k",
      preferredTime: "Preferred time must be one of morning, afternoon, evening",
      accessMethod: "Access method must be one of owner-present, key-code, lockbox, property-manager",
      completedAt: "completedAt must be an ISO timestamp",
    });
    expect(await counts()).toEqual(before);
  });

  it("serves the same wizard at /onboarding and /onboarding-flow", async () => {
    for (const path of ["/onboarding", "/onboarding-flow"]) {
      const page = await ctx.agent().get(path).expect(200);
      expect(page.text).toContain('data-island="onboarding/OnboardingWizard"');
      expect(page.text).toContain(minDate());
      expect(page.text).not.toContain("data-site-nav");
    }
  });
});
