// the same browser sending the same wizard payload again, during and after its first
// success, books once; the same browser and e-mail with another date books that date for the same home.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LEAD_MESSAGE } from "../../src/modules/bookings/bookings.constants.js";
import { addDays } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const calendar = () => ctx.container.bookings.calendar();

const wizard = (over: Record<string, unknown> = {}) => ({
  propertyAddress: "48 Rideau Terrace, Ottawa, ON K1M 2C3",
  propertyType: "single-family",
  propertySize: "2100",
  yearBuilt: "1962",
  firstName: "Noor",
  lastName: "Haddad",
  email: "noor@example.com",
  phone: "613-555-0142",
  scheduledDate: calendar().minDate,
  timeSlot: "1:30 PM",
  accessMethod: "meet-inspector",
  accessCode: "",
  accessInstructions: "",
  specialRequests: "",
  ...over,
});

const mailTo = async (email: string) =>
  Number(
    (
      await ctx.db.raw(
        `select count(*)::int as n from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
         where t.identifier = 'mail.send' and j.payload ->> 'to' ilike ?`,
        [email],
      )
    ).rows[0].n,
  );
const recordsOf = async (email: string) => {
  const customers = await ctx.db("customers").whereRaw("lower(email) = lower(?)", [email]).pluck("id");
  return {
    customers: customers.length,
    properties: await ctx
      .db("properties")
      .whereIn("customer_id", customers)
      .count({ n: "*" })
      .first()
      .then((r) => Number(r!.n)),
    bookings: await ctx
      .db("inspection_bookings")
      .whereIn("customer_id", customers)
      .count({ n: "*" })
      .first()
      .then((r) => Number(r!.n)),
    mail: await mailTo(email),
  };
};

describe("re-submitting the scheduling wizard", () => {
  it("20 identical submissions, concurrent and then after the first success, make 1 booking; another date reuses the customer and home", async () => {
    const agent = ctx.agent();
    const concurrent = await Promise.all(
      Array.from({ length: 10 }, () => agent.post("/api/inspection-bookings").send(wizard())),
    );
    expect(concurrent.map((r) => r.status)).toEqual(concurrent.map(() => 201));
    const first = concurrent[0]!.body;
    // The browser now holds the customer in its cookie: the same payload again, one by one and at once.
    const after = [];
    for (let i = 0; i < 5; i++) after.push(await agent.post("/api/inspection-bookings").send(wizard()));
    after.push(
      ...(await Promise.all(Array.from({ length: 5 }, () => agent.post("/api/inspection-bookings").send(wizard())))),
    );
    for (const res of [...concurrent, ...after]) {
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        id: first.id,
        customerId: first.customerId,
        propertyId: first.propertyId,
        scheduledDate: calendar().minDate,
        timeSlot: "1:30 PM",
      });
    }
    expect(await recordsOf("noor@example.com")).toEqual({ customers: 1, properties: 1, bookings: 1, mail: 1 });

    // The same browser and e-mail (another case), another date: the same customer and home, a second booking and e-mail.
    const later = addDays(calendar().minDate, 2);
    const second = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "Noor@Example.com", scheduledDate: later }))
      .expect(201);
    expect(second.body).toMatchObject({
      customerId: first.customerId,
      propertyId: first.propertyId,
      scheduledDate: later,
    });
    expect(second.body.id).not.toBe(first.id);
    // …and that one, sent again, is that booking again.
    const again = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "NOOR@example.com", scheduledDate: later }))
      .expect(201);
    expect(again.body.id).toBe(second.body.id);
    expect(await recordsOf("noor@example.com")).toEqual({ customers: 1, properties: 1, bookings: 2, mail: 2 });

    const mine = await agent.get("/api/inspection-bookings").expect(200);
    expect(mine.body.map((b: { id: number }) => b.id)).toEqual([first.id, second.body.id]);
  });

  it("the same date at another slot is another booking of the same home; a cancelled booking is not given back", async () => {
    const agent = ctx.agent();
    const email = "slots@example.com";
    const first = await agent.post("/api/inspection-bookings").send(wizard({ email })).expect(201);
    const other = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email, timeSlot: "3:00 PM" }))
      .expect(201);
    expect(other.body).toMatchObject({
      customerId: first.body.customerId,
      propertyId: first.body.propertyId,
      timeSlot: "3:00 PM",
    });
    expect(other.body.id).not.toBe(first.body.id);

    await ctx.db("inspection_bookings").where({ id: first.body.id }).update({ status: "cancelled" });
    const rebooked = await agent.post("/api/inspection-bookings").send(wizard({ email })).expect(201);
    expect(rebooked.body.id).not.toBe(first.body.id);
    expect(await recordsOf(email)).toEqual({ customers: 1, properties: 1, bookings: 3, mail: 3 });
  });

  it("another address or another e-mail from the same browser is a new customer and home, as before", async () => {
    const agent = ctx.agent();
    const first = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "two-homes@example.com" }))
      .expect(201);
    const otherHome = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "two-homes@example.com", propertyAddress: "5 Elgin Street, Ottawa, ON K1P 5W1" }))
      .expect(201);
    expect(otherHome.body.propertyId).not.toBe(first.body.propertyId);
    const otherPerson = await agent
      .post("/api/inspection-bookings")
      .send(wizard({ email: "partner@example.com" }))
      .expect(201);
    expect(otherPerson.body.customerId).not.toBe(first.body.customerId);
    expect(otherPerson.body.propertyId).not.toBe(first.body.propertyId);
  });

  it("another browser sending the same payload never gets the first browser's customer, and its own repeat books once", async () => {
    const email = "shared-payload@example.com";
    const owner = ctx.agent();
    const first = await owner.post("/api/inspection-bookings").send(wizard({ email })).expect(201);
    await owner
      .post("/api/inspection-bookings")
      .send(wizard({ email, scheduledDate: addDays(calendar().minDate, 3) }))
      .expect(201);

    // A browser with a customer of its own (so its submission is not the owner's very first one).
    const stranger = ctx.agent();
    await stranger
      .post("/api/inspection-bookings")
      .send(wizard({ email: "stranger@example.com" }))
      .expect(201);
    const theirs = await stranger.post("/api/inspection-bookings").send(wizard({ email })).expect(201);
    expect(theirs.body.customerId).not.toBe(first.body.customerId);
    const repeat = await stranger.post("/api/inspection-bookings").send(wizard({ email })).expect(201);
    expect(repeat.body.id).toBe(theirs.body.id);
    // The owner's list still shows only the owner's bookings.
    const ownerList = await owner.get("/api/inspection-bookings").expect(200);
    expect(ownerList.body.every((b: { customerId: number }) => b.customerId === first.body.customerId)).toBe(true);
  });
});

describe("re-submitting onboarding", () => {
  const form = (over: Record<string, unknown> = {}) => ({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada-again@example.com",
    phone: "306 555 0199",
    address: "221 Spadina Cres",
    city: "Saskatoon",
    province: "SK",
    postalCode: "s7k1a1",
    squareFootage: "1850",
    yearBuilt: "1962",
    bedrooms: "3",
    bathrooms: "1.5",
    ownershipType: "owner",
    householdIncome: "100k-150k",
    occupation: "professional",
    preferredDate: calendar().minDate,
    preferredTime: "morning",
    accessMethod: "owner-present",
    completedAt: new Date().toISOString(),
    ...over,
  });

  it("books once for the same browser, e-mail, home, date and time; another date reuses the customer and home", async () => {
    const agent = ctx.agent();
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => agent.post("/api/onboarding").send(form())));
    expect(concurrent.map((r) => r.status)).toEqual(concurrent.map(() => 201));
    const first = concurrent[0]!.body;
    for (let i = 0; i < 3; i++) {
      const again = await agent
        .post("/api/onboarding")
        .send(form({ email: "ADA-again@example.com", postalCode: "S7K 1A1" }))
        .expect(201);
      expect(again.body).toEqual(first);
    }
    expect(await recordsOf("ada-again@example.com")).toEqual({ customers: 1, properties: 1, bookings: 1, mail: 1 });

    const later = addDays(calendar().minDate, 1);
    const second = await agent
      .post("/api/onboarding")
      .send(form({ preferredDate: later }))
      .expect(201);
    expect(second.body.propertyId).toBe(first.propertyId);
    expect(second.body.bookingId).not.toBe(first.bookingId);
    expect(await recordsOf("ada-again@example.com")).toEqual({ customers: 1, properties: 1, bookings: 2, mail: 2 });

    // Saved again without a date: the same home, nothing new.
    const saved = await agent
      .post("/api/onboarding")
      .send(form({ preferredDate: "", preferredTime: "", accessMethod: "" }))
      .expect(201);
    expect(saved.body.propertyId).toBe(first.propertyId);
    expect(await recordsOf("ada-again@example.com")).toEqual({ customers: 1, properties: 1, bookings: 2, mail: 2 });
  });
});

describe("the wizard's date rule", () => {
  // The routes keep the payload's schema for a day (docs/decisions.md#84): the next day's rule must still apply.
  it("checks a date against the day the wizard is sent, not the day the schema was made", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    try {
      const { minDate } = calendar();
      const today = await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ email: "lead-today@example.com", scheduledDate: minDate }));
      expect([201, 409]).toContain(today.status);
      vi.setSystemTime(Date.now() + 86_400_000);
      expect(calendar().minDate).toBe(addDays(minDate, 1));
      const tomorrow = await ctx
        .agent()
        .post("/api/inspection-bookings")
        .send(wizard({ email: "lead-tomorrow@example.com", scheduledDate: minDate }))
        .expect(400);
      expect(tomorrow.body.fields.scheduledDate).toBe(LEAD_MESSAGE);
    } finally {
      vi.useRealTimers();
    }
  });
});
