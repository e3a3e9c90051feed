// One booking rule everywhere (docs/decisions.md#37): My Home offers and accepts only the times the inspectors'
// calendars have free, as the wizard does, and answers a lost time with "That time was just taken" and fresh
// times; the property type chosen in the wizard is saved on the home it books.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, dayOfWeek, earliestInspectionDate } from "../../src/shared/business-time.js";
import { seedDemo } from "../../seeds/demo/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";

const TZ = "America/Toronto";
const OWNER = "rule.owner@example.com";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
});
afterAll(() => ctx.close());

async function inspector(name: string, hours: { weekdays: string; from: string; to: string }) {
  const email = `${name.toLowerCase()}-${randomBytes(2).toString("hex")}@haven.test`;
  const user = await ctx.container.users.create({
    email,
    password: "correct horse battery",
    firstName: name,
    lastName: "Inspector",
    role: "inspector",
  });
  await ctx.container.inspectors.setHours(email, hours);
  return { ...user, email };
}

async function homeWithBooking(email: string, address: string, date: string, slot: string) {
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: "Rule Owner", phone: "613-555-0142", subscriptionPlan: "free-score" },
    { address, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1500, yearBuilt: 1950 },
  );
  const booking = await ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      { propertyId: property.id, customerId: customer.id, scheduledDate: date, timeSlot: slot, source: "booking-page" },
      { email, name: "Rule Owner" },
    ),
  );
  return { customer, property, booking };
}

/** The first date on or after `from` that falls on this weekday (0 = Sunday). */
const nextWeekday = (from: string, day: number) => {
  let d = from;
  while (dayOfWeek(d) !== day) d = addDays(d, 1);
  return d;
};

describe("the wizard saves the property type it asks on the home it books", () => {
  it("a second booking of the same home with another type updates the home's type", async () => {
    const agent = ctx.agent();
    const payload = {
      propertyAddress: "8 Type Street, Ottawa, ON K1S 2B4",
      propertyType: "townhouse",
      propertySize: "1500",
      firstName: "Tee",
      lastName: "Ype",
      email: "type@example.com",
      phone: "613-555-0101",
      scheduledDate: ctx.container.bookings.calendar().minDate,
      timeSlot: "9:00 AM",
      accessMethod: "meet-inspector",
    };
    const first = await agent.post("/api/inspection-bookings").send(payload).expect(201);
    expect((await ctx.db("properties").where({ id: first.body.propertyId }).first()).property_type).toBe("townhouse");
    const second = await agent
      .post("/api/inspection-bookings")
      .send({ ...payload, propertyType: "condo", scheduledDate: addDays(payload.scheduledDate, 1) })
      .expect(201);
    expect(second.body.propertyId).toBe(first.body.propertyId);
    const row = await ctx.db("properties").where({ id: first.body.propertyId }).first();
    expect(row).toMatchObject({ property_type: "condo", square_footage: 1500 });
  });
});

describe("My Home's reschedule follows the inspectors' calendars", () => {
  let weekdayInspector: { id: number };
  const lead = () => earliestInspectionDate(TZ);

  beforeAll(async () => {
    // One inspector, Monday to Friday 8 to 5: no weekend, no evening.
    weekdayInspector = await inspector("Wendy", { weekdays: "mon-fri", from: "08:00", to: "17:00" });
  });

  it("offers only dates and parts of the day at which an inspector is free, and refuses the others", async () => {
    const monday = nextWeekday(addDays(lead(), 1), 1);
    const { booking } = await homeWithBooking(OWNER, "1 Rule Street", monday, "morning");
    expect(booking.inspectorId).toBe(weekdayInspector.id);
    const owner = await signInHome(ctx, OWNER);

    const page = await owner.get(`/my-home/visits/bookings/${booking.id}`).expect(200);
    const { body: view } = await owner.get("/api/my-home/visits").expect(200);
    const offered: { date: string; slots: string[] }[] = view.reschedule.days;
    expect(offered.length).toBeGreaterThan(0);
    for (const day of offered) {
      expect([0, 6]).not.toContain(dayOfWeek(day.date));
      expect(day.slots).not.toContain("evening");
    }
    const sunday = nextWeekday(lead(), 0);
    expect(page.text).not.toContain(`value="${sunday}|`);
    expect(page.text).not.toContain("|evening");
    expect(page.text).toContain(`value="${offered[0]!.date}|${offered[0]!.slots[0]}"`);

    // Sunday and an evening are refused and change nothing.
    const refused = await owner
      .patch(`/api/my-home/bookings/${booking.id}`)
      .send({ scheduledDate: sunday, timeSlot: "morning" })
      .expect(409);
    expect(refused.body.message).toBe("That time was just taken");
    expect(refused.body.reschedule.dates).not.toContain(sunday);
    const tuesday = addDays(monday, 1);
    await owner
      .patch(`/api/my-home/bookings/${booking.id}`)
      .send({ scheduledDate: tuesday, timeSlot: "evening" })
      .expect(409);
    expect(await ctx.db("inspection_bookings").where({ id: booking.id }).first()).toMatchObject({
      scheduled_date: monday,
      time_slot: "morning",
    });

    // An offered time moves it, with the inspector.
    const { body: moved } = await owner
      .patch(`/api/my-home/bookings/${booking.id}`)
      .send({ scheduledDate: tuesday, timeSlot: "afternoon" })
      .expect(200);
    expect(moved).toMatchObject({ scheduledDate: tuesday, timeSlot: "afternoon", inspectorId: weekdayInspector.id });
  });

  it("a time taken meanwhile is a 409 'That time was just taken' with the times still free, on the API and the page", async () => {
    const wednesday = nextWeekday(addDays(lead(), 1), 3);
    const email = "race.owner@example.com";
    const { booking } = await homeWithBooking(email, "2 Race Street", nextWeekday(addDays(lead(), 1), 4), "morning");
    const owner = await signInHome(ctx, email);
    const before = await owner.get(`/my-home/visits/bookings/${booking.id}`).expect(200);
    expect(before.text).toContain(`value="${wednesday}|afternoon"`);
    // Someone else takes the only inspector's Wednesday afternoon.
    await homeWithBooking("other.home@example.com", "3 Other Street", wednesday, "afternoon");

    const lost = await owner
      .patch(`/api/my-home/bookings/${booking.id}`)
      .send({ scheduledDate: wednesday, timeSlot: "afternoon" })
      .expect(409);
    expect(lost.body).toMatchObject({ message: "That time was just taken", fields: { timeSlot: expect.any(String) } });
    const wed = lost.body.reschedule.days.find((d: { date: string }) => d.date === wednesday);
    expect(wed?.slots ?? []).not.toContain("afternoon");

    const page = await owner
      .post(`/my-home/visits/bookings/${booking.id}/reschedule`)
      .type("form")
      .send({ when: `${wednesday}|afternoon` })
      .expect(409);
    expect(page.text).toContain("That time was just taken");
    expect(page.text).not.toContain(`value="${wednesday}|afternoon"`);
    expect((await ctx.db("inspection_bookings").where({ id: booking.id }).first()).scheduled_date).not.toBe(wednesday);
  });

  it("onboarding answers a taken time with the wizard's 409 on its own field, with fresh times, and writes nothing", async () => {
    const thursday = nextWeekday(addDays(lead(), 1), 4);
    // Nobody works Sunday, and 'race.owner' holds the only inspector's Thursday morning.
    const payload = {
      firstName: "Ona",
      lastName: "Board",
      email: "ona.board@example.com",
      phone: "613 555 0199",
      address: "5 Onboard Lane",
      city: "Ottawa",
      province: "ON",
      postalCode: "K1S 2B4",
      squareFootage: "1850",
      yearBuilt: "1962",
      bedrooms: "3",
      bathrooms: "1.5",
      ownershipType: "owner",
      householdIncome: "100k-150k",
      occupation: "professional",
      preferredDate: thursday,
      preferredTime: "morning",
      accessMethod: "key-code",
      accessCode: "2468",
      completedAt: new Date().toISOString(),
    };
    const customersBefore = await ctx.db("customers").count({ n: "*" }).first();
    for (const taken of [
      { preferredDate: thursday, preferredTime: "morning" },
      { preferredDate: nextWeekday(lead(), 0), preferredTime: "afternoon" },
    ]) {
      const res = await ctx
        .agent()
        .post("/api/onboarding")
        .send({ ...payload, ...taken });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject({
        message: "That time was just taken",
        fields: { preferredTime: "That time was just taken" },
      });
      const day = res.body.availability.days.find((d: { date: string }) => d.date === taken.preferredDate);
      expect(day?.parts ?? []).not.toContain(taken.preferredTime);
    }
    expect(await ctx.db("customers").count({ n: "*" }).first()).toEqual(customersBefore);
    await ctx
      .agent()
      .post("/api/onboarding")
      .send({ ...payload, preferredTime: "afternoon" })
      .expect(201);
  });
});

describe("a deactivated inspector's future bookings", () => {
  it("go to another inspector free then, or stay unassigned for the office", async () => {
    // Runs after the My Home tests: Wendy (Monday to Friday 8 to 5) is set up; Xavier works Fridays only.
    const wendy = await ctx.db("staff_users").where({ first_name: "Wendy" }).first();
    const xavier = await inspector("Xavier", { weekdays: "fri", from: "08:00", to: "17:00" });
    const start = addDays(earliestInspectionDate(TZ), 7);
    const friday = nextWeekday(start, 5);
    const monday = nextWeekday(start, 1);
    const { booking: fri } = await homeWithBooking("fri.home@example.com", "7 Friday Road", friday, "morning");
    const { booking: mon2 } = await homeWithBooking("mon2.home@example.com", "9 Monday Road", monday, "afternoon");
    // The least loaded on Friday was Wendy or Xavier; make sure Wendy holds it, as the office may.
    const owner = await signInStaff(ctx);
    await owner.agent.patch(`/api/inspection-bookings/${fri.id}`).send({ inspectorId: wendy.id }).expect(200);
    expect(mon2.inspectorId).toBe(wendy.id);
    await owner.agent.patch(`/api/staff-users/${wendy.id}`).send({ active: false }).expect(200);
    const inspectorOf = async (id: number) => (await ctx.db("inspection_bookings").where({ id }).first()).inspector_id;
    expect(await inspectorOf(fri.id)).toBe(xavier.id);
    expect(await inspectorOf(mon2.id)).toBeNull();
  });
});

describe("the demo's inspections", () => {
  it("take their booking's inspector", async () => {
    const demo = await createTestContext();
    try {
      await seedDemo(demo.container, { properties: 12, inspectors: true, extras: false });
      const rows = await demo
        .db("inspections as i")
        .join("inspection_bookings as b", "b.id", "i.booking_id")
        .whereNotNull("b.inspector_id")
        .select("i.inspector_id as inspection", "b.inspector_id as booking");
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.inspection).toBe(row.booking);
    } finally {
      await demo.close();
    }
  });
});
