import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACCESS_INFO_MESSAGE,
  LEAD_MESSAGE,
  WIZARD_ACCESS_MESSAGE,
  WIZARD_MISSING_MESSAGE,
} from "../../src/modules/bookings/bookings.schemas.js";
import { TIME_SLOTS, addDays, isWeekday } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const calendar = () => ctx.container.bookings.calendar();

const wizard = (over: Record<string, unknown> = {}) => ({
  propertyAddress: "12 Elm Street, Saskatoon, SK S7K 1A1",
  propertyType: "single-family",
  propertySize: "2400",
  yearBuilt: "1987",
  firstName: "Jo",
  lastName: "Homeowner",
  email: "jo@example.com",
  phone: "306-555-0100",
  scheduledDate: calendar().minDate,
  timeSlot: "9:30 AM",
  accessMethod: "meet-inspector",
  accessCode: "",
  accessInstructions: "",
  specialRequests: "Please check the attic",
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

describe("POST /api/inspection-bookings with the wizard payload", () => {
  it("creates the customer, the property and the booking, and remembers the customer in the cookie", async () => {
    const before = await counts();
    const agent = ctx.agent();
    const res = await agent.post("/api/inspection-bookings").send(wizard()).expect(201);
    expect(String(res.headers["set-cookie"])).toContain("haven_session=");
    expect(res.body).toMatchObject({
      scheduledDate: calendar().minDate,
      timeSlot: "9:30 AM",
      accessMethod: "meet-inspector",
      specialRequests: "Please check the attic",
      status: "scheduled",
      source: "wizard",
      address: "12 Elm Street",
      city: "Saskatoon",
      province: "SK",
      postalCode: "S7K 1A1",
      clientName: "Jo Homeowner",
      clientEmail: "jo@example.com",
    });
    expect(await counts()).toEqual({
      customers: before.customers + 1,
      properties: before.properties + 1,
      bookings: before.bookings + 1,
      mail: before.mail + 1,
    });
    const property = await ctx.db("properties").where({ id: res.body.propertyId }).first();
    expect(property).toMatchObject({
      property_type: "single-family",
      square_footage: 2400,
      year_built: 1987,
      subscription_plan: "free-score",
    });

    const mine = await agent.get("/api/inspection-bookings").expect(200);
    expect(mine.body.map((b: { id: number }) => b.id)).toEqual([res.body.id]);
  });

  it("stores the customer it creates in the wizard page's language; a language Haven does not speak is a 400 that writes nothing", async () => {
    const res = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ email: "camille@example.com", locale: "fr-CA" }))
      .expect(201);
    const booking = await ctx.db("inspection_bookings").where({ id: res.body.id }).first();
    expect(await ctx.db("customers").where({ id: booking.customer_id }).first()).toMatchObject({ locale: "fr-CA" });
    const before = await counts();
    const refused = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ email: "klingon@example.com", locale: "tlh" }))
      .expect(400);
    expect(refused.body.fields).toEqual({ locale: "Locale must be en-CA or fr-CA" });
    expect(await counts()).toEqual(before);
  });

  it("stores an Ottawa address line typed in lower case without a space as 'ON' and 'K1S 2B4' (docs/decisions.md#31)", async () => {
    const res = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ propertyAddress: "40 Fifth Avenue, Ottawa, on k1s2b4", email: "glebe@example.com" }))
      .expect(201);
    expect(res.body).toMatchObject({
      address: "40 Fifth Avenue",
      city: "Ottawa",
      province: "ON",
      state: null,
      postalCode: "K1S 2B4",
    });
  });

  it("keeps an address it cannot split whole, with an empty city", async () => {
    const res = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ propertyAddress: "Lot 7 Range Road 42" }))
      .expect(201);
    expect(res.body).toMatchObject({ address: "Lot 7 Range Road 42", city: "" });
  });

  it("names every missing field and writes nothing", async () => {
    const before = await counts();
    const res = await ctx.agent().post("/api/inspection-bookings").send({}).expect(400);
    expect(res.body.message).toBe("Please fill in all required fields.");
    expect(Object.keys(res.body.fields).sort()).toEqual(
      [
        "accessMethod",
        "email",
        "firstName",
        "lastName",
        "phone",
        "propertyAddress",
        "propertySize",
        "propertyType",
        "scheduledDate",
        "timeSlot",
      ].sort(),
    );
    expect(res.body.fields.propertyType).toBe("Property type is required");
    expect(res.body.fields.scheduledDate).toBe("Inspection date is required");
    expect(await counts()).toEqual(before);
  });

  it("says 'Please fill in all required fields.' whenever one is missing, and names each with its own message", async () => {
    const before = await counts();
    const some = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ phone: "", propertyType: undefined, accessMethod: "lockbox" }))
      .expect(400);
    expect(some.body.message).toBe(WIZARD_MISSING_MESSAGE);
    expect(some.body.fields).toEqual({ propertyType: "Property type is required", phone: "Phone is required" });
    // Only blank text fields: still the spec's submit message.
    const blank = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ firstName: "  " }))
      .expect(400);
    expect(blank.body).toEqual({ message: WIZARD_MISSING_MESSAGE, fields: { firstName: "First name is required" } });
    // Nothing missing: the first problem's own message leads.
    const bad = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ email: "nope" }))
      .expect(400);
    expect(bad.body).toEqual({
      message: "Enter a valid email address",
      fields: { email: "Enter a valid email address" },
    });
    expect(await counts()).toEqual(before);
  });

  it("refuses a NUL character in any text field with a 400 naming it, and writes nothing", async () => {
    const before = await counts();
    const NUL = "Contains a character that is not allowed (NUL)";
    for (const field of [
      "propertyAddress",
      "firstName",
      "lastName",
      "email",
      "phone",
      "accessCode",
      "accessInstructions",
      "specialRequests",
    ]) {
      const res = await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ accessMethod: "lockbox", accessCode: "12", [field]: "x\u0000y" }))
        .expect(400);
      expect(res.body.fields[field], field).toBe(NUL);
    }
    // The booking page's notes too, for a property this browser owns.
    const agent = ctx.agent();
    const { body: mine } = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "nul@example.com" }))
      .expect(201);
    const afterOwn = await counts();
    const notes = await agent
      .post("/api/inspection-bookings")
      .send({
        propertyId: mine.propertyId,
        scheduledDate: calendar().bookingDates[0],
        timeSlot: "morning",
        notes: "\u0000",
      })
      .expect(400);
    expect(notes.body).toEqual({ message: NUL, fields: { notes: NUL } });
    expect(await counts()).toEqual(afterOwn);
    expect(afterOwn.bookings).toBe(before.bookings + 1);
  });

  it("refuses values outside the enumerations and bad formats", async () => {
    const res = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(
        wizard({
          propertyType: "castle",
          accessMethod: "chimney",
          email: "not-an-email",
          propertySize: "big",
          yearBuilt: "3020",
          scheduledDate: "2026-02-30",
        }),
      )
      .expect(400);
    expect(res.body.fields).toMatchObject({
      propertyType: "Property type must be one of single-family, townhouse, condo, duplex, other",
      accessMethod: "Access method must be one of meet-inspector, lockbox, smart-lock",
      email: "Enter a valid email address",
      propertySize: "Property size must be a number",
      yearBuilt: "Year built cannot be in the future",
      scheduledDate: "Inspection date must be a date (YYYY-MM-DD)",
    });
  });

  it("enforces the 4-day lead in the business time zone", async () => {
    const before = await counts();
    const early = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ scheduledDate: addDays(calendar().today, 3) }))
      .expect(400);
    expect(early.body).toMatchObject({ message: LEAD_MESSAGE, fields: { scheduledDate: LEAD_MESSAGE } });
    await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ scheduledDate: calendar().today }))
      .expect(400);
    expect(await counts()).toEqual(before);
    await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ scheduledDate: addDays(calendar().today, 4) }))
      .expect(201);
  });

  it("accepts exactly the 30-minute slots from 8:00 AM to 8:00 PM", async () => {
    for (const slot of ["7:30 AM", "8:30 PM", "08:00 AM", "9:15 AM", "noon"]) {
      const res = await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ timeSlot: slot }))
        .expect(400);
      expect(res.body.fields.timeSlot, slot).toMatch(/^Time slot must be one of 8:00 AM, 8:30 AM/);
    }
    for (const slot of [TIME_SLOTS[0], "12:00 PM", "12:30 PM", TIME_SLOTS.at(-1)]) {
      await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ timeSlot: slot }))
        .expect(201);
    }
  });

  it("requires a code or instructions for lockbox and smart-lock", async () => {
    const before = await counts();
    for (const accessMethod of ["lockbox", "smart-lock"]) {
      const res = await ctx.agent().post("/api/inspection-bookings").send(wizard({ accessMethod })).expect(400);
      expect(res.body).toEqual({
        message: WIZARD_ACCESS_MESSAGE,
        fields: { accessCode: ACCESS_INFO_MESSAGE, accessInstructions: ACCESS_INFO_MESSAGE },
      });
      expect(res.body.message).toBe(
        "Access Information Required: Please provide access code or instructions for your selected access method.",
      );
      const blank = await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ accessMethod, accessCode: "   " }))
        .expect(400);
      expect(blank.body.message).toBe(WIZARD_ACCESS_MESSAGE);
    }
    expect(await counts()).toEqual(before);
    await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ accessMethod: "lockbox", accessCode: "4321" }))
      .expect(201);
    const res = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ accessMethod: "smart-lock", accessInstructions: "App invite sent" }))
      .expect(201);
    expect(res.body).toMatchObject({
      accessMethod: "smart-lock",
      accessCode: null,
      accessInstructions: "App invite sent",
    });
  });

  it("reuses the customer and property this browser created when the address matches", async () => {
    const agent = ctx.agent();
    const first = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "reuse@example.com" }))
      .expect(201);
    const before = await counts();
    const again = await agent
      .post("/api/inspection-bookings")
      // Another date: the same date and slot again would be the first booking given back.
      .send(
        wizard({
          customerId: first.body.customerId,
          propertyAddress: first.body.address,
          email: "reuse@example.com",
          scheduledDate: addDays(calendar().minDate, 1),
        }),
      )
      .expect(201);
    expect(again.body).toMatchObject({ customerId: first.body.customerId, propertyId: first.body.propertyId });
    expect(await counts()).toMatchObject({
      customers: before.customers,
      properties: before.properties,
      bookings: before.bookings + 1,
    });

    // Another browser naming that customer gets a customer of its own, never theirs.
    const stranger = await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send(wizard({ customerId: first.body.customerId, propertyAddress: first.body.address }))
      .expect(201);
    expect(stranger.body.customerId).not.toBe(first.body.customerId);
    expect(stranger.body.propertyId).not.toBe(first.body.propertyId);
  });
});

describe("POST /api/inspection-bookings with the booking page payload", () => {
  it("books a property this browser owns on one of the 14 weekdays, with a part of the day", async () => {
    const agent = ctx.agent();
    const { body: first } = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "page@example.com" }))
      .expect(201);
    const date = calendar().bookingDates[0]!;
    const res = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: date, timeSlot: "afternoon", notes: "Gate code 12" })
      .expect(201);
    expect(res.body).toMatchObject({
      propertyId: first.propertyId,
      customerId: first.customerId,
      scheduledDate: date,
      timeSlot: "afternoon",
      notes: "Gate code 12",
      source: "booking-page",
    });
    const mine = await agent.get("/api/inspection-bookings").expect(200);
    expect(mine.body.map((b: { id: number }) => b.id)).toEqual([first.id, res.body.id]);
  });

  it("gives the spec's messages and writes nothing", async () => {
    const agent = ctx.agent();
    const { body: first } = await agent.post("/api/inspection-bookings").send(wizard()).expect(201);
    const before = await counts();
    const noDate = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: "", timeSlot: "morning" })
      .expect(400);
    expect(noDate.body).toEqual({ message: "Please select a date", fields: { scheduledDate: "Please select a date" } });
    const noTime = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: calendar().bookingDates[1] })
      .expect(400);
    expect(noTime.body).toEqual({
      message: "Please select a time slot",
      fields: { timeSlot: "Please select a time slot" },
    });
    const wrongTime = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.propertyId, scheduledDate: calendar().bookingDates[1], timeSlot: "9:00 AM" })
      .expect(400);
    expect(wrongTime.body.fields.timeSlot).toBe("Please select a time slot");
    // Today, a weekend day and the 15th weekday are not offered.
    const weekend = [1, 2, 3, 4, 5, 6, 7].map((n) => addDays(calendar().today, n)).find((d) => !isWeekday(d))!;
    const fifteenth = [1, 2, 3, 4, 5].map((n) => addDays(calendar().bookingDates.at(-1)!, n)).find(isWeekday)!;
    for (const scheduledDate of [calendar().today, weekend, fifteenth, "someday"]) {
      const res = await agent
        .post("/api/inspection-bookings")
        .send({ propertyId: first.propertyId, scheduledDate, timeSlot: "morning" })
        .expect(400);
      expect(res.body.fields.scheduledDate, scheduledDate).toBe("Please select one of the offered dates");
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses another customer's property and an anonymous caller, as if it did not exist", async () => {
    const owner = ctx.agent();
    const { body: theirs } = await owner
      .post("/api/inspection-bookings")
      .send(wizard({ email: "owner@example.com" }))
      .expect(201);
    const other = ctx.agent();
    await other
      .post("/api/inspection-bookings")
      .send(wizard({ email: "other@example.com" }))
      .expect(201);
    const before = await counts();
    const payload = { propertyId: theirs.propertyId, scheduledDate: calendar().bookingDates[0], timeSlot: "morning" };
    expect((await other.post("/api/inspection-bookings").send(payload).expect(404)).body).toEqual({
      message: "No property found",
    });
    await ctx.agent().post("/api/inspection-bookings").send(payload).expect(404);
    await ctx
      .agent()
      .post("/api/inspection-bookings")
      .send({ ...payload, propertyId: 999_999 })
      .expect(404);
    expect(await counts()).toEqual(before);

    // An id beyond Postgres' integer range cannot exist: a 400 naming the field, not a 500.
    for (const propertyId of [99_999_999_999, "99999999999", 2_147_483_648]) {
      const res = await owner
        .post("/api/inspection-bookings")
        .send({ ...payload, propertyId })
        .expect(400);
      expect(res.body).toEqual({ message: "No property found", fields: { propertyId: "No property found" } });
    }
    await owner
      .post("/api/inspection-bookings")
      .send({ ...payload, propertyId: 1.5 })
      .expect(400);
    const wizardId = await owner
      .post("/api/inspection-bookings")
      .send(wizard({ customerId: 99_999_999_999 }))
      .expect(400);
    expect(wizardId.body.fields).toEqual({ customerId: "Customer id is not valid" });
    expect(await counts()).toEqual(before);

    // Staff may book any property.
    const { agent: staff } = await signInStaff(ctx);
    await staff.post("/api/inspection-bookings").send(payload).expect(201);
  });
});

describe("GET /api/inspection-bookings", () => {
  it("shows staff every booking, a customer only their own, and an anonymous caller nothing", async () => {
    const a = ctx.agent();
    const b = ctx.agent();
    const { body: aBooking } = await a
      .post("/api/inspection-bookings")
      .send(wizard({ email: "a@example.com" }))
      .expect(201);
    const { body: bBooking } = await b
      .post("/api/inspection-bookings")
      .send(wizard({ email: "b@example.com" }))
      .expect(201);
    const aList = (await a.get("/api/inspection-bookings").expect(200)).body as { id: number; clientEmail: string }[];
    expect(aList.map((x) => x.id)).toEqual([aBooking.id]);
    const bList = (await b.get("/api/inspection-bookings").expect(200)).body as { id: number }[];
    expect(bList.map((x) => x.id)).toEqual([bBooking.id]);
    expect((await ctx.agent().get("/api/inspection-bookings").expect(200)).body).toEqual([]);
    const { agent: staff } = await signInStaff(ctx);
    const all = (await staff.get("/api/inspection-bookings").expect(200)).body as {
      id: number;
      propertyId: number;
      preferredTime: string;
    }[];
    expect(all.length).toBe(await count("inspection_bookings"));
    expect(all.map((x) => x.id)).toEqual(expect.arrayContaining([aBooking.id, bBooking.id]));
    expect(all.find((x) => x.id === aBooking.id)).toMatchObject({
      propertyId: aBooking.propertyId,
      preferredTime: "9:30 AM",
    });
  });
});

describe("pages", () => {
  it("/schedule redirects to /schedule-inspection and keeps the query string", async () => {
    const res = await ctx.agent().get("/schedule?customer_id=5&plan=basic").expect(301);
    expect(res.headers.location).toBe("/schedule-inspection?customer_id=5&plan=basic");
    expect((await ctx.agent().get("/schedule").expect(301)).headers.location).toBe("/schedule-inspection");
  });

  it("/schedule-inspection shows the wizard with the footer and prefills only this browser's customer", async () => {
    const owner = ctx.agent();
    const { body } = await owner
      .post("/api/inspection-bookings")
      .send(wizard({ email: "prefill@example.com", firstName: "Pat", lastName: "Van Dyke" }))
      .expect(201);
    const page = await owner.get(`/schedule-inspection?customer_id=${body.customerId}&plan=standard`).expect(200);
    expect(page.text).toContain('data-island="bookings/ScheduleWizard"');
    expect(page.text).toContain("<footer");
    expect(page.text).toContain("prefill@example.com");
    expect(page.text).toContain("Van Dyke");
    expect(page.text).toContain("Standard");
    // The lead says what is left, not what was already given (docs/decisions.md#66).
    const lead = (html: string) => html.match(/data-testid="wizard-lead">([^<]*)</)?.[1] ?? "";
    expect(lead(page.text)).toContain("What is left: the type of home and a time that suits you.");
    expect(lead(page.text)).not.toContain("Tell us about your property");

    const stranger = await ctx
      .agent()
      .get(`/schedule-inspection?customer_id=${body.customerId}&plan=standard`)
      .expect(200);
    expect(stranger.text).not.toContain("prefill@example.com");
    expect(lead(stranger.text)).toContain("Tell us about your property, how to reach you and a time that suits you.");
    await ctx.agent().get("/schedule-inspection?customer_id=abc&plan=gold").expect(200);
  });

  it("/book-inspection offers the server's 14 weekdays and /booking-confirmation renders", async () => {
    const page = await ctx.agent().get("/book-inspection").expect(200);
    expect(page.text).toContain('data-island="bookings/BookInspection"');
    for (const date of calendar().bookingDates) expect(page.text).toContain(date);
    const confirmation = await ctx.agent().get("/booking-confirmation").expect(200);
    expect(confirmation.text).toContain('data-island="bookings/BookingConfirmation"');
    expect(confirmation.text).toContain(ctx.env.SUPPORT_EMAIL);
  });
});
