// The staff bell's notifications (src/modules/notifications/README.md): each event the office must act on is one
// notification, written in the event's own transaction (a rolled-back or refused change leaves none), linked to
// its record; the list filters by kind, unread and day; marks are per staff user; the hourly job raises "paid but
// never booked" once per customer, with its clock passed in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { suiteToday } from "../support/clock.js";
import { addDays } from "../../src/shared/business-time.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;

interface Row {
  id: string;
  kind: string;
  record_type: string;
  record_id: string;
  link: string;
  text: string;
}
const since = async () => Number((await ctx.db("notifications").max("id as id").first())?.id ?? 0);
const newSince = (id: number): Promise<Row[]> => ctx.db("notifications").where("id", ">", id).orderBy("id");

let n = 0;
async function home(email = `notify-${++n}-${Date.now()}@example.ca`) {
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email, name: `Nora Notice ${n}`, phone: "613-555-0100", subscriptionPlan: "standard" },
    { address: `${n} Bell Road`, city: "Ottawa", province: "ON", postalCode: "K1P 5B9", squareFootage: 1400 },
  );
  return { email, customer, property };
}

async function demoPlan(email: string, card = "4242424242424242", now = new Date()) {
  return ctx.container.subscriptions.startDemo(
    {
      checkoutRef: `demo_cs_notify_${++n}_${Date.now()}`,
      planType: "standard",
      amountCents: 41200,
      payerEmail: email,
      payerName: "Pat Payer",
      cardNumber: card,
      priceList: "checkout",
      postalCode: "K1S 2B4",
    },
    now,
  );
}

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: "https://haven.example" });
  await ctx.container.plans.seed();
  staff = await signInStaff(ctx);
});
afterAll(async () => {
  await ctx?.close();
});

describe("each event is one notification, linked to its record", () => {
  it("a homeowner's reschedule and cancellation in My Home; a staff change is none; a refused one is none", async () => {
    const { email, property } = await home();
    const now = new Date();
    const options = await ctx.container.homeVisits.rescheduleOptions(now);
    const book = () =>
      ctx.container.transaction((tx) =>
        ctx.container.bookings.bookForProperty(
          { kind: "staff" },
          { propertyId: property.id, scheduledDate: options.dates[2]!, timeSlot: "morning" },
          tx,
        ),
      );
    const booking = (await book())!;
    let from = await since();
    await ctx.container.homeVisits.changeBooking(email, booking.id, { scheduledDate: options.dates[4]! }, now);
    let rows = await newSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "booking-rescheduled",
      record_type: "booking",
      record_id: String(booking.id),
      link: `/admin/properties/${property.id}`,
    });
    expect(rows[0]!.text).toContain(options.dates[4]!);

    from = await since();
    await ctx.container.homeVisits.changeBooking(email, booking.id, { status: "cancelled" }, now);
    rows = await newSince(from);
    expect(rows.map((r) => [r.kind, r.record_id])).toEqual([["booking-cancelled", String(booking.id)]]);

    // Cancelling again is refused (409) and raises nothing; staff moving a booking is not the homeowner's change.
    from = await since();
    await expect(
      ctx.container.homeVisits.changeBooking(email, booking.id, { status: "cancelled" }, now),
    ).rejects.toMatchObject({ status: expect.any(Number) });
    const other = (await book())!;
    await staff.agent.patch(`/api/inspection-bookings/${other.id}`).send({ status: "cancelled" }).expect(200);
    expect(await newSince(from)).toHaveLength(0);
  });

  it("a plan visit the homeowner requests; one staff asked for is none", async () => {
    const { email, customer, property } = await home();
    const ref = `demo_cs_notify_visit_${Date.now()}`;
    const sub = await ctx.container.subscriptions.startDemo(
      {
        checkoutRef: ref,
        planType: "standard",
        amountCents: 41200,
        payerEmail: email,
        payerName: "Pat Payer",
        cardNumber: "4242424242424242",
      },
      new Date(),
    );
    await ctx.container.transaction((tx) =>
      ctx.container.subscriptions.attachToProperty(ref, { customerId: customer.id, propertyId: property.id }, tx),
    );
    const date = addDays(suiteToday(), 7);
    let from = await since();
    const task = await ctx.container.homeVisits.requestService(email, {
      propertyId: property.id,
      service: "concierge-line",
      date,
    });
    const rows = await newSince(from);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "visit-requested",
      record_type: "maintenance_task",
      record_id: String(task.id),
      link: `/admin/properties/${property.id}`,
    });
    // The same request again is refused (409): nothing more. Staff asking is no notification.
    from = await since();
    await expect(
      ctx.container.homeVisits.requestService(email, { propertyId: property.id, service: "concierge-line", date }),
    ).rejects.toMatchObject({ status: 409 });
    const later = addDays(suiteToday(), 9);
    await ctx.container.planServices.requestService({
      subscriptionId: sub.id,
      service: "concierge-line",
      date: later,
      source: "staff",
    });
    expect(await newSince(from)).toHaveLength(0);
  });

  it("a cancellation scheduled and undone, and a payment that failed", async () => {
    const { email } = await home();
    const sub = await demoPlan(email);
    let from = await since();
    await staff.agent.post(`/api/subscriptions/${sub.id}/cancel`).send({ when: "period_end" }).expect(200);
    let rows = await newSince(from);
    expect(rows.map((r) => [r.kind, r.record_type, r.record_id, r.link])).toEqual([
      ["cancel-scheduled", "subscription", String(sub.id), `/admin/subscriptions/${sub.id}`],
    ]);
    from = await since();
    await ctx.container.subscriptions.resume(sub.id, { actor: "customer" });
    rows = await newSince(from);
    expect(rows.map((r) => [r.kind, r.record_id])).toEqual([["cancel-undone", String(sub.id)]]);

    // A card that fails its renewal: one notification for the failed payment.
    const start = new Date("2026-01-10T15:00:00Z");
    const failing = await demoPlan((await home()).email, "4000000000000341", start);
    from = await since();
    await ctx.container.subscriptions.renewDue(new Date("2026-02-10T12:00:00Z"));
    rows = (await newSince(from)).filter((r) => r.record_id === String(failing.id));
    expect(rows.map((r) => r.kind)).toEqual(["payment-failed"]);
    expect(rows[0]!.text).toContain("Your card was declined.");
    // Running the renewal again changes nothing and raises nothing.
    from = await since();
    await ctx.container.subscriptions.renewDue(new Date("2026-02-10T12:00:00Z"));
    expect((await newSince(from)).filter((r) => r.record_id === String(failing.id))).toHaveLength(0);
  });

  it("a quote accepted and a quote declined by the homeowner", async () => {
    const { property } = await home();
    const taskIds: number[] = [];
    for (const title of ["Clean gutters", "Seal deck"]) {
      const [row] = await ctx
        .db("maintenance_tasks")
        .insert({ property_id: property.id, title, category: "other", status: "pending" })
        .returning("id");
      taskIds.push(row.id as number);
    }
    const ids = await ctx.container.transaction((tx) =>
      ctx.container.quotes.createRequests(
        taskIds.map((maintenanceTaskId) => ({
          propertyId: property.id,
          maintenanceTaskId,
          shareId: null,
          priority: "medium" as const,
          clientNotes: null,
          source: "portal" as const,
        })),
        tx,
      ),
    );
    for (const id of ids)
      await staff.agent.patch(`/api/quote-requests/${id}`).send({ status: "quoted", quotedAmount: "$250" }).expect(200);
    const from = await since();
    await ctx.container.quotes.decideAsOwner(ids[0]!, "accept", () => true);
    await ctx.container.quotes.decideAsOwner(ids[1]!, "decline", () => true);
    const rows = await newSince(from);
    expect(rows.map((r) => [r.kind, r.record_type, r.record_id])).toEqual([
      ["quote-accepted", "quote_request", String(ids[0])],
      ["quote-declined", "quote_request", String(ids[1])],
    ]);
    expect(rows[0]!.text).toContain("Clean gutters");
    // The accepted one leads to where the office books it (docs/decisions.md#43), the declined one to its request.
    expect(rows[0]!.link).toBe("/admin/quotes-to-book");
    // A stored line keeps no address in its link: erasure scrubs the text, and the link stays plain.
    expect(rows[1]!.link).toBe("/admin/quote-requests?status=declined");
    // Answering again is refused: nothing more.
    await expect(ctx.container.quotes.decideAsOwner(ids[0]!, "decline", () => true)).rejects.toMatchObject({
      status: 409,
    });
    expect(await newSince(Number(rows[1]!.id))).toHaveLength(0);
  });

  it("a change whose transaction rolls back leaves no notification", async () => {
    const from = await since();
    await expect(
      ctx.container.transaction(async (tx) => {
        await ctx.container.notifications.raise(tx, {
          kind: "dispute",
          recordType: "subscription",
          recordId: 1,
          link: "/admin/subscriptions/1",
          text: "rolled back",
        });
        expect(await tx("notifications").where("id", ">", from)).toHaveLength(1);
        throw new Error("the change failed after raising");
      }),
    ).rejects.toThrow("the change failed");
    expect(await newSince(from)).toHaveLength(0);
  });
});

describe("paid but never booked (the hourly job, its clock passed in)", () => {
  it("raises once per customer, two days after they paid, and never for one who booked", async () => {
    const paid = await home();
    const booked = await home();
    const bought = new Date();
    const sub = await demoPlan(paid.email, undefined, bought);
    await demoPlan(booked.email, undefined, bought);
    const bookedProperty = booked.property;
    await ctx.container.transaction((tx) =>
      ctx.container.bookings.bookForProperty(
        { kind: "staff" },
        {
          propertyId: bookedProperty.id,
          scheduledDate: ctx.container.bookings.calendar().minDate,
          timeSlot: "afternoon",
        },
        tx,
      ),
    );
    const mine = async () =>
      (await ctx.db("notifications").where({ kind: "paid-never-booked" })).filter((r) =>
        [`paid-never-booked:${paid.email}`, `paid-never-booked:${booked.email}`].includes(r.once_key),
      );
    // Counted from when the subscription was recorded, by the database's clock, as the job counts.
    const recorded = new Date((await ctx.db("subscriptions").where({ id: sub.id }).first("created_at")).created_at);
    // A day and a half later: not yet.
    await ctx.container.notifications.paidNeverBooked(new Date(recorded.getTime() + 36 * 3_600_000));
    expect(await mine()).toHaveLength(0);
    // Two days and an hour later: the one who never booked, linked to their subscription.
    const at = new Date(recorded.getTime() + 49 * 3_600_000);
    await ctx.container.notifications.paidNeverBooked(at);
    const rows = await mine();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      record_type: "subscription",
      record_id: String(sub.id),
      link: `/admin/subscriptions/${sub.id}`,
      once_key: `paid-never-booked:${paid.email}`,
    });
    // Every later run: still one.
    await ctx.container.notifications.paidNeverBooked(new Date(at.getTime() + 3_600_000));
    await ctx.container.notifications.paidNeverBooked(new Date(at.getTime() + 30 * 86_400_000));
    expect(await mine()).toHaveLength(1);
  });
});

describe("reading them: the bell, the list, its filters and mark read", () => {
  it("counts unread in the bell, filters by kind, unread and day, and marks read per staff user", async () => {
    // Start clean for this user: notifications read, the clients' rows marked seen (docs/decisions.md#55).
    await staff.agent.post("/api/notifications/read").send({ all: true }).expect(200);
    const until = (await staff.agent.get("/admin/notifications").expect(200)).text.match(
      /name="until" value="([^"]+)"/,
    );
    if (until) await staff.agent.post("/admin/notifications/seen").type("form").send({ until: until[1] }).expect(303);
    const { email } = await home();
    const sub = await demoPlan(email);
    await staff.agent.post(`/api/subscriptions/${sub.id}/cancel`).send({ when: "period_end" }).expect(200);
    await ctx.container.subscriptions.resume(sub.id, { actor: "customer" });

    const header = (await staff.agent.get("/admin").expect(200)).text;
    expect(header.match(/data-bell-count>([^<]+)</)?.[1]).toBe("2");

    const list = (await staff.agent.get("/api/notifications?unread=true").expect(200)).body as {
      id: number;
      kind: string;
      link: string;
    }[];
    expect(list.map((x) => x.kind)).toEqual(["cancel-undone", "cancel-scheduled"]);
    const byKind = (await staff.agent.get("/api/notifications?kind=cancel-undone").expect(200)).body as unknown[];
    expect(byKind.length).toBeGreaterThanOrEqual(1);
    const today = suiteToday();
    const none = (await staff.agent.get("/api/notifications?to=2020-01-01").expect(200)).body as unknown[];
    expect(none).toHaveLength(0);
    expect(
      ((await staff.agent.get(`/api/notifications?from=2020-01-01`).expect(200)).body as unknown[]).length,
    ).toBeGreaterThan(0);
    await staff.agent.get(`/api/notifications?kind=nonsense`).expect(400);
    await staff.agent.get(`/api/notifications?from=${today.replaceAll("-", "/")}`).expect(400);

    // The page lists them with links and filters.
    const page = (await staff.agent.get("/admin/notifications?kind=cancel-undone").expect(200)).text;
    expect(page).toContain('data-notice="cancel-undone" data-unread="true"');
    expect(page).not.toContain('data-notice="cancel-scheduled"');
    expect(page).toContain(`href="/admin/subscriptions/${sub.id}"`);

    // Marking one read: the page form, back to the filters; another staff user still has it unread.
    await staff.agent
      .post("/admin/notifications/read")
      .type("form")
      .send({ ids: String(list[0]!.id), back: "?kind=cancel-undone" })
      .expect(303)
      .expect("Location", "/admin/notifications?kind=cancel-undone");
    const unread = (await staff.agent.get("/api/notifications?unread=true").expect(200)).body as { id: number }[];
    expect(unread.map((x) => x.id)).toEqual([list[1]!.id]);
    const other = await signInStaff(ctx);
    const theirs = (await other.agent.get("/api/notifications?unread=true").expect(200)).body as { id: number }[];
    expect(theirs.map((x) => x.id)).toEqual(expect.arrayContaining([list[0]!.id, list[1]!.id]));

    // Refused input writes nothing.
    await staff.agent.post("/api/notifications/read").send({}).expect(400);
    await staff.agent
      .post("/api/notifications/read")
      .send({ ids: ["x"] })
      .expect(400);
    expect(((await staff.agent.get("/api/notifications?unread=true").expect(200)).body as unknown[]).length).toBe(1);

    // Mark all, as the page's button posts it (no filters: an empty `back`): the bell is quiet.
    await staff.agent
      .post("/admin/notifications/read")
      .type("form")
      .send({ all: "true", back: "" })
      .expect(303)
      .expect("Location", "/admin/notifications");
    const quiet = (await staff.agent.get("/admin").expect(200)).text;
    expect(quiet.match(/data-bell-count>([^<]+)</)).toBeNull();
  });

  it("inspectors do not get the bell; no session is 401", async () => {
    await ctx.agent().get("/api/notifications").expect(401);
    const inspector = await signInStaff(ctx);
    await ctx.db("staff_users").where({ id: inspector.user.id }).update({ role: "inspector" });
    await inspector.agent.get("/api/notifications").expect(403);
    await inspector.agent.post("/api/notifications/read").send({ all: true }).expect(403);
  });
});
