import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanType } from "../../src/modules/plans/plans.schemas.js";
import { PlanDeliveries, type PlanServiceSubscription } from "../../src/modules/maintenance/index.js";
import { PlanDeliveriesRepository } from "../../src/modules/maintenance/plan-deliveries.repository.js";
import { transactionRunner } from "../../src/db/transaction.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

// each plan's services become schedules of the property,
// held while past due, ended (future untouched tasks cancelled) by a downgrade or a cancellation, and all of it
// idempotent. Dates are given: `today` is a parameter, nothing waits.

let seq = 0;

describe("plan services", () => {
  let ctx: TestContext;
  let planServices: PlanDeliveries;
  let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

  beforeAll(async () => {
    ctx = await createTestContext();
    planServices = new PlanDeliveries({
      repo: new PlanDeliveriesRepository(ctx.db),
      transaction: transactionRunner(ctx.db),
      settings: { timeZone: ctx.env.BUSINESS_TZ },
    });
    ({ agent: staff } = await signInStaff(ctx));
  });
  afterAll(() => ctx?.close());

  /** A property and a subscription row on it (the subscriptions service is not needed to test the rules). */
  async function subscription(planType: PlanType, anchor: string, status = "active"): Promise<PlanServiceSubscription> {
    seq += 1;
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email: `plan${seq}@example.com`, name: `Owner ${seq}`, subscriptionPlan: planType },
      { address: `${seq} Elgin Street`, city: "Ottawa", province: "ON", postalCode: "K2P 1L5" },
    );
    const started = new Date(`${anchor}T15:00:00Z`);
    const [row] = await ctx
      .db("subscriptions")
      .insert({
        customer_id: customer.id,
        property_id: property.id,
        plan_type: planType,
        provider: "demo",
        provider_subscription_id: `demo_sub_test_${seq}`,
        status,
        monthly_amount_cents: 37_000,
        started_at: started,
        billing_anchor: anchor,
        current_period_start: started,
        current_period_end: new Date(started.getTime() + 30 * 86_400_000),
        minimum_term_ends_at: new Date(started.getTime() + 91 * 86_400_000),
      })
      .returning("id");
    return { id: row.id as number, propertyId: property.id, planType, status, anchor };
  }

  const sync = (sub: PlanServiceSubscription, today: string) =>
    ctx.db.transaction((tx) => planServices.sync(tx, sub, today));
  const tasksOf = (sub: PlanServiceSubscription) =>
    ctx
      .db("maintenance_tasks as t")
      .join("maintenance_schedules as s", "s.id", "t.schedule_id")
      .where("s.subscription_id", sub.id)
      .select(
        "t.id",
        "t.scheduled_date as date",
        "t.status",
        "t.held",
        "t.version",
        "t.title",
        "s.plan_service as service",
      )
      .orderBy([{ column: "t.scheduled_date" }, { column: "t.id" }]);

  it("Standard: one schedule per service, first visits on or after the start (Oct 31 → windows May 15), and a second sync adds nothing", async () => {
    const sub = await subscription("standard", "2026-10-31");
    expect(await sync(sub, "2026-10-31")).toEqual({ added: 7, ended: 0, held: 0, released: 0 });
    const services = await planServices.forSubscription(sub.id, "2026-10-31");
    const next = Object.fromEntries(services.map((s) => [s.service, s.nextDate]));
    expect(next).toEqual({
      "health-report": "2026-11-14", // two weeks after the start: the home has no inspection yet
      "concierge-line": null,
      "repairs-coordination": null,
      "window-cleaning": "2027-05-15", // beyond the 90-day horizon: no task yet, the date still shows
      "hvac-maintenance/air-conditioning": "2027-05-01",
      "hvac-maintenance/furnace": "2027-09-01",
      "gutter-cleaning": "2026-11-15",
    });
    expect(services.filter((s) => s.onRequest).map((s) => s.service)).toEqual([
      "concierge-line",
      "repairs-coordination",
    ]);
    expect(services.find((s) => s.service === "window-cleaning")).toMatchObject({
      rrule: "FREQ=YEARLY;BYMONTH=5,10;BYMONTHDAY=15",
      held: false,
      endedAt: null,
    });

    // Within the 90-day horizon: the inspection due and the November gutters.
    expect((await tasksOf(sub)).map((t) => [t.service, t.date, t.status])).toEqual([
      ["health-report", "2026-11-14", "scheduled"],
      ["gutter-cleaning", "2026-11-15", "scheduled"],
    ]);

    const before = await tasksOf(sub);
    expect(await sync(sub, "2026-10-31")).toEqual({ added: 0, ended: 0, held: 0, released: 0 });
    expect(await tasksOf(sub)).toEqual(before);
  });

  it("Basic has three services; Premium eleven schedules (HVAC is two)", async () => {
    const basic = await subscription("basic", "2026-11-02");
    expect((await sync(basic, "2026-11-02")).added).toBe(3);
    const premium = await subscription("premium", "2026-11-02");
    expect((await sync(premium, "2026-11-02")).added).toBe(11);
    expect((await planServices.forSubscription(premium.id, "2026-11-02")).map((s) => s.service)).toEqual([
      "health-report",
      "concierge-line",
      "repairs-coordination",
      "window-cleaning",
      "hvac-maintenance/air-conditioning",
      "hvac-maintenance/furnace",
      "gutter-cleaning",
      "lawn-maintenance",
      "snow-removal",
      "vacation-prep",
      "absentee-care",
    ]);
  });

  it("Premium started Dec 20: snow weekly from that day, through March only, expanded by the daily expansion like any schedule", async () => {
    const sub = await subscription("premium", "2026-12-20");
    await sync(sub, "2026-12-20");
    const snow = (await tasksOf(sub)).filter((t) => t.service === "snow-removal").map((t) => t.date);
    expect(snow.slice(0, 3)).toEqual(["2026-12-20", "2026-12-27", "2027-01-03"]);
    expect(snow.at(-1)).toBe("2027-03-14"); // the 90-day horizon: Dec 20 + 90 = Mar 20
    const services = await planServices.forSubscription(sub.id, "2026-12-20");
    const lawn = services.find((s) => s.service === "lawn-maintenance")!;
    expect(lawn.nextDate?.slice(0, 7)).toBe("2027-05");
    expect(services.find((s) => s.service === "absentee-care")!.nextDate).toBe("2027-01-01");

    // Three months later the expansion carries snow to the end of March, and nothing in April; lawn care begins in May.
    const expanded = await ctx.container.maintenance.expand({ today: "2027-03-10" });
    expect(expanded.created).toBeGreaterThan(0);
    const after = await tasksOf(sub);
    const snowAfter = after.filter((t) => t.service === "snow-removal").map((t) => t.date);
    expect(snowAfter.at(-1)).toBe("2027-03-28");
    expect(snowAfter.some((d) => d.slice(5, 7) >= "04" && d.slice(5, 7) <= "11")).toBe(false);
    const lawnDates = after.filter((t) => t.service === "lawn-maintenance").map((t) => t.date);
    expect(lawnDates[0]).toBe(lawn.nextDate);
    expect(lawnDates.every((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 0)).toBe(true); // Dec 20, 2026 was a Sunday
    // On-request services never expand.
    expect(after.some((t) => ["vacation-prep", "concierge-line", "repairs-coordination"].includes(t.service))).toBe(
      false,
    );

    // A repeat of the expansion adds nothing.
    const again = await ctx.container.maintenance.expand({ today: "2027-03-10" });
    expect(again.created).toBe(0);
  });

  it("an upgrade adds the new plan's schedules; the old ones stay as they were", async () => {
    const sub = await subscription("basic", "2026-11-02");
    await sync(sub, "2026-11-02");
    const before = await tasksOf(sub);
    const upgraded = { ...sub, planType: "standard" as const };
    expect(await sync(upgraded, "2026-12-01")).toEqual({ added: 4, ended: 0, held: 0, released: 0 });
    const services = await planServices.forSubscription(sub.id, "2026-12-01");
    // First visits on or after the upgrade: the November gutters are past, the next is June 15.
    expect(services.find((s) => s.service === "gutter-cleaning")!.nextDate).toBe("2027-06-15");
    const after = await tasksOf(sub);
    expect(after.filter((t) => t.service === "health-report")).toEqual(
      before.filter((t) => t.service === "health-report"),
    );
    expect(await sync(upgraded, "2026-12-01")).toEqual({ added: 0, ended: 0, held: 0, released: 0 });
  });

  it("a downgrade ends the services that go: future untouched tasks cancelled, done and edited ones stay; upgrading again reopens them", async () => {
    const sub = await subscription("premium", "2026-12-20");
    await sync(sub, "2026-12-20");
    const snow = (await tasksOf(sub)).filter((t) => t.service === "snow-removal");
    const [past, done, edited, ...rest] = snow;
    // A visit done, and one a person edited (its version grows): both must stay.
    await ctx.container.maintenance.updateTask(done!.id, { status: "completed" });
    await ctx.container.maintenance.updateTask(edited!.id, { notes: "Clear the side path too" });

    const today = "2027-01-01";
    const standard = { ...sub, planType: "standard" as const };
    expect(await sync(standard, today)).toEqual({ added: 0, ended: 4, held: 0, released: 0 });
    const after = await tasksOf(sub);
    const status = (id: number) => after.find((t) => t.id === id)!.status;
    expect(status(past!.id)).toBe("scheduled"); // Dec 20: before the downgrade, kept as it was
    expect(status(done!.id)).toBe("completed");
    expect(status(edited!.id)).toBe("scheduled");
    for (const t of rest) expect(status(t.id)).toBe(t.date >= today ? "cancelled" : "scheduled");
    const services = await planServices.forSubscription(sub.id, today);
    const ended = services.filter((s) => s.endedAt).map((s) => s.service);
    expect(ended.sort()).toEqual(["absentee-care", "lawn-maintenance", "snow-removal", "vacation-prep"]);
    expect(services.find((s) => s.service === "snow-removal")!.nextDate).toBeNull();

    // An ended schedule expands nothing more.
    const snowCount = (await tasksOf(sub)).filter((t) => t.service === "snow-removal").length;
    await ctx.container.maintenance.expand({ today: "2027-02-01" });
    expect((await tasksOf(sub)).filter((t) => t.service === "snow-removal").length).toBe(snowCount);

    // Idempotent: the same downgrade again changes nothing.
    expect(await sync(standard, today)).toEqual({ added: 0, ended: 0, held: 0, released: 0 });

    // Upgrade again: the ended schedules reopen (no duplicates), and the tasks the end cancelled come back.
    expect(await sync(sub, today)).toEqual({ added: 4, ended: 0, held: 0, released: 0 });
    const reopened = await tasksOf(sub);
    for (const t of rest.filter((r) => r.date >= today))
      expect(reopened.find((x) => x.id === t.id)!.status).toBe("scheduled");
    const schedules = await ctx
      .db("maintenance_schedules")
      .where({ subscription_id: sub.id })
      .select("plan_service", "ended_at");
    expect(schedules).toHaveLength(11);
    expect(schedules.every((s) => s.ended_at === null)).toBe(true);
  });

  it("a cancellation ends every service; a task done stays done", async () => {
    const sub = await subscription("standard", "2026-11-02");
    await sync(sub, "2026-11-02");
    const [first, second] = await tasksOf(sub);
    await ctx.container.maintenance.updateTask(first!.id, { status: "completed" });
    expect(await sync({ ...sub, status: "canceled" }, "2026-11-03")).toEqual({
      added: 0,
      ended: 7,
      held: 0,
      released: 0,
    });
    const after = await tasksOf(sub);
    expect(after.find((t) => t.id === first!.id)!.status).toBe("completed");
    expect(after.find((t) => t.id === second!.id)!.status).toBe("cancelled");
    expect(
      (await planServices.forSubscription(sub.id, "2026-11-03")).every(
        (s) => s.endedAt !== null && s.nextDate === null,
      ),
    ).toBe(true);
    expect(await sync({ ...sub, status: "canceled" }, "2026-11-03")).toEqual({
      added: 0,
      ended: 0,
      held: 0,
      released: 0,
    });
    // 'unpaid' and 'incomplete_expired' end it the same way: nothing is left to end.
    expect(await sync({ ...sub, status: "unpaid" }, "2026-11-04")).toEqual({
      added: 0,
      ended: 0,
      held: 0,
      released: 0,
    });
  });

  it("past due holds the future tasks (shown as held, not hidden, version untouched); paid again releases them", async () => {
    const sub = await subscription("premium", "2026-12-20");
    await sync(sub, "2026-12-20");
    const before = await tasksOf(sub);
    const future = before.filter((t) => t.date >= "2027-01-05");
    expect(future.length).toBeGreaterThan(3);

    const pastDue = { ...sub, status: "past_due" };
    const held = await sync(pastDue, "2027-01-05");
    expect(held).toEqual({ added: 0, ended: 0, held: future.length, released: 0 });
    const whileHeld = await tasksOf(sub);
    for (const t of whileHeld) expect(t.held).toBe(t.date >= "2027-01-05");
    expect(whileHeld.map((t) => t.version)).toEqual(before.map((t) => t.version));
    expect(whileHeld.map((t) => t.status)).toEqual(before.map((t) => t.status));
    expect(await sync(pastDue, "2027-01-05")).toEqual({ added: 0, ended: 0, held: 0, released: 0 });
    expect((await planServices.forSubscription(sub.id, "2027-01-05")).every((s) => s.held)).toBe(true);

    // The calendar and the list show them held, with their service and plan.
    const held0 = whileHeld.find((t) => t.held && t.service === "snow-removal")!;
    const calendar = await staff.get(`/api/maintenance-calendar?from=${held0.date}&to=${held0.date}`).expect(200);
    expect(calendar.body.tasks.find((t: { id: number }) => t.id === held0.id)).toMatchObject({
      held: true,
      planService: "snow-removal",
      planType: "premium",
      title: "Snow removal",
    });
    const list = await staff.get(`/api/maintenance-tasks?propertyId=${sub.propertyId}&sort=date`).expect(200);
    expect(list.body.find((t: { id: number }) => t.id === held0.id)).toMatchObject({
      held: true,
      planService: "snow-removal",
      planType: "premium",
    });

    // The expansion adds a held subscription's new tasks held.
    await ctx.container.maintenance.expand({ today: "2027-02-01" });
    const expanded = await tasksOf(sub);
    const added = expanded.filter((t) => !before.some((b) => b.id === t.id));
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((t) => t.held)).toBe(true);

    // Paid again: everything held is released, versions still untouched.
    const released = await sync(sub, "2027-02-01");
    expect(released).toEqual({ added: 0, ended: 0, held: 0, released: expanded.filter((t) => t.held).length });
    const after = await tasksOf(sub);
    expect(after.every((t) => !t.held)).toBe(true);
    expect(after.filter((t) => before.some((b) => b.id === t.id)).map((t) => t.version)).toEqual(
      before.map((t) => t.version),
    );
    expect(await sync(sub, "2027-02-01")).toEqual({ added: 0, ended: 0, held: 0, released: 0 });
  });

  it("a subscription that starts past due makes its schedules with held tasks", async () => {
    const sub = await subscription("standard", "2026-11-02", "past_due");
    await sync(sub, "2026-11-02");
    const tasks = await tasksOf(sub);
    expect(tasks.length).toBeGreaterThan(0);
    expect(tasks.every((t) => t.held)).toBe(true);
  });

  it("health report: a year after the last completed inspection; an inspection completed later moves the due date", async () => {
    const sub = await subscription("basic", "2026-11-02");
    await ctx.db("inspections").insert({
      property_id: sub.propertyId,
      inspection_date: "2026-06-10",
      status: "completed",
      completed_at: new Date("2026-06-10T18:00:00Z"),
    });
    await sync(sub, "2026-11-02");
    const due = (s: { service: string }) => s.service === "health-report";
    expect((await planServices.forSubscription(sub.id, "2026-11-02")).find(due)!.nextDate).toBe("2027-06-10");

    // A home without one: two weeks after the start, a task within the horizon.
    const fresh = await subscription("basic", "2026-11-02");
    await sync(fresh, "2026-11-02");
    expect((await tasksOf(fresh)).filter(due).map((t) => [t.date, t.title])).toEqual([
      ["2026-11-16", "Annual home inspection due"],
    ]);

    // The inspection is done on Nov 10: the due task of Nov 16 is cancelled, the next one is a year later.
    await ctx.db("inspections").insert({
      property_id: fresh.propertyId,
      inspection_date: "2026-11-10",
      status: "completed",
      completed_at: new Date("2026-11-10T18:00:00Z"),
    });
    await sync(fresh, "2026-11-11");
    expect((await tasksOf(fresh)).filter(due).map((t) => [t.date, t.status])).toEqual([["2026-11-16", "cancelled"]]);
    expect((await planServices.forSubscription(fresh.id, "2026-11-11")).find(due)!.nextDate).toBe("2027-11-10");
    expect(await sync(fresh, "2026-11-11")).toEqual({ added: 0, ended: 0, held: 0, released: 0 });
  });

  it("requestService: a dated task for an on-request service; 400 for a service the plan lacks or schedules, or a past date; 409 for the same date twice", async () => {
    const sub = await subscription("premium", "2026-11-02");
    await sync(sub, "2026-11-02");
    const now = new Date("2026-11-05T15:00:00Z");
    const task = await planServices.requestService(
      {
        subscriptionId: sub.id,
        service: "vacation-prep",
        date: "2026-12-18",
        notes: "Away until Jan 4",
        source: "staff",
      },
      now,
    );
    expect(task).toMatchObject({
      title: "Vacation prep",
      scheduledDate: "2026-12-18",
      status: "scheduled",
      notes: "Away until Jan 4",
      held: false,
      propertyId: sub.propertyId,
    });
    expect(task.description).toContain("Requested by staff");
    const portal = await planServices.requestService(
      { subscriptionId: sub.id, service: "repairs-coordination", date: "2026-11-20", source: "portal" },
      now,
    );
    expect(portal.description).toContain("Requested by the homeowner");
    const list = await staff.get(`/api/maintenance-tasks?propertyId=${sub.propertyId}&q=Vacation`).expect(200);
    expect(list.body[0]).toMatchObject({ id: task.id, planService: "vacation-prep", planType: "premium" });

    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "vacation-prep", date: "2026-12-18", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 409 });

    const basic = await subscription("basic", "2026-11-02");
    await sync(basic, "2026-11-02");
    await expect(
      planServices.requestService(
        { subscriptionId: basic.id, service: "vacation-prep", date: "2026-12-18", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({
      status: 400,
      fields: { service: "The basic plan does not include this service" },
    });
    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "window-cleaning", date: "2026-12-18", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "no-such-thing", date: "2026-12-18", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "vacation-prep", date: "2026-11-01", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({
      status: 400,
      fields: { date: "Choose today or a later date" },
    });
    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "vacation-prep", date: "2026-13-01", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      planServices.requestService(
        { subscriptionId: 999_999, service: "vacation-prep", date: "2026-12-18", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 404 });

    // A requested task is ended like any other plan task when its service goes.
    await ctx.db("subscriptions").where({ id: sub.id }).update({ plan_type: "standard" });
    await sync({ ...sub, planType: "standard" }, "2026-11-06");
    expect((await ctx.container.maintenance.findTask(task.id))!.status).toBe("cancelled");
    await expect(
      planServices.requestService(
        { subscriptionId: sub.id, service: "vacation-prep", date: "2026-12-19", source: "staff" },
        now,
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("two syncs at once add each schedule once", async () => {
    const sub = await subscription("standard", "2026-11-02");
    const results = await Promise.all([sync(sub, "2026-11-02"), sync(sub, "2026-11-02")]);
    expect(results.map((r) => r.added).sort()).toEqual([0, 7]);
    expect(await ctx.db("maintenance_schedules").where({ subscription_id: sub.id }).count({ n: "*" }).first()).toEqual({
      n: 7,
    });
  });

  it("staff schedules (no rule) keep expanding by their recurrence type", async () => {
    const { property } = await ctx.container.customers.createWithProperty(
      { email: "plain@example.com", name: "Plain Owner", subscriptionPlan: "basic" },
      { address: "1 Plain Street", city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
    );
    const created = await ctx.container.maintenance.createSchedule({
      propertyId: property.id,
      title: "Test sump pump",
      category: "plumbing",
      recurrenceType: "monthly",
      startDate: "2099-01-31",
    });
    expect(created).toMatchObject({ rrule: null, planService: null, subscriptionId: null, held: false, endedAt: null });
    const result = await ctx.container.maintenance.expand({ today: "2099-01-31", scheduleIds: [created.id] });
    expect(result.created).toBe(4); // Jan 31, Feb 28, Mar 31, Apr 30 within 90 days
  });
});
