// The plan's first annual inspection (docs/decisions.md#26): a year after the home's last inspection, done or
// booked, and two weeks after the start only for a home with neither. The purchase journey books the first
// inspection after the plan starts: that booking moves the due date to a year after it, so no "Annual home
// inspection due" sits two weeks after an inspection the homeowner just had. Real Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { suiteToday } from "../support/clock.js";

const TZ = "America/Toronto";
let ctx: TestContext;
let n = 0;

async function home() {
  n += 1;
  const email = `first.inspection.${n}@example.com`;
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: "Homeowner", phone: "613-555-0101", subscriptionPlan: "free-score" },
    { address: `${n} Maple Way`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1800 },
  );
  return { email, customerId: customer.id, propertyId: property.id };
}

async function subscribe(
  owner: { email: string; customerId: number; propertyId: number },
  plan: PlanType = "standard",
) {
  const ref = `cs_first_${owner.propertyId}`;
  const now = new Date();
  await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: ref,
      planType: plan,
      amountCents: 37000,
      payerEmail: owner.email,
      payerName: "Homeowner",
      cardNumber: "4242424242424242",
    },
    now,
  );
  await ctx.container.transaction((tx) =>
    ctx.container.subscriptions.attachToProperty(
      ref,
      { customerId: owner.customerId, propertyId: owner.propertyId },
      tx,
      now,
    ),
  );
}

const book = (owner: { email: string; customerId: number; propertyId: number }, date: string) =>
  ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: owner.propertyId,
        customerId: owner.customerId,
        scheduledDate: date,
        timeSlot: "morning",
        source: "wizard",
      },
      { email: owner.email, name: "Homeowner" },
    ),
  );

/** The health report's schedule start (its due date) and its open due tasks. */
async function annual(propertyId: number) {
  const schedule = await ctx
    .db("maintenance_schedules")
    .where({ property_id: propertyId, plan_service: "health-report" })
    .first();
  const open = await ctx
    .db("maintenance_tasks")
    .where({ schedule_id: schedule.id })
    .whereIn("status", ["pending", "scheduled"])
    .orderBy("scheduled_date")
    .pluck("scheduled_date");
  return { due: schedule.start_date as string, open: open as string[] };
}

const yearAfter = (date: string) => `${Number(date.slice(0, 4)) + 1}${date.slice(4)}`;

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

describe("the first annual inspection", () => {
  const today = () => suiteToday(TZ);

  it("a home with no inspection, done or booked: two weeks after the start", async () => {
    const owner = await home();
    await subscribe(owner);
    expect(await annual(owner.propertyId)).toEqual({ due: addDays(today(), 14), open: [addDays(today(), 14)] });
  });

  it("a home whose inspection is booked before the plan starts: a year after the booking, no due task now", async () => {
    const owner = await home();
    const date = addDays(today(), 5);
    await book(owner, date);
    await subscribe(owner);
    expect(await annual(owner.propertyId)).toEqual({ due: yearAfter(date), open: [] });
  });

  it("the purchase journey (plan first, then the booking): the booking moves the due date a year after it", async () => {
    const owner = await home();
    await subscribe(owner);
    // Before the fix, this two-weeks task stayed beside the inspection just booked.
    expect((await annual(owner.propertyId)).open).toEqual([addDays(today(), 14)]);
    const date = addDays(today(), 6);
    await book(owner, date);
    expect(await annual(owner.propertyId)).toEqual({ due: yearAfter(date), open: [] });
    const cancelled = await ctx
      .db("maintenance_tasks as t")
      .join("maintenance_schedules as s", "s.id", "t.schedule_id")
      .where({ "s.property_id": owner.propertyId, "s.plan_service": "health-report" })
      .pluck("t.status");
    expect(cancelled).toEqual(["cancelled"]);
  });

  it("a home inspected recently: a year after that inspection", async () => {
    const owner = await home();
    const done = addDays(today(), -10);
    await ctx.db("inspections").insert({
      property_id: owner.propertyId,
      status: "completed",
      completed_at: new Date(`${done}T16:00:00Z`),
      inspection_date: done,
    });
    await subscribe(owner);
    expect(await annual(owner.propertyId)).toEqual({ due: yearAfter(done), open: [] });
  });

  it("a booking made for a home without a plan changes nothing", async () => {
    const owner = await home();
    await book(owner, addDays(today(), 7));
    expect(await ctx.db("maintenance_schedules").where({ property_id: owner.propertyId })).toEqual([]);
  });
});
