// Plan visits the homeowner moves, skips and restores in My Home (docs/decisions.md#44): each rule, the row kept
// when skipped, the expansion not bringing a moved visit back, the annual inspection booked at a free time, the
// office's bell and the homeowner's e-mail (with the visit's .ics holding the 8 AM–5 PM window), repeats that
// change nothing, another homeowner's 404, and the JSON calls and pages. Real Postgres; the rules' clock is `now`.
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn, zonedInstant } from "../../src/shared/business-time.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { signInHome } from "../support/home.js";

const TZ = "America/Toronto";
const ANNA = "anna.planvisits@example.com";
const OTHER = "omar.other@example.com";
/** A Tuesday far ahead, so the booking rules' real "today" never reaches the test's dates. */
const START = "2030-01-08";
const NOW = zonedInstant(START, "12:00", TZ);

let ctx: TestContext;
let propertyId = 0;
let otherPropertyId = 0;

type Row = { id: number; scheduled_date: string; status: string; plan_service: string; version: number };

async function home(email: string, address: string) {
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: "Anna Owner", phone: "613-555-0101", subscriptionPlan: "free-score" },
    { address, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1800, yearBuilt: 1990 },
  );
  return { customerId: customer.id, propertyId: property.id };
}

/** A demo subscription started at `now`, attached to the home (the container syncs its plan services). */
async function subscribe(owner: { customerId: number; propertyId: number }, email: string, plan: PlanType, now: Date) {
  const ref = `cs_${owner.propertyId}`;
  const amount = { basic: 14900, standard: 37000, premium: 79900 }[plan];
  await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: ref,
      planType: plan,
      amountCents: amount,
      payerEmail: email,
      payerName: "Owner",
      cardNumber: "4242424242424242",
    },
    now,
  );
  await ctx.container.transaction((tx) => ctx.container.subscriptions.attachToProperty(ref, owner, tx, now));
}

const visits = async (property: number, service: string): Promise<Row[]> =>
  (
    await ctx.db.raw(
      `select t.id, t.scheduled_date, t.status, s.plan_service, t.version from maintenance_tasks t
         join maintenance_schedules s on s.id = t.schedule_id
        where t.property_id = ? and s.plan_service = ? order by t.scheduled_date`,
      [property, service],
    )
  ).rows;
const notifications = async (kind: string) =>
  (await ctx.db("notifications").where({ kind }).orderBy("id").select("text", "record_id")) as {
    text: string;
    record_id: string;
  }[];
type Mail = { subject: string; to: string; text: string; attachments?: { content: string }[] };
const mails = async (): Promise<Mail[]> =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map(
    (r: { payload: { subject: string; to: string; text: string; attachments?: { content: string }[] } }) => r.payload,
  );
const change = (
  id: number,
  action: "move" | "skip" | "unskip",
  extra: { date?: string; timeSlot?: string } = {},
  now = NOW,
) => ctx.container.homeVisits.changePlanVisit(ANNA, id, { action, ...extra }, now);
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as { status: number; message: string; fields?: Record<string, string> };
  }
  throw new Error("expected a refusal");
};

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  const anna = await home(ANNA, "5 Birch Lane");
  const other = await home(OTHER, "8 Cedar Court");
  propertyId = anna.propertyId;
  otherPropertyId = other.propertyId;
  await subscribe(anna, ANNA, "premium", NOW);
  await subscribe(other, OTHER, "premium", NOW);
});
afterAll(() => ctx.close());

describe("skipping and restoring", () => {
  it("skips a snow removal visit: the row stays, marked skipped; the bell rings once and the homeowner is e-mailed", async () => {
    const snow = await visits(propertyId, "snow-removal");
    // Weekly on the start's weekday: Jan 8, 15, 22…
    expect(snow.slice(0, 3).map((t) => t.scheduled_date)).toEqual(["2030-01-08", "2030-01-15", "2030-01-22"]);
    const target = snow[1]!;
    const mailsBefore = (await mails()).length;
    const first = await change(target.id, "skip");
    expect(first).toMatchObject({ changed: true, task: { status: "cancelled", scheduledDate: "2030-01-15" } });
    const row = await ctx.db("maintenance_tasks").where({ id: target.id }).first();
    expect(row.status).toBe("cancelled");
    expect(row.skipped_at).not.toBeNull();
    // Staff read it in the task's notes, as they read a homeowner's booking changes.
    expect(row.notes).toBe("Skipped by the homeowner in My Home on 2030-01-08.");
    // A repeat (a double click) changes nothing and tells nobody again.
    expect(await change(target.id, "skip")).toMatchObject({ changed: false });
    const bell = await notifications("visit-skipped");
    expect(bell).toHaveLength(1);
    expect(bell[0]!.text).toContain("skipped the plan visit of 2030-01-15");
    const sent = (await mails()).slice(mailsBefore);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: ANNA, subject: "Snow removal on Tuesday, January 15, 2030 is skipped" });
    // The Visits list keeps it, marked skipped, with Restore offered.
    const view = await ctx.container.homeVisits.view(ANNA, {}, NOW);
    expect(view.upcoming.find((i) => i.id === target.id)).toMatchObject({
      skipped: true,
      canRestore: true,
      canMove: false,
    });
  });

  it("restores it until the day before; a repeat changes nothing", async () => {
    const target = (await visits(propertyId, "snow-removal"))[1]!;
    expect(await change(target.id, "unskip")).toMatchObject({ changed: true, task: { status: "scheduled" } });
    expect(await change(target.id, "unskip")).toMatchObject({ changed: false });
    expect(await notifications("visit-restored")).toHaveLength(1);
    const row = await ctx.db("maintenance_tasks").where({ id: target.id }).first();
    expect(row.skipped_at).toBeNull();
    expect(row.notes).toBe(
      "Skipped by the homeowner in My Home on 2030-01-08.\nRestored by the homeowner in My Home on 2030-01-08.",
    );
    // Skipped again, it cannot be restored on its day.
    await change(target.id, "skip");
    const late = await refusal(change(target.id, "unskip", {}, zonedInstant("2030-01-15", "07:00", TZ)));
    expect(late).toMatchObject({ status: 409, message: "This visit's day has come: it can no longer be restored" });
    await change(target.id, "unskip");
  });

  it("refuses a change less than 2 days before the visit, and skipping the annual inspection", async () => {
    const [today] = await visits(propertyId, "snow-removal");
    expect(await refusal(change(today!.id, "skip"))).toMatchObject({
      status: 409,
      message: "This visit is less than 2 days away: please call or e-mail us to change it",
    });
    const [inspection] = await visits(propertyId, "health-report");
    expect(await refusal(change(inspection!.id, "skip"))).toMatchObject({
      status: 409,
      message: "The annual inspection is your plan's health report: it can be moved, not skipped",
    });
  });

  it("refuses a visit on hold while the plan is past due", async () => {
    const target = (await visits(propertyId, "snow-removal"))[4]!;
    await ctx.db("maintenance_tasks").where({ id: target.id }).update({ held: true });
    expect(await refusal(change(target.id, "skip"))).toMatchObject({
      status: 409,
      message: "This visit is on hold while your plan's payment is past due",
    });
    await ctx.db("maintenance_tasks").where({ id: target.id }).update({ held: false });
  });

  it("another homeowner's visit is a 404, exactly like a missing one", async () => {
    const theirs = (await visits(otherPropertyId, "snow-removal"))[2]!;
    expect(await refusal(change(theirs.id, "skip"))).toMatchObject({ status: 404 });
    expect(await refusal(change(999_999, "skip"))).toMatchObject({ status: 404 });
  });
});

describe("moving", () => {
  it("moves a snow visit within its week; the e-mail's .ics holds the 8 AM–5 PM window under the task's UID", async () => {
    const target = (await visits(propertyId, "snow-removal"))[2]!; // Jan 22
    const before = (await mails()).length;
    expect(await refusal(change(target.id, "move", { date: "2030-01-26" }))).toMatchObject({
      status: 400,
      fields: { date: "Choose a date from Saturday, January 19, 2030 to Friday, January 25, 2030" },
    });
    const moved = await change(target.id, "move", { date: "2030-01-24" });
    expect(moved).toMatchObject({ changed: true, task: { scheduledDate: "2030-01-24", status: "scheduled" } });
    expect(await change(target.id, "move", { date: "2030-01-24" })).toMatchObject({ changed: false });
    // Moved again, the window is still the series date's (Jan 22 ± 3).
    await change(target.id, "move", { date: "2030-01-19" });
    expect(await refusal(change(target.id, "move", { date: "2030-01-18" }))).toMatchObject({ status: 400 });
    const bell = await notifications("visit-moved");
    expect(bell.map((b) => b.text)).toEqual([
      expect.stringContaining("moved a plan visit from 2030-01-22 to 2030-01-24"),
      expect.stringContaining("moved a plan visit from 2030-01-24 to 2030-01-19"),
    ]);
    const sent = (await mails()).slice(before);
    expect(sent.map((m) => m.subject)).toEqual([
      "Snow removal moved to Thursday, January 24, 2030",
      "Snow removal moved to Saturday, January 19, 2030",
    ]);
    expect(sent[0]!.text).toContain("Was: Tuesday, January 22, 2030");
    expect(sent[0]!.text).toContain("Now: Thursday, January 24, 2030, 8 AM–5 PM");
    const calendar = new ICAL.Component(ICAL.parse(sent[0]!.attachments![0]!.content));
    const event = new ICAL.Event(calendar.getFirstSubcomponent("vevent")!);
    expect(event.uid).toBe(`maintenance-task-${target.id}@havenhomehealth.ca`);
    expect(event.startDate.toJSDate().toISOString()).toBe(zonedInstant("2030-01-24", "08:00", TZ).toISOString());
    expect(event.endDate.toJSDate().toISOString()).toBe(zonedInstant("2030-01-24", "17:00", TZ).toISOString());
  });

  it("a moved visit is not made again at its old date by the expansion", async () => {
    const target = (await visits(propertyId, "snow-removal")).find((t) => t.scheduled_date === "2030-01-19")!;
    await ctx.db("maintenance_schedules").where({ property_id: propertyId }).update({ expanded_through: null });
    await ctx.container.maintenance.expand({ today: START, horizonDays: 90 });
    const dates = (await visits(propertyId, "snow-removal")).map((t) => t.scheduled_date);
    expect(dates).not.toContain("2030-01-22");
    expect(dates).toContain("2030-01-19");
    expect(dates.filter((d) => d === "2030-01-29")).toHaveLength(1);
    expect(target.id).toBeGreaterThan(0);
  });

  it("moves a monthly visit within its month, never onto another visit of the service", async () => {
    const [absentee] = await visits(propertyId, "absentee-care"); // Feb 1
    expect(absentee!.scheduled_date).toBe("2030-02-01");
    expect(await refusal(change(absentee!.id, "move", { date: "2030-03-01" }))).toMatchObject({ status: 400 });
    expect(await change(absentee!.id, "move", { date: "2030-02-20" })).toMatchObject({ changed: true });
  });

  it("moves the annual inspection only as a booking at a free time, within 60 days of its due date", async () => {
    const [due] = await visits(propertyId, "health-report");
    // No inspection on file: due two weeks after the start (docs/decisions.md#26).
    expect(due!.scheduled_date).toBe("2030-01-22");
    const options = await ctx.container.homeVisits.planVisitOptions(ANNA, due!.id, NOW);
    expect(options).toMatchObject({ from: "2030-01-10", to: "2030-03-23" });
    expect(options.days![0]).toEqual({ date: "2030-01-12", slots: ["morning", "afternoon", "evening"] });
    expect(await refusal(change(due!.id, "move", { date: "2030-03-24", timeSlot: "morning" }))).toMatchObject({
      status: 400,
    });
    // Inside the 4-day booking lead: not an offered time.
    expect(await refusal(change(due!.id, "move", { date: "2030-01-10", timeSlot: "morning" }))).toMatchObject({
      status: 409,
      message: "That time was just taken",
    });
    const before = (await mails()).length;
    const moved = await change(due!.id, "move", { date: "2030-02-05", timeSlot: "afternoon" });
    expect(moved.changed).toBe(true);
    expect(moved.bookingId).toEqual(expect.any(Number));
    const booking = await ctx.db("inspection_bookings").where({ id: moved.bookingId }).first();
    expect(booking).toMatchObject({ property_id: propertyId, scheduled_date: "2030-02-05", time_slot: "afternoon" });
    expect(booking.notes).toContain("annual inspection, due 2030-01-22, booked by the homeowner in My Home");
    const task = await ctx.db("maintenance_tasks").where({ id: due!.id }).first();
    expect(task).toMatchObject({ status: "cancelled", booking_id: moved.bookingId });
    // The booking is this year's inspection: the next one is due a year after it.
    const schedule = await ctx
      .db("maintenance_schedules")
      .where({ property_id: propertyId, plan_service: "health-report" })
      .first();
    expect(schedule.start_date).toBe("2031-02-05");
    // A repeat answers the same booking; another time is refused (change the booking instead).
    expect(await change(due!.id, "move", { date: "2030-02-05", timeSlot: "afternoon" })).toMatchObject({
      changed: false,
      bookingId: moved.bookingId,
    });
    expect(await refusal(change(due!.id, "move", { date: "2030-02-06", timeSlot: "morning" }))).toMatchObject({
      status: 409,
      message: "This inspection is booked: change it from its booking",
    });
    expect(await ctx.db("inspection_bookings").where({ property_id: propertyId }).count({ n: "*" })).toEqual([
      { n: 1 },
    ]);
    const sent = (await mails()).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(ANNA);
    expect((await notifications("visit-moved")).at(-1)!.text).toContain(
      "moved the annual inspection due 2030-01-22 to a booking on 2030-02-05",
    );
  });
});

describe("the staff feed", () => {
  it("a plan visit's event holds the 8 AM–5 PM window, not 10:00 AM", async () => {
    const { secret } = await ctx.container.maintenance.rotateFeed();
    const ics = (await ctx.container.maintenance.feed(secret, NOW))!;
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const snow = (await visits(propertyId, "snow-removal")).find((t) => t.scheduled_date === "2030-01-29")!;
    const vevent = calendar
      .getAllSubcomponents("vevent")
      .map((v) => new ICAL.Event(v))
      .find((e) => e.uid === `maintenance-task-${snow.id}@havenhomehealth.ca`)!;
    expect(vevent.startDate.toJSDate().toISOString()).toBe(zonedInstant("2030-01-29", "08:00", TZ).toISOString());
    expect(vevent.endDate.toJSDate().toISOString()).toBe(zonedInstant("2030-01-29", "17:00", TZ).toISOString());
  });
});

describe("the JSON calls and pages", () => {
  it("need a home session, answer another's visit with 404, and skip and restore today's visits", async () => {
    // A home subscribed today (the routes use the real clock): its monthly absentee-care visits are always ahead.
    const now = new Date();
    const today = todayIn(TZ, now);
    const mine = await home("paul.http@example.com", "3 Pine Road");
    await subscribe(mine, "paul.http@example.com", "premium", now);
    const paul = await signInHome(ctx, "paul.http@example.com");
    const { body } = await paul.get("/api/my-home/visits").expect(200);
    const visit = body.upcoming.find(
      (i: { service: string; canSkip: boolean; date: string }) =>
        i.service === "absentee-care" && i.canSkip && i.date >= addDays(today, 2),
    );
    expect(visit).toBeDefined();
    await ctx.agent().post(`/api/my-home/plan-visits/${visit.id}/skip`).expect(401);
    const theirs = (await visits(propertyId, "snow-removal"))[3]!;
    await paul.get(`/api/my-home/plan-visits/${theirs.id}`).expect(404);
    await paul.post(`/api/my-home/plan-visits/${theirs.id}/skip`).expect(404);
    await paul.post(`/api/my-home/plan-visits/${visit.id}/move`).send({ date: "soon" }).expect(400);
    const options = await paul.get(`/api/my-home/plan-visits/${visit.id}`).expect(200);
    expect(options.body).toMatchObject({ visit: { id: visit.id, canSkip: true }, days: null, reason: null });
    expect((await paul.post(`/api/my-home/plan-visits/${visit.id}/skip`).expect(200)).body.changed).toBe(true);
    expect((await paul.post(`/api/my-home/plan-visits/${visit.id}/skip`).expect(200)).body.changed).toBe(false);
    const page = await paul.get(`/my-home/visits/plan-visits/${visit.id}`).expect(200);
    expect(page.text).toContain("Restore the visit of");
    const restored = await paul
      .post(`/my-home/visits/plan-visits/${visit.id}/unskip`)
      .type("form")
      .send({})
      .expect(303);
    expect(restored.headers.location).toBe("/my-home/visits?done=restored");
    // The page's move form answers a date outside the window with the rule, on the page.
    const refused = await paul
      .post(`/my-home/visits/plan-visits/${visit.id}/move`)
      .type("form")
      .send({ date: addDays(visit.date, 40) })
      .expect(400);
    expect(refused.text).toContain("Choose a date within the visit&#39;s window");
  });
});
