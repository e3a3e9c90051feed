// Inspectors' calendars (docs/decisions.md#37): the availability call, the assignment, the race for the last
// time, reassignment by the office and the no-overlap constraint in Postgres itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SLOT_TAKEN } from "../../src/modules/bookings/bookings.constants.js";
import { inspectionMinutes } from "../../src/modules/bookings/availability.js";
import { TIME_SLOTS, addDays, dayOfWeek } from "../../src/shared/business-time.js";
import { DEMO_INSPECTORS } from "../../seeds/demo/inspectors.js";
import { seedDemo } from "../../seeds/demo/index.js";
import { runHavenHere } from "../support/cli.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import {
  EVERY_DAY,
  addInspector,
  availabilityOn as availability,
  bookByWizard,
  bookingContext,
  postWizard,
  wizardPayload,
} from "../support/inspectors.js";

const WEEKDAY = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

describe("with no inspector set up (a fresh install)", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("offers every time, and two homes may take the same 9:00 AM, unassigned, as before", async () => {
    const date = ctx.container.bookings.calendar().minDate;
    const open = await availability(ctx, date, 1500);
    expect(open.calendar).toBe("open");
    expect(open.days).toEqual([{ date, slots: TIME_SLOTS, parts: ["morning", "afternoon", "evening"] }]);
    // An inspector without working hours is not set up yet: nothing changes.
    await addInspector(ctx, "Idle");
    expect((await availability(ctx, date)).calendar).toBe("open");
    const a = await bookByWizard(ctx);
    const b = await bookByWizard(ctx);
    expect([a.body.inspectorId, b.body.inspectorId]).toEqual([null, null]);
    // Each still holds its time, so inspectors added later can take it (haven inspectors assign-open).
    const rows = await ctx.db("inspection_bookings").whereIn("id", [a.body.id, b.body.id]).whereNotNull("during");
    expect(rows).toHaveLength(2);
  });

  it("checks the availability query: dates, span and size", async () => {
    const date = ctx.container.bookings.calendar().minDate;
    const bad = await ctx
      .agent()
      .get("/api/inspection-bookings/availability")
      .query({ from: "2026-13-01", to: addDays(date, 40), size: "12" })
      .expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(["from", "size"]);
    const long = await ctx
      .agent()
      .get("/api/inspection-bookings/availability")
      .query({ from: date, to: addDays(date, 31) })
      .expect(400);
    expect(long.body.fields.to).toMatch(/at most 31 days/);
    await ctx.agent().get("/api/inspection-bookings/availability").expect(400);
  });
});

describe("inspectors' calendars", () => {
  let ctx: TestContext;
  let date: string;
  beforeAll(async () => ({ ctx, date } = await bookingContext()));
  afterAll(() => ctx.close());

  it("the embedded Postgres has btree_gist, and the roles follow decision 36", async () => {
    const ext = await ctx.db("pg_extension").where({ extname: "btree_gist" }).first("extname");
    expect(ext).toBeTruthy();
    const { user } = await signInStaff(ctx);
    expect(user.role).toBe("owner");
    await expect(ctx.db("staff_users").where({ id: user.id }).update({ role: "admin" })).rejects.toThrow(
      /staff_users_role_check/,
    );
    await expect(
      ctx.container.users.create({
        email: "x@haven.test",
        password: "correct horse battery",
        firstName: "X",
        lastName: "Y",
        role: "boss",
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("offers only the times an inspector works, minus time off and bookings, for the home's length", async () => {
    expect([
      inspectionMinutes(1500),
      inspectionMinutes(3000),
      inspectionMinutes(5000),
      inspectionMinutes(null),
    ]).toEqual([120, 180, 240, 180]);
    const ana = await addInspector(ctx, "Ana", { weekdays: "mon-sun", from: "08:00", to: "12:00" });
    const small = await availability(ctx, date, 1500);
    expect(small.calendar).toBe("inspectors");
    expect(small.days[0]).toEqual({
      date,
      slots: ["8:00 AM", "8:30 AM", "9:00 AM", "9:30 AM", "10:00 AM"],
      parts: ["morning"],
    });
    expect((await availability(ctx, date, 3000)).days[0]!.slots).toEqual(["8:00 AM", "8:30 AM", "9:00 AM"]);
    expect((await availability(ctx, date, 5000)).days[0]!.slots).toEqual(["8:00 AM"]);

    // Time off from 8:00 to 9:00 that day.
    await ctx.container.inspectors.addTimeOff(ana.email, { from: `${date} 08:00`, to: `${date} 09:00` });
    expect((await availability(ctx, date, 1500)).days[0]).toEqual({
      date,
      slots: ["9:00 AM", "9:30 AM", "10:00 AM"],
      parts: [],
    });

    // A second inspector who works that weekday's afternoon only.
    await addInspector(ctx, "Bo", { weekdays: WEEKDAY[dayOfWeek(date)]!, from: "12:00", to: "17:00" });
    const afternoon = ["12:00 PM", "12:30 PM", "1:00 PM", "1:30 PM", "2:00 PM", "2:30 PM", "3:00 PM"];
    const both = (await availability(ctx, date, 1500)).days[0]!;
    expect(both.slots).toEqual(["9:00 AM", "9:30 AM", "10:00 AM", ...afternoon]);
    expect(both.parts).toEqual(["afternoon"]);
    // Bo does not work the next day.
    expect((await availability(ctx, addDays(date, 1), 1500)).days[0]!.slots).not.toContain("1:00 PM");

    // Ana takes 9:00 for two hours: her morning is full.
    const booked = await bookByWizard(ctx, { timeSlot: "9:00 AM" });
    expect(booked.body).toMatchObject({ inspectorId: ana.id, inspectorName: "Ana Inspector" });
    const after = (await availability(ctx, date, 1500)).days[0]!;
    expect(after.slots).toEqual(afternoon);

    // A time nobody is free at is refused with fresh times, and writes nothing.
    const before = await ctx.db("customers").count({ n: "*" }).first();
    const refused = await bookByWizard(ctx, { timeSlot: "10:00 AM" }, 409);
    expect(refused.body.message).toBe(SLOT_TAKEN);
    expect(refused.body.fields).toEqual({ timeSlot: SLOT_TAKEN });
    expect(refused.body.availability.days[0]).toMatchObject({ date, slots: after.slots });
    expect(await ctx.db("customers").count({ n: "*" }).first()).toEqual(before);
  });

  it("a part of the day takes an inspector for the whole window (the booking page)", async () => {
    const agent = ctx.agent();
    const first = await agent
      .post("/api/inspection-bookings")
      .send(wizardPayload(ctx, { timeSlot: "2:30 PM" }))
      .expect(201);
    // The booking page's first weekday; only Hal works its afternoon whole.
    const day = ctx.container.bookings.calendar().bookingDates[0]!;
    await addInspector(ctx, "Hal", { weekdays: "mon-sun", from: "12:00", to: "17:00" });
    expect((await availability(ctx, day, 1500)).days[0]!.parts).toContain("afternoon");
    const page = await agent
      .post("/api/inspection-bookings")
      .send({ propertyId: first.body.propertyId, scheduledDate: day, timeSlot: "afternoon" })
      .expect(201);
    expect(page.body.inspectorName).toBe("Hal Inspector");
    const row = await ctx.db.raw(
      "select extract(epoch from upper(during) - lower(during))::int as seconds from inspection_bookings where id = ?",
      [page.body.id],
    );
    expect(row.rows[0].seconds).toBe(5 * 3600);
    expect((await availability(ctx, day, 1500)).days[0]!.parts).not.toContain("afternoon");
  });
});

describe("assignment and the race for the last 9:00 AM", () => {
  let ctx: TestContext;
  let date: string;
  beforeAll(async () => ({ ctx, date } = await bookingContext()));
  afterAll(() => ctx.close());

  it("gives each booking to the least-loaded free inspector", async () => {
    const cy = await addInspector(ctx, "Cy", EVERY_DAY);
    const di = await addInspector(ctx, "Di", EVERY_DAY);
    const at = async (slot: string) => (await bookByWizard(ctx, { timeSlot: slot })).body.inspectorId;
    // Equal loads: the lowest id; then the other, who has less that day; then equal again.
    expect(await at("8:00 AM")).toBe(cy.id);
    expect(await at("12:00 PM")).toBe(di.id);
    expect(await at("2:30 PM")).toBe(cy.id);
    // Both are free at 10:00 AM: Di has fewer minutes booked that day.
    expect(await at("10:00 AM")).toBe(di.id);
  });

  it("two homeowners booking the last free 9:00 AM at once get one booking and one 409 with fresh times", async () => {
    const day = addDays(date, 1);
    await addInspector(ctx, "Ed", EVERY_DAY);
    // Every inspector but one is busy at 9:00 that day.
    const inspectors = await ctx.container.inspectors.options();
    for (let i = 0; i < inspectors.length - 1; i++) await bookByWizard(ctx, { scheduledDate: day });
    expect((await availability(ctx, day, 1500)).days[0]!.slots).toContain("9:00 AM");
    const before = Number((await ctx.db("inspection_bookings").count({ n: "*" }).first())!.n);

    const [a, b] = await Promise.all([
      postWizard(ctx, { scheduledDate: day }),
      postWizard(ctx, { scheduledDate: day }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body.message).toBe("That time was just taken");
    const fresh = lost.body.availability.days.find((d: { date: string }) => d.date === day);
    expect(fresh.slots).not.toContain("9:00 AM");
    expect(fresh.slots).toContain("1:00 PM");
    expect(Number((await ctx.db("inspection_bookings").count({ n: "*" }).first())!.n)).toBe(before + 1);
    const nine = await ctx.db("inspection_bookings").where({ scheduled_date: day, time_slot: "9:00 AM" });
    expect(new Set(nine.map((r) => r.inspector_id)).size).toBe(inspectors.length);
  });

  it("the constraint holds on a direct SQL insert, whatever the code does", async () => {
    const inspectorId = (await ctx.container.inspectors.options())[0]!.id;
    const row = await ctx
      .db("inspection_bookings")
      .whereNotNull("inspector_id")
      .where({ inspector_id: inspectorId })
      .first();
    const copy = {
      property_id: row.property_id,
      customer_id: row.customer_id,
      scheduled_date: row.scheduled_date,
      time_slot: row.time_slot,
      source: "wizard",
      inspector_id: inspectorId,
      during: ctx.db.raw(
        "(select tstzrange(lower(during) + interval '30 minutes', upper(during) + interval '1 hour') from inspection_bookings where id = ?)",
        [row.id],
      ),
    };
    await expect(ctx.db("inspection_bookings").insert(copy)).rejects.toMatchObject({ code: "23P01" });
    // A cancelled booking holds nothing; an older image's insert (no inspector, no range) still works.
    await ctx.db("inspection_bookings").insert({ ...copy, status: "cancelled" });
    await ctx.db("inspection_bookings").insert({ ...copy, inspector_id: null, during: null });
    // An inspector needs a time range.
    await expect(ctx.db("inspection_bookings").insert({ ...copy, during: null })).rejects.toMatchObject({
      code: "23514",
    });
  });
});

describe("the office reassigns", () => {
  let ctx: TestContext;
  let date: string;
  beforeAll(async () => ({ ctx, date } = await bookingContext()));
  afterAll(() => ctx.close());

  it("gives a booking to another inspector, refuses an overlap with 409 and an unknown inspector with 400", async () => {
    const fay = await addInspector(ctx, "Fay", EVERY_DAY);
    const gus = await addInspector(ctx, "Gus", EVERY_DAY);
    const { agent: staff } = await signInStaff(ctx);
    const one = (await bookByWizard(ctx)).body;
    const two = (await bookByWizard(ctx)).body;
    expect([one.inspectorId, two.inspectorId]).toEqual([fay.id, gus.id]);

    await staff.patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: gus.id }).expect(409);
    const moved = await staff.patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: null }).expect(200);
    expect(moved.body.inspectorId).toBeNull();
    const back = await staff.patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: fay.id }).expect(200);
    expect(back.body).toMatchObject({ inspectorId: fay.id, inspectorName: "Fay Inspector", timeSlot: "9:00 AM" });
    const unknown = await staff.patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: 999999 }).expect(400);
    expect(unknown.body.fields.inspectorId).toBeTruthy();
    await staff.patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: "x" }).expect(400);
    await ctx.agent().patch(`/api/inspection-bookings/${one.id}`).send({ inspectorId: fay.id }).expect(401);

    // Moving a booking to a time when both are busy is a 409 with fresh times; a free time keeps its inspector.
    const three = (await bookByWizard(ctx, { timeSlot: "1:00 PM" })).body;
    const busy = await staff
      .patch(`/api/inspection-bookings/${three.id}`)
      .send({ scheduledDate: date, timeSlot: "10:00 AM" })
      .expect(409);
    expect(busy.body.availability.days[0].date).toBe(date);
    const later = await staff
      .patch(`/api/inspection-bookings/${three.id}`)
      .send({ scheduledDate: date, timeSlot: "2:00 PM" })
      .expect(200);
    expect(later.body.inspectorId).toBe(three.inspectorId);
    expect((await staff.get("/api/inspectors").expect(200)).body).toEqual([
      { id: fay.id, name: "Fay Inspector" },
      { id: gus.id, name: "Gus Inspector" },
    ]);
  });
});

describe("haven inspectors, haven users create --role, and the demo's inspectors", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("creates an inspector, sets their hours and time off, and lists them", { timeout: 120_000 }, async () => {
    const haven = (args: string[], stdin?: string) => runHavenHere(ctx.url, args, { stdin });
    const created = await haven(
      [
        "users",
        "create",
        "--email",
        "ivy@haven.test",
        "--first-name",
        "Ivy",
        "--last-name",
        "Roy",
        "--role",
        "inspector",
      ],
      "a-long-password\n",
    );
    expect(created.stdout, created.stderr).toMatch(/Created staff user #\d+ ivy@haven.test \(inspector\)\./);
    const wrong = await haven(
      ["users", "create", "--email", "x@haven.test", "--first-name", "X", "--last-name", "Y", "--role", "admin"],
      "a-long-password\n",
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("Allowed choices are owner, office, inspector");

    const hours = await haven([
      "inspectors",
      "hours",
      "ivy@haven.test",
      "--weekday",
      "mon-fri",
      "--from",
      "08:00",
      "--to",
      "16:30",
    ]);
    expect(hours.stdout, hours.stderr).toContain("Ivy Roy works 08:00-16:30 on mon, tue, wed, thu, fri.");
    const off = await haven(["inspectors", "hours", "ivy@haven.test", "--weekday", "fri", "--off"]);
    expect(off.stdout).toContain("Ivy Roy no longer works on fri.");
    const bad = await haven([
      "inspectors",
      "hours",
      "ivy@haven.test",
      "--weekday",
      "someday",
      "--from",
      "8",
      "--to",
      "9",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Weekday must be mon, tue, wed, thu, fri, sat or sun");
    const nobody = await haven([
      "inspectors",
      "hours",
      "nobody@haven.test",
      "--weekday",
      "mon",
      "--from",
      "08:00",
      "--to",
      "09:00",
    ]);
    expect(nobody.stderr).toContain("No active inspector with e-mail nobody@haven.test");

    // A Monday and Tuesday off, a week or more ahead.
    let monday = addDays(ctx.container.bookings.calendar().minDate, 7);
    while (dayOfWeek(monday) !== 1) monday = addDays(monday, 1);
    const leave = await haven([
      "inspectors",
      "time-off",
      "ivy@haven.test",
      "--from",
      monday,
      "--to",
      addDays(monday, 1),
      "--reason",
      "Holidays",
    ]);
    expect(leave.stdout, leave.stderr).toMatch(/^Time off #\d+: \S+Z to \S+Z\.\n$/);
    const list = JSON.parse((await haven(["inspectors", "list", "--json"])).stdout);
    expect(list).toMatchObject([
      {
        email: "ivy@haven.test",
        name: "Ivy Roy",
        hours: "mon 08:00-16:30, tue 08:00-16:30, wed 08:00-16:30, thu 08:00-16:30",
      },
    ]);
    expect(list[0].timeOff).toMatchObject([{ reason: "Holidays" }]);
    // Monday and Tuesday are time off; Tuesday a week later is worked, its last 3-hour start at 1:30 PM.
    const days = (await ctx.container.inspectors.availability({ from: monday, to: addDays(monday, 8) })).days;
    expect(days.find((d) => d.date === monday)!.slots).toEqual([]);
    expect(days.find((d) => d.date === addDays(monday, 1))!.slots).toEqual([]);
    expect(days.find((d) => d.date === addDays(monday, 2))!.slots.length).toBeGreaterThan(0);
    expect(days.find((d) => d.date === addDays(monday, 8))!.slots.at(-1)).toBe("1:30 PM");
  });

  it("the demo seed gives three inspectors with hours, and its bookings to them without overlap", {
    timeout: 240_000,
  }, async () => {
    const result = await seedDemo(ctx.container, { properties: 12, inspectors: true, extras: false });
    const names = (await ctx.container.inspectors.list()).map((i) => i.email);
    expect(names).toEqual(expect.arrayContaining(DEMO_INSPECTORS.map((i) => i.email)));
    expect(result.assignedBookings).toBeGreaterThan(0);
    const given = await ctx.db("inspection_bookings").whereNotNull("inspector_id").count({ n: "*" }).first();
    expect(Number(given!.n)).toBe(result.assignedBookings);
    // Run again: the inspectors are not made twice, and nothing is given out twice.
    await seedDemo(ctx.container, { properties: 2, inspectors: true, extras: false });
    expect((await ctx.container.inspectors.list()).length).toBe(names.length);
  });
});

describe("the constraint decides a race the code cannot see", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it("a booking whose inspector is taken by a transaction it could not see goes to the next free inspector", async () => {
    const date = ctx.container.bookings.calendar().minDate;
    const jo = await addInspector(ctx, "Jo", EVERY_DAY);
    const kim = await addInspector(ctx, "Kim", EVERY_DAY);
    const first = (await bookByWizard(ctx, { timeSlot: "3:00 PM" })).body;
    expect(first.inspectorId).toBe(jo.id);
    await bookByWizard(ctx, { timeSlot: "3:00 PM" });
    // Another transaction gives Jo 9:00 to 11:00 and has not committed: the booking below cannot see it, picks
    // Jo (equal loads, lowest id) and waits on the constraint until that transaction commits.
    const other = await ctx.db.transaction();
    await other.raw(
      `insert into inspection_bookings (property_id, customer_id, scheduled_date, time_slot, source, inspector_id, during)
       select property_id, customer_id, ?, '9:00 AM', 'wizard', ?, tstzrange(lower(during) - interval '6 hours', lower(during) - interval '4 hours')
         from inspection_bookings where id = ?`,
      [date, jo.id, first.id],
    );
    const pending = postWizard(ctx, { timeSlot: "9:00 AM" }).then((r) => r);
    await expect
      .poll(
        async () =>
          (
            await ctx.db.raw(
              "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
          ).rows[0].n,
        { timeout: 10_000, interval: 20 },
      )
      .toBe(1);
    await other.commit();
    const res = await pending;
    expect(res.status).toBe(201);
    expect(res.body.inspectorId).toBe(kim.id);
  });
});
