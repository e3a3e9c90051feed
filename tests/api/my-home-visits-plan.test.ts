// My Home's Visits, Plan and Account: every call, the booking rules, on-request
// services, the private ICS feed, the plan's cancellation with the minimum term and its undo, plan changes, the
// demo card path, receipts, e-mail preferences (the reminders honour them), and a second customer who gets 404
// for every one of the first customer's records. Real Postgres; dates come from the services' `now`.
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "../../src/shared/business-time.js";
import { PlanDeliveries } from "../../src/modules/maintenance/index.js";
import { PlanDeliveriesRepository } from "../../src/modules/maintenance/plan-deliveries.repository.js";
import { transactionRunner } from "../../src/db/transaction.js";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { StripeStandIn } from "../support/stripe-stand-in.js";
import { suiteToday } from "../support/clock.js";

const TZ = "America/Toronto";
const ALICE = "alice.owner@example.com";
const BOB = "bob.other@example.com";

let ctx: TestContext;
let alice: Awaited<ReturnType<typeof signInHome>>;
let bob: Awaited<ReturnType<typeof signInHome>>;
const ids = {
  aliceProperty: 0,
  bobProperty: 0,
  aliceBooking: 0,
  nearBooking: 0,
  bobBooking: 0,
  aliceSub: 0,
  aliceTask: 0,
  planTask: 0,
};

const mailJobs = async () =>
  (
    await ctx.db.raw(
      "select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'mail.send' order by j.id",
    )
  ).rows.map((r: { payload: { subject: string; to: string } }) => r.payload);

async function home(email: string, address: string) {
  const { customer, property } = await ctx.container.customers.createWithProperty(
    {
      email,
      name: email.startsWith("alice") ? "Alice Owner" : "Bob Other",
      phone: "613-555-0101",
      subscriptionPlan: "free-score",
    },
    { address, city: "Ottawa", province: "ON", postalCode: "K1S 2B4", squareFootage: 1800, yearBuilt: 1990 },
  );
  return { customerId: customer.id, propertyId: property.id };
}

async function book(owner: { customerId: number; propertyId: number }, email: string, date: string, slot = "morning") {
  return ctx.container.transaction((tx) =>
    ctx.container.bookings.book(
      tx,
      {
        propertyId: owner.propertyId,
        customerId: owner.customerId,
        scheduledDate: date,
        timeSlot: slot,
        source: "booking-page",
      },
      { email, name: "Owner" },
    ),
  );
}

/** A demo subscription started at `now`, attached to the home, with its plan services made. */
async function subscribe(
  owner: { customerId: number; propertyId: number },
  email: string,
  planType: PlanType,
  now: Date,
  ref: string,
) {
  const amount = { basic: 14900, standard: 37000, premium: 79900 }[planType];
  const sub = await ctx.container.subscriptions.startDemo(
    {
      checkoutRef: ref,
      planType,
      amountCents: amount,
      payerEmail: email,
      payerName: "Owner",
      cardNumber: "4242424242424242",
    },
    now,
  );
  await ctx.container.transaction(async (tx) => {
    await ctx.container.subscriptions.attachToProperty(ref, owner, tx, now);
    // Makes the plan's schedules whether or not the container wires plan services (idempotent).
    await new PlanDeliveries({
      repo: new PlanDeliveriesRepository(ctx.db),
      transaction: transactionRunner(ctx.db),
      settings: { timeZone: TZ },
    }).sync(
      tx,
      { id: sub.id, propertyId: owner.propertyId, planType, status: "active", anchor: todayIn(TZ, now) },
      suiteToday(TZ),
    );
  });
  return sub.id;
}

beforeAll(async () => {
  ctx = await createTestContext({ BUSINESS_TZ: TZ });
  await ctx.container.plans.seed();
  const a = await home(ALICE, "12 Elm Street");
  const b = await home(BOB, "99 Oak Avenue");
  ids.aliceProperty = a.propertyId;
  ids.bobProperty = b.propertyId;
  const offered = (await ctx.container.homeVisits.rescheduleOptions()).dates;
  ids.aliceBooking = (await book(a, ALICE, offered[2]!)).id;
  ids.nearBooking = (await book(a, ALICE, addDays(suiteToday(TZ), 2))).id;
  ids.bobBooking = (await book(b, BOB, offered[2]!)).id;
  ids.aliceSub = await subscribe(a, ALICE, "premium", new Date(), "cs_alice");
  await subscribe(b, BOB, "premium", new Date(), "cs_bob");
  const [task] = await ctx.container.maintenance.createTasks([
    {
      propertyId: a.propertyId,
      title: "Replace the sump pump",
      description: null,
      category: "plumbing",
      priority: "high",
      status: "scheduled",
      scheduledDate: addDays(suiteToday(TZ), 1),
    },
  ]);
  ids.aliceTask = task!.id;
  alice = await signInHome(ctx, ALICE);
  bob = await signInHome(ctx, BOB);
});
afterAll(() => ctx.close());

describe("without a home session", () => {
  it("every JSON call is a 401 and every page sends to the sign-in page", async () => {
    const agent = ctx.agent();
    const calls: [string, string][] = [
      ["get", "/api/my-home/visits"],
      ["patch", `/api/my-home/bookings/${ids.aliceBooking}`],
      ["post", "/api/my-home/service-requests"],
      ["post", "/api/my-home/calendar-feed"],
      ["get", "/api/my-home/subscription"],
      ["post", "/api/my-home/subscription/cancel"],
      ["post", "/api/my-home/subscription/resume"],
      ["post", "/api/my-home/subscription/change-plan"],
      ["post", "/api/my-home/subscription/card"],
      ["get", "/api/my-home/preferences"],
      ["patch", "/api/my-home/preferences"],
    ];
    for (const [method, path] of calls) {
      const res = await (
        agent as unknown as Record<string, (p: string) => { send(b: unknown): Promise<{ status: number }> }>
      )[method]!(path).send({});
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    for (const path of [
      "/my-home/visits",
      `/my-home/visits/bookings/${ids.aliceBooking}`,
      "/my-home/plan",
      `/my-home/plan/${ids.aliceSub}/cancel`,
      `/my-home/plan/invoices/1`,
      "/my-home/account",
    ]) {
      const res = await agent.get(path).expect(303);
      expect(res.headers.location).toBe(`/my-home/sign-in?next=${encodeURIComponent(path)}`);
    }
  });

  it("a staff session grants nothing in My Home", async () => {
    const { agent: staff } = await signInStaff(ctx);
    await staff.get("/api/my-home/visits").expect(401);
    expect((await staff.get("/my-home/plan").expect(303)).headers.location).toMatch(/^\/my-home\/sign-in/);
  });
});

describe("visits", () => {
  it("lists the homeowner's inspections, plan visits and maintenance, never another's", async () => {
    const { body } = await alice.get("/api/my-home/visits").expect(200);
    const kinds = new Set(body.upcoming.map((i: { kind: string }) => i.kind));
    expect(kinds).toEqual(new Set(["inspection", "maintenance", "plan-visit"]));
    expect(body.upcoming.every((i: { propertyId: number }) => i.propertyId === ids.aliceProperty)).toBe(true);
    const booking = body.upcoming.find(
      (i: { kind: string; id: number }) => i.kind === "inspection" && i.id === ids.aliceBooking,
    );
    expect(booking).toMatchObject({ changeable: true, timeSlot: "morning", time: "Morning (8:00 AM - 12:00 PM)" });
    expect(
      body.upcoming.find((i: { id: number; kind: string }) => i.kind === "inspection" && i.id === ids.nearBooking),
    ).toMatchObject({ changeable: false });
    expect(body.reschedule.dates).toHaveLength(14);
    expect(body.reschedule.dates[0] >= addDays(suiteToday(TZ), 4)).toBe(true);
    expect(body.requestable).toEqual([
      expect.objectContaining({
        propertyId: ids.aliceProperty,
        subscriptionId: ids.aliceSub,
        services: expect.arrayContaining([expect.objectContaining({ service: "vacation-prep" })]),
      }),
    ]);
    await alice.get("/api/my-home/visits?month=2026-13").expect(400);
  });

  it("a plan visit held while the plan is past due is shown as held", async () => {
    const { body: before } = await alice.get("/api/my-home/visits").expect(200);
    const visit = before.upcoming.find((i: { kind: string }) => i.kind === "plan-visit");
    await ctx.db("maintenance_tasks").where({ id: visit.id }).update({ held: true });
    const { body } = await alice.get("/api/my-home/visits").expect(200);
    expect(
      body.upcoming.find((i: { id: number; kind: string }) => i.kind === "plan-visit" && i.id === visit.id).held,
    ).toBe(true);
    const page = await alice.get("/my-home/visits").expect(200);
    expect(page.text).toContain("On hold: plan payment past due");
    await ctx.db("maintenance_tasks").where({ id: visit.id }).update({ held: false });
  });

  it("reschedules under the booking rules: an offered date 4+ days ahead, a part of the day; staff see it noted; the new date is e-mailed", async () => {
    const { dates } = await ctx.container.homeVisits.rescheduleOptions();
    const mailsBefore = (await mailJobs()).length;
    const refused: [Record<string, unknown>, string, number][] = [
      [{ scheduledDate: addDays(suiteToday(TZ), 3), timeSlot: "morning" }, "scheduledDate", 400],
      [{ scheduledDate: addDays(dates.at(-1)!, 7), timeSlot: "morning" }, "scheduledDate", 400],
      [{ scheduledDate: "2026-02-30", timeSlot: "morning" }, "scheduledDate", 400],
      [{ scheduledDate: dates[1], timeSlot: "9:30 AM" }, "timeSlot", 400],
      [{ scheduledDate: dates[1], timeSlot: "midnight" }, "timeSlot", 400],
      [{ scheduledDate: dates[1] }, "timeSlot", 400],
      [{ scheduledDate: dates[1], timeSlot: "morning", status: "cancelled" }, "status", 400],
    ];
    for (const [payload, field, status] of refused) {
      const res = await alice.patch(`/api/my-home/bookings/${ids.aliceBooking}`).send(payload).expect(status);
      expect(res.body.fields?.[field], JSON.stringify(payload)).toBeTruthy();
    }
    // Less than 4 days away: only by calling.
    const near = await alice
      .patch(`/api/my-home/bookings/${ids.nearBooking}`)
      .send({ scheduledDate: dates[1], timeSlot: "morning" })
      .expect(409);
    expect(near.body.message).toMatch(/less than 4 days away/);
    await alice.patch(`/api/my-home/bookings/${ids.nearBooking}`).send({ status: "cancelled" }).expect(409);
    expect((await ctx.db("inspection_bookings").where({ id: ids.aliceBooking }).first()).notes).toBeNull();
    // The time it already has is no move: refused by name, nothing noted or e-mailed.
    const booked = await ctx.db("inspection_bookings").where({ id: ids.aliceBooking }).first();
    const same = await alice
      .patch(`/api/my-home/bookings/${ids.aliceBooking}`)
      .send({ scheduledDate: booked.scheduled_date, timeSlot: booked.time_slot })
      .expect(400);
    expect(same.body.fields.scheduledDate).toBe("That is the time already booked: choose another date or time");
    expect((await ctx.db("inspection_bookings").where({ id: ids.aliceBooking }).first()).notes).toBeNull();

    const { body } = await alice
      .patch(`/api/my-home/bookings/${ids.aliceBooking}`)
      .send({ scheduledDate: dates[5], timeSlot: "afternoon" })
      .expect(200);
    expect(body).toMatchObject({
      id: ids.aliceBooking,
      scheduledDate: dates[5],
      timeSlot: "afternoon",
      status: "scheduled",
    });
    expect(body.notes).toMatch(/^Rescheduled by the homeowner in My Home on \d{4}-\d{2}-\d{2}: was .+, Morning/);
    const mails = (await mailJobs()).slice(mailsBefore);
    expect(mails.filter((m: { to: string }) => m.to === ALICE)).toHaveLength(1);
    // Staff see it in their booking list.
    const row = await ctx.db("inspection_bookings").where({ id: ids.aliceBooking }).first();
    expect(row.notes).toContain("My Home");
  });

  it("cancels a booking (noted for staff); a cancelled booking changes no more", async () => {
    const other = await book(
      {
        customerId: (await ctx.db("properties").where({ id: ids.aliceProperty }).first()).customer_id,
        propertyId: ids.aliceProperty,
      },
      ALICE,
      (await ctx.container.homeVisits.rescheduleOptions()).dates[8]!,
      "evening",
    );
    const { body } = await alice.patch(`/api/my-home/bookings/${other.id}`).send({ status: "cancelled" }).expect(200);
    expect(body.status).toBe("cancelled");
    expect(body.notes).toMatch(/^Cancelled by the homeowner in My Home on /);
    await alice.patch(`/api/my-home/bookings/${other.id}`).send({ status: "cancelled" }).expect(409);
    const { body: visits } = await alice.get("/api/my-home/visits").expect(200);
    expect(
      visits.upcoming.some((i: { kind: string; id: number }) => i.kind === "inspection" && i.id === other.id),
    ).toBe(false);
  });

  it("the pages reschedule and cancel with plain forms", async () => {
    const { dates } = await ctx.container.homeVisits.rescheduleOptions();
    const page = await alice.get(`/my-home/visits/bookings/${ids.aliceBooking}`).expect(200);
    expect(page.text).toContain(`value="${dates[0]}|morning"`);
    const bad = await alice
      .post(`/my-home/visits/bookings/${ids.aliceBooking}/reschedule`)
      .type("form")
      .send({ scheduledDate: addDays(suiteToday(TZ), 1), timeSlot: "morning" })
      .expect(400);
    expect(bad.text).toContain("Choose one of the offered dates");
    const ok = await alice
      .post(`/my-home/visits/bookings/${ids.aliceBooking}/reschedule`)
      .type("form")
      .send({ scheduledDate: dates[6], timeSlot: "evening" })
      .expect(303);
    expect(ok.headers.location).toBe("/my-home/visits?done=rescheduled");
    expect((await alice.get("/my-home/visits?done=rescheduled").expect(200)).text).toContain(
      "Your inspection is moved",
    );
    // Less than 4 days away: the page says to call.
    const near = await alice
      .post(`/my-home/visits/bookings/${ids.nearBooking}/cancel`)
      .type("form")
      .send({})
      .expect(409);
    expect(near.text).toContain("less than 4 days away");
  });

  it("requests an on-request plan service for a date: a task on the staff calendar, marked as the homeowner's", async () => {
    const date = addDays(suiteToday(TZ), 10);
    const { body } = await alice
      .post("/api/my-home/service-requests")
      .send({ propertyId: ids.aliceProperty, service: "vacation-prep", date, notes: "Away July 3 to 17" })
      .expect(201);
    expect(body).toMatchObject({
      propertyId: ids.aliceProperty,
      scheduledDate: date,
      status: "scheduled",
      notes: "Away July 3 to 17",
    });
    expect(body.description).toContain("Requested by the homeowner");
    const staffRow = await ctx.db("maintenance_tasks").where({ id: body.id }).first();
    expect(staffRow.schedule_id).not.toBeNull();
    const { body: visits } = await alice.get("/api/my-home/visits").expect(200);
    expect(
      visits.upcoming.find((i: { id: number; kind: string }) => i.id === body.id && i.kind === "plan-visit"),
    ).toMatchObject({ service: "vacation-prep" });
    // Twice the same date: 409; a past date, a scheduled service, an unknown one: 400 naming the field.
    await alice
      .post("/api/my-home/service-requests")
      .send({ propertyId: ids.aliceProperty, service: "vacation-prep", date })
      .expect(409);
    const past = await alice
      .post("/api/my-home/service-requests")
      .send({ propertyId: ids.aliceProperty, service: "vacation-prep", date: addDays(suiteToday(TZ), -1) })
      .expect(400);
    expect(past.body.fields.date).toBeTruthy();
    expect(
      (
        await alice
          .post("/api/my-home/service-requests")
          .send({ propertyId: ids.aliceProperty, service: "window-cleaning", date })
          .expect(400)
      ).body.fields.service,
    ).toBeTruthy();
    expect(
      (
        await alice
          .post("/api/my-home/service-requests")
          .send({ propertyId: ids.aliceProperty, service: "moon-landing", date })
          .expect(400)
      ).body.fields.service,
    ).toBeTruthy();
    expect(
      (
        await alice
          .post("/api/my-home/service-requests")
          .send({ propertyId: "x", service: "vacation-prep", date })
          .expect(400)
      ).body.fields.propertyId,
    ).toBeTruthy();
    // The page's form.
    const form = await alice
      .post("/my-home/visits/requests")
      .type("form")
      .send({ propertyId: String(ids.aliceProperty), service: "vacation-prep", date: addDays(date, 1), notes: "" })
      .expect(303);
    expect(form.headers.location).toBe("/my-home/visits?done=requested");
  });

  it("a private ICS feed of the homeowner's bookings and tasks: parses, holds only theirs, stored hashed, ends when rotated", async () => {
    const { body } = await alice.post("/api/my-home/calendar-feed").expect(201);
    const url = new URL(body.url);
    expect(url.pathname).toMatch(/^\/my-home\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    const secret = url.pathname
      .split("/")
      .at(-1)!
      .replace(/\.ics$/, "");
    const res = await ctx.agent().get(url.pathname).expect(200);
    expect(res.headers["content-type"]).toMatch(/text\/calendar/);
    const calendar = new ICAL.Component(ICAL.parse(res.text) as unknown[]);
    const events = calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
    const uids = events.map((e) => e.uid);
    expect(uids).toContain(`booking-${ids.aliceBooking}@havenhomehealth.ca`);
    expect(uids).toContain(`maintenance-task-${ids.aliceTask}@havenhomehealth.ca`);
    expect(uids).not.toContain(`booking-${ids.bobBooking}@havenhomehealth.ca`);
    expect(events.every((e) => !e.location.includes("Oak Avenue"))).toBe(true);
    const stored = await ctx.db("home_calendar_feeds").where({ email: ALICE }).first();
    expect(stored.secret_hash).not.toContain(secret);
    expect(JSON.stringify(stored)).not.toContain(secret);
    // Rotating ends the old URL.
    const { body: next } = await alice.post("/api/my-home/calendar-feed").expect(201);
    await ctx.agent().get(url.pathname).expect(404);
    await ctx.agent().get(new URL(next.url).pathname).expect(200);
    await ctx.agent().get("/my-home/calendar/feed/not-a-secret.ics").expect(404);
  });
});

describe("plan", () => {
  it("shows the plan, status, next charge, minimum term and invoices", async () => {
    const { body } = await alice.get("/api/my-home/subscription").expect(200);
    expect(body.subscriptions).toHaveLength(1);
    const [plan] = body.subscriptions;
    expect(plan.subscription).toMatchObject({
      id: ids.aliceSub,
      propertyId: ids.aliceProperty,
      planType: "premium",
      status: "active",
      monthlyAmount: 799,
      cancelAt: null,
    });
    // Said whole with the Ottawa home's HST (docs/decisions.md#63).
    expect(plan.nextCharge).toEqual({
      at: plan.subscription.currentPeriodEnd,
      amount: 799,
      words: "$902.87 CAD ($799.00 + HST $103.87)",
    });
    expect(plan.invoices).toEqual([expect.objectContaining({ subtotal: 799, amount: 902.87, status: "paid" })]);
    expect(plan.cancellation).toEqual({ takesEffectAt: plan.subscription.minimumTermEndsAt, atMinimumTerm: true });
    expect(
      plan.changes.map((c: { planType: string; direction: string }) => `${c.planType}:${c.direction}`).sort(),
    ).toEqual(["basic:downgrade", "standard:downgrade"]);
    const page = await alice.get("/my-home/plan").expect(200);
    expect(page.text).toContain("3-month minimum term");
    expect(page.text).toContain("$799.00 CAD");
  });

  it("cancels before the minimum term ends: it takes effect when the term ends, stated first; undo keeps the plan", async () => {
    const { body: before } = await alice.get("/api/my-home/subscription").expect(200);
    const minimum = before.subscriptions[0].subscription.minimumTermEndsAt;
    const confirm = await alice.get(`/my-home/plan/${ids.aliceSub}/cancel`).expect(200);
    expect(confirm.text).toContain("when the 3-month minimum ends");
    // A customer cannot end a plan at once.
    expect(
      (
        await alice
          .post("/api/my-home/subscription/cancel")
          .send({ subscriptionId: ids.aliceSub, when: "now" })
          .expect(400)
      ).body.fields.when,
    ).toBeTruthy();
    const { body } = await alice
      .post("/api/my-home/subscription/cancel")
      .send({ subscriptionId: ids.aliceSub, reason: "Moving away" })
      .expect(200);
    expect(body.subscription.cancelAt).toBe(minimum);
    expect(body.subscription.status).toBe("active");
    const events = await ctx
      .db("subscription_events")
      .where({ subscription_id: ids.aliceSub, kind: "cancel_scheduled" });
    expect(events.map((e) => e.actor)).toEqual(["customer"]);
    const { body: undone } = await alice
      .post("/api/my-home/subscription/resume")
      .send({ subscriptionId: ids.aliceSub })
      .expect(200);
    expect(undone.subscription.cancelAt).toBeNull();
    await alice.post("/api/my-home/subscription/resume").send({ subscriptionId: ids.aliceSub }).expect(409);
    // The page's forms.
    expect(
      (await alice.post(`/my-home/plan/${ids.aliceSub}/cancel`).type("form").send({ reason: "" }).expect(303)).headers
        .location,
    ).toBe("/my-home/plan?done=canceled");
    expect((await alice.get("/my-home/plan?done=canceled").expect(200)).text).toContain("Undo cancellation");
    expect(
      (await alice.post(`/my-home/plan/${ids.aliceSub}/resume`).type("form").send({}).expect(303)).headers.location,
    ).toBe("/my-home/plan?done=resumed");
    expect((await ctx.container.subscriptions.get(ids.aliceSub)).cancelAt).toBeNull();
  });

  it("after the minimum term, a cancellation takes effect at the end of the paid period", async () => {
    const owner = await home(ALICE, "3 Second Home Road");
    const started = new Date(Date.now() - 150 * 86_400_000);
    const subId = await subscribe(owner, ALICE, "basic", started, "cs_alice_old");
    await ctx.container.subscriptions.renewDue(new Date());
    const sub = await ctx.container.subscriptions.get(subId);
    expect(new Date(sub.minimumTermEndsAt) < new Date()).toBe(true);
    const page = await alice.get(`/my-home/plan/${subId}/cancel`).expect(200);
    expect(page.text).toContain("at the end of the month you have paid for");
    const { body } = await alice.post("/api/my-home/subscription/cancel").send({ subscriptionId: subId }).expect(200);
    expect(body.subscription.cancelAt).toBe(sub.currentPeriodEnd);
    expect(body.nextCharge).toBeNull();
    await alice.post("/api/my-home/subscription/resume").send({ subscriptionId: subId }).expect(200);
  });

  it("changes plan: a downgrade at the period's end (stated first), an upgrade at once", async () => {
    const page = await alice.get(`/my-home/plan/${ids.aliceSub}/change?plan=standard`).expect(200);
    expect(page.text).toContain("at the end of the month you have paid for");
    const { body } = await alice
      .post("/api/my-home/subscription/change-plan")
      .send({ subscriptionId: ids.aliceSub, planType: "standard" })
      .expect(200);
    expect(body.subscription).toMatchObject({ planType: "premium", scheduledPlanType: "standard" });
    expect(body.nextCharge.amount).toBe(370);
    await alice
      .post("/api/my-home/subscription/change-plan")
      .send({ subscriptionId: ids.aliceSub, planType: "standard" })
      .expect(409);
    // Taking the downgrade back, through the page's form.
    expect(
      (await alice.post(`/my-home/plan/${ids.aliceSub}/change`).type("form").send({ planType: "premium" }).expect(303))
        .headers.location,
    ).toBe("/my-home/plan?done=changed");
    expect((await ctx.container.subscriptions.get(ids.aliceSub)).scheduledPlanType).toBeNull();
    expect(
      (
        await alice
          .post("/api/my-home/subscription/change-plan")
          .send({ subscriptionId: ids.aliceSub, planType: "gold" })
          .expect(400)
      ).body.fields.planType,
    ).toBeTruthy();
  });

  it("updates the card in demo mode: a declined card names the field; a good one is stored", async () => {
    const declined = await alice
      .post("/api/my-home/subscription/card")
      .send({ subscriptionId: ids.aliceSub, cardNumber: "4000 0000 0000 0002" })
      .expect(400);
    expect(declined.body.fields.cardNumber).toBeTruthy();
    await alice.post("/api/my-home/subscription/card").send({ subscriptionId: ids.aliceSub }).expect(400);
    const { body } = await alice
      .post("/api/my-home/subscription/card")
      .send({ subscriptionId: ids.aliceSub, cardNumber: "5555 5555 5555 4444" })
      .expect(200);
    expect(body.subscription.cardLast4).toBe("4444");
    const form = await alice.get(`/my-home/plan/${ids.aliceSub}/card`).expect(200);
    expect(form.text).toContain("Update your card");
    const bad = await alice
      .post(`/my-home/plan/${ids.aliceSub}/card`)
      .type("form")
      .send({ cardNumber: "4242 4242 4242 4241", expiry: "12 / 39", cvc: "123" })
      .expect(400);
    expect(bad.text).toContain("card-number-error");
    expect(
      (
        await alice
          .post(`/my-home/plan/${ids.aliceSub}/card`)
          .type("form")
          .send({ cardNumber: "4242 4242 4242 4242", expiry: "12 / 39", cvc: "123" })
          .expect(303)
      ).headers.location,
    ).toBe("/my-home/plan?done=card");
    expect((await ctx.container.subscriptions.get(ids.aliceSub)).cardLast4).toBe("4242");
  });

  it("a receipt page per paid invoice", async () => {
    const invoice = await ctx.db("invoices").where({ subscription_id: ids.aliceSub, status: "paid" }).first();
    const page = await alice.get(`/my-home/plan/invoices/${invoice.id}`).expect(200);
    expect(page.text).toContain("Receipt");
    expect(page.text).toContain("$799.00 CAD");
    await alice.get("/my-home/plan/invoices/999999").expect(404);
  });
});

describe("account", () => {
  it("e-mail preferences: reminders on by default; off, the day-before reminders skip the homeowner", async () => {
    expect((await alice.get("/api/my-home/preferences").expect(200)).body).toEqual({ reminders: true });
    expect(
      (await alice.patch("/api/my-home/preferences").send({ reminders: "maybe" }).expect(400)).body.fields.reminders,
    ).toBeTruthy();
    expect((await alice.patch("/api/my-home/preferences").send({ reminders: false }).expect(200)).body).toEqual({
      reminders: false,
    });
    expect((await bob.get("/api/my-home/preferences").expect(200)).body).toEqual({ reminders: true });
    // Alice's sump pump task is tomorrow: no reminder for her.
    const sent = await ctx.container.maintenance.sendReminders();
    expect(
      await ctx.db("maintenance_reminders").where({ kind: "task", item_id: ids.aliceTask }).first(),
    ).toBeUndefined();
    expect(sent.tasks).toBeGreaterThanOrEqual(0);
    // The page's form: an unticked box turns them off, a ticked one on.
    expect(
      (await alice.post("/my-home/account/preferences").type("form").send({ reminders: "true" }).expect(303)).headers
        .location,
    ).toBe("/my-home/account?done=saved");
    expect((await alice.get("/api/my-home/preferences").expect(200)).body).toEqual({ reminders: true });
    await ctx.container.maintenance.sendReminders();
    expect(await ctx.db("maintenance_reminders").where({ kind: "task", item_id: ids.aliceTask }).first()).toBeDefined();
    const page = await alice.get("/my-home/account").expect(200);
    expect(page.text).toContain("Sign out everywhere");
    expect(page.text).toContain("Passkeys");
  });
});

describe("erasing a customer (privacy)", () => {
  it("deletes their My Home preferences and calendar feed: the feed URL stops working", async () => {
    const email = "erase.me@example.com";
    await home(email, "5 Gone Street");
    const agent = await signInHome(ctx, email);
    await agent.patch("/api/my-home/preferences").send({ reminders: false }).expect(200);
    const { body } = await agent.post("/api/my-home/calendar-feed").expect(201);
    const feed = new URL(body.url).pathname;
    await ctx.agent().get(feed).expect(200);
    const erased = await ctx.container.privacy.eraseCustomer(email);
    expect(erased.changed["home_preferences (deleted)"]).toBe(1);
    expect(erased.changed["home_calendar_feeds (deleted)"]).toBe(1);
    await ctx.agent().get(feed).expect(404);
  });
});

describe("a second customer", () => {
  it("gets 404 for every one of the first customer's records, and sees none of them", async () => {
    const invoice = await ctx.db("invoices").where({ subscription_id: ids.aliceSub }).first();
    const { dates } = await ctx.container.homeVisits.rescheduleOptions();
    await bob
      .patch(`/api/my-home/bookings/${ids.aliceBooking}`)
      .send({ scheduledDate: dates[3], timeSlot: "morning" })
      .expect(404);
    await bob.patch(`/api/my-home/bookings/${ids.aliceBooking}`).send({ status: "cancelled" }).expect(404);
    await bob
      .post("/api/my-home/service-requests")
      .send({ propertyId: ids.aliceProperty, service: "vacation-prep", date: addDays(suiteToday(TZ), 20) })
      .expect(404);
    for (const action of ["cancel", "resume", "change-plan", "card"]) {
      await bob
        .post(`/api/my-home/subscription/${action}`)
        .send({ subscriptionId: ids.aliceSub, planType: "basic", cardNumber: "4242424242424242" })
        .expect(404);
    }
    for (const path of [
      `/my-home/visits/bookings/${ids.aliceBooking}`,
      `/my-home/plan/${ids.aliceSub}/cancel`,
      `/my-home/plan/${ids.aliceSub}/change?plan=basic`,
      `/my-home/plan/${ids.aliceSub}/card`,
      `/my-home/plan/invoices/${invoice.id}`,
    ]) {
      await bob.get(path).expect(404);
    }
    for (const path of [
      `/my-home/visits/bookings/${ids.aliceBooking}/reschedule`,
      `/my-home/visits/bookings/${ids.aliceBooking}/cancel`,
      `/my-home/plan/${ids.aliceSub}/cancel`,
      `/my-home/plan/${ids.aliceSub}/resume`,
      `/my-home/plan/${ids.aliceSub}/change`,
      `/my-home/plan/${ids.aliceSub}/card`,
    ]) {
      await bob
        .post(path)
        .type("form")
        .send({
          scheduledDate: dates[3],
          timeSlot: "morning",
          planType: "basic",
          cardNumber: "4242424242424242",
          expiry: "12 / 39",
          cvc: "123",
        })
        .expect(404);
    }
    const form = await bob
      .post("/my-home/visits/requests")
      .type("form")
      .send({ propertyId: String(ids.aliceProperty), service: "vacation-prep", date: addDays(suiteToday(TZ), 21) });
    expect(form.status).toBe(404);
    // Nothing of Alice's changed, and Bob's own answers hold none of it.
    expect((await ctx.container.subscriptions.get(ids.aliceSub)).cancelAt).toBeNull();
    const { body: visits } = await bob.get("/api/my-home/visits").expect(200);
    expect(JSON.stringify(visits)).not.toContain("Elm Street");
    const { body: plans } = await bob.get("/api/my-home/subscription").expect(200);
    expect(plans.subscriptions.map((p: { subscription: { id: number } }) => p.subscription.id)).not.toContain(
      ids.aliceSub,
    );
    expect((await bob.get("/my-home/visits").expect(200)).text).not.toContain("Elm Street");
  });
});

describe("updating the card with Stripe (the real SDK against the local stand-in)", () => {
  let sctx: TestContext;
  let stripe: StripeStandIn;
  beforeAll(async () => {
    stripe = await StripeStandIn.start();
    sctx = await createTestContext({ ...stripe.env(), BUSINESS_TZ: TZ });
    await sctx.container.plans.seed();
  });
  afterAll(async () => {
    await sctx?.close();
    await stripe?.close();
  });

  it("opens Stripe's billing portal at its card flow, and adopts the new card on the way back", async () => {
    const email = "stripe.owner@example.com";
    const { body } = await sctx.agent().post("/api/create-checkout-session").send({ planType: "standard" }).expect(200);
    const sessionId = body.url.split("/pay/")[1] as string;
    const session = stripe.pay(sessionId, { email, name: "Sky Owner" });
    const delivery = StripeStandIn.signedEvent("checkout.session.completed", structuredClone(session));
    await sctx
      .agent()
      .post("/api/stripe/webhook")
      .set("Content-Type", "application/json")
      .set("Stripe-Signature", delivery.header)
      .send(delivery.payload)
      .expect(200);
    const { customer, property } = await sctx.container.customers.createWithProperty(
      { email, name: "Sky Owner", subscriptionPlan: "free-score" },
      { address: "8 Stripe Lane", city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
    );
    const sub = await sctx.container.transaction((tx) =>
      sctx.container.subscriptions.attachToProperty(
        sessionId,
        { customerId: customer.id, propertyId: property.id },
        tx,
      ),
    );
    const owner = await signInHome(sctx, email);

    const { body: answer } = await owner
      .post("/api/my-home/subscription/card")
      .send({ subscriptionId: sub!.id })
      .expect(200);
    const portal = [...stripe.portalSessions.values()].at(-1)!;
    expect(answer.url).toBe(portal.url);
    expect(portal).toMatchObject({ flow: { type: "payment_method_update" }, customer: session.customer });
    const back = new URL(portal.return_url as string);
    expect(back.pathname).toBe(`/my-home/plan/${sub!.id}/card/return`);
    // The page's button goes to the same flow.
    expect((await owner.get(`/my-home/plan/${sub!.id}/card`).expect(303)).headers.location).toBe(
      [...stripe.portalSessions.values()].at(-1)!.url,
    );

    // The customer picks a new card in the portal; coming back makes it the subscription's.
    const newCard = stripe.updateCustomerCard(session.customer as string);
    expect((await owner.get(back.pathname).expect(303)).headers.location).toBe("/my-home/plan?done=card");
    expect(stripe.subscription(session.subscription as string).default_payment_method).toBe(newCard);
    // Another homeowner gets a 404.
    const other = await signInHome(sctx, "someone.else@example.com");
    await other.post("/api/my-home/subscription/card").send({ subscriptionId: sub!.id }).expect(404);
    await other.get(back.pathname).expect(404);
  });
});
