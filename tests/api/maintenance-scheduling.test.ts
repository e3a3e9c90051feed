import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

// a task gets a date, a time, a duration and a staff user; the schedule form a
// time; the list view reads tasks by date (undated last) and filters them.

let seq = 0;
async function newProperty(ctx: TestContext, address?: string) {
  seq += 1;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `sched${seq}@example.com`, name: `Owner ${seq}`, subscriptionPlan: "standard" },
    { address: address ?? `${seq} Bank Street`, city: "Ottawa", province: "ON", postalCode: "K1S 2B4" },
  );
  return property;
}

describe("maintenance task scheduling", () => {
  let ctx: TestContext;
  let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
  let staffUser: Awaited<ReturnType<typeof signInStaff>>["user"];
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ agent: staff, user: staffUser } = await signInStaff(ctx));
  });
  afterAll(() => ctx?.close());

  async function recommendation(title = "Seal the attic hatch") {
    const property = await newProperty(ctx);
    const [task] = await ctx.container.maintenance.createTasks([
      { propertyId: property.id, title, category: "exterior", priority: "high" },
    ]);
    return task!;
  }

  it("PATCH dates, times, sizes and assigns a recommendation task, and the calendar shows it with its property", async () => {
    const task = await recommendation();
    expect(task.scheduledDate).toBeNull();
    const res = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({
        status: "scheduled",
        scheduledDate: "2026-12-03",
        scheduledTime: "14:30",
        estimatedDuration: "90",
        assignedTo: staffUser.id,
        version: task.version,
      })
      .expect(200);
    expect(res.body).toMatchObject({
      status: "scheduled",
      scheduledDate: "2026-12-03",
      scheduledTime: "02:30 PM",
      estimatedDuration: 90,
      assignedTo: staffUser.id,
      version: task.version + 1,
    });

    const calendar = await staff.get("/api/maintenance-calendar?month=2026-12").expect(200);
    const shown = calendar.body.tasks.find((t: { id: number }) => t.id === task.id);
    expect(shown).toMatchObject({
      scheduledTime: "02:30 PM",
      assignedTo: staffUser.id,
      assignedToName: "Sam Inspector",
      propertyAddress: expect.stringContaining("Bank Street"),
    });

    // '2:05 pm' is the same kind of time; an empty value clears a field.
    const cleared = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({ scheduledTime: "2:05 pm", estimatedDuration: "", assignedTo: null })
      .expect(200);
    expect(cleared.body).toMatchObject({
      scheduledTime: "02:05 PM",
      estimatedDuration: null,
      assignedTo: null,
      status: "scheduled",
    });
  });

  it("'scheduled' without a date asks for one, sent or kept, and writes nothing", async () => {
    const task = await recommendation();
    const res = await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ status: "scheduled" }).expect(400);
    expect(res.body.fields.scheduledDate).toBe("Choose a date to schedule the task");
    const cleared = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({ status: "scheduled", scheduledDate: "" })
      .expect(400);
    expect(cleared.body.fields.scheduledDate).toBe("Choose a date to schedule the task");
    expect(await ctx.container.maintenance.findTask(task.id)).toMatchObject({
      status: "pending",
      version: task.version,
    });

    // A dated task may become scheduled without sending its date again, but may not lose its date while scheduled.
    await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ scheduledDate: "2026-12-10" }).expect(200);
    await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ status: "scheduled" }).expect(200);
    const undated = await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ scheduledDate: null }).expect(400);
    expect(undated.body.fields.scheduledDate).toBe("Choose a date to schedule the task");
  });

  it("refuses a bad date, time, duration or assignee with the field named, and writes nothing", async () => {
    const task = await recommendation();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ scheduledDate: "2026-02-30" }, "scheduledDate", /Date/],
      [{ scheduledTime: "25:00" }, "scheduledTime", /Time must be a time such as 14:30 or 2:30 PM/],
      [{ scheduledTime: "noon" }, "scheduledTime", /Time must be a time/],
      [{ estimatedDuration: 0 }, "estimatedDuration", /at least 1 minute/],
      [{ estimatedDuration: "1.5" }, "estimatedDuration", /whole number/],
      [{ estimatedDuration: 7 * 24 * 60 + 1 }, "estimatedDuration", /at most/],
      [{ assignedTo: "0x2" }, "assignedTo", /Assigned to/],
      [{ assignedTo: 999_999 }, "assignedTo", /No staff user with this id/],
    ];
    for (const [payload, field, message] of cases) {
      const res = await staff.patch(`/api/maintenance-tasks/${task.id}`).send(payload).expect(400);
      expect(res.body.fields[field], JSON.stringify(payload)).toMatch(message);
    }
    expect(await ctx.container.maintenance.findTask(task.id)).toMatchObject({
      version: task.version,
      scheduledDate: null,
      estimatedDuration: null,
      assignedTo: null,
    });
  });

  it("a deleted staff user's tasks become unassigned", async () => {
    const task = await recommendation();
    const other = await ctx.container.users.create({
      email: `other${seq}@haven.test`,
      password: "correct horse battery",
      firstName: "Ola",
      lastName: "Office",
    });
    await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ assignedTo: other.id }).expect(200);
    await ctx.db("staff_users").where({ id: other.id }).delete();
    expect((await ctx.container.maintenance.findTask(task.id))!.assignedTo).toBeNull();
  });

  it("POST /api/maintenance-schedules takes a time for its occurrences", async () => {
    const property = await newProperty(ctx);
    const created = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: property.id,
        title: "Gutter check",
        category: "exterior",
        recurrenceType: "weekly",
        startDate: ctx.container.maintenance.today(),
        scheduledTime: "08:15",
      })
      .expect(201);
    expect(created.body.scheduledTime).toBe("08:15 AM");
    const tasks = await ctx.db("maintenance_tasks").where({ schedule_id: created.body.id }).distinct("scheduled_time");
    expect(tasks).toEqual([{ scheduled_time: "08:15 AM" }]);
    const bad = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: property.id, title: "x", category: "exterior", scheduledTime: "8 o'clock" })
      .expect(400);
    expect(bad.body.fields.scheduledTime).toMatch(/Time must be a time/);
  });

  it("the list view reads by date and time with the undated last, and filters by status, category, priority, assignee and dates", async () => {
    const property = await newProperty(ctx, "77 Elgin Street");
    const [late, undated, early, sameDayEarly] = await ctx.container.maintenance.createTasks([
      {
        propertyId: property.id,
        title: "List late",
        category: "hvac",
        priority: "low",
        status: "scheduled",
        scheduledDate: "2027-03-20",
        scheduledTime: "09:00 AM",
      },
      { propertyId: property.id, title: "List undated", category: "hvac", priority: "high" },
      {
        propertyId: property.id,
        title: "List early",
        category: "plumbing",
        priority: "high",
        status: "scheduled",
        scheduledDate: "2027-03-02",
        scheduledTime: "03:00 PM",
      },
      {
        propertyId: property.id,
        title: "List same day",
        category: "hvac",
        priority: "high",
        status: "scheduled",
        scheduledDate: "2027-03-02",
        scheduledTime: "08:00 AM",
      },
    ]);
    await staff.patch(`/api/maintenance-tasks/${late!.id}`).send({ assignedTo: staffUser.id }).expect(200);
    const ids = async (query: string) =>
      (await staff.get(`/api/maintenance-tasks?propertyId=${property.id}&sort=date&${query}`).expect(200)).body.map(
        (t: { id: number }) => t.id,
      );

    expect(await ids("")).toEqual([sameDayEarly!.id, early!.id, late!.id, undated!.id]);
    expect(await ids("status=scheduled")).toEqual([sameDayEarly!.id, early!.id, late!.id]);
    expect(await ids("category=hvac")).toEqual([sameDayEarly!.id, late!.id, undated!.id]);
    expect(await ids("priority=high&category=plumbing")).toEqual([early!.id]);
    expect(await ids(`assignedTo=${staffUser.id}`)).toEqual([late!.id]);
    expect(await ids("from=2027-03-01&to=2027-03-10")).toEqual([sameDayEarly!.id, early!.id]);
    const listed = await staff
      .get(`/api/maintenance-tasks?propertyId=${property.id}&assignedTo=${staffUser.id}`)
      .expect(200);
    expect(listed.body[0]).toMatchObject({ assignedToName: "Sam Inspector", propertyAddress: "77 Elgin Street" });

    // Without sort, the spec's order: newest first.
    expect(
      (await staff.get(`/api/maintenance-tasks?propertyId=${property.id}`).expect(200)).body.map(
        (t: { id: number }) => t.id,
      ),
    ).toEqual([sameDayEarly!.id, early!.id, undated!.id, late!.id]);
    for (const [query, field] of [
      ["sort=oldest", "sort"],
      ["category=pool", "category"],
      ["priority=urgent", "priority"],
      ["assignedTo=abc", "assignedTo"],
    ] as const) {
      const res = await staff.get(`/api/maintenance-tasks?${query}`).expect(400);
      expect(res.body.fields[field]).toBeTruthy();
    }
  });
});

describe("bookings rescheduled or cancelled from the calendar", () => {
  let ctx: TestContext;
  let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
  beforeAll(async () => {
    ctx = await createTestContext();
    ({ agent: staff } = await signInStaff(ctx));
  });
  afterAll(() => ctx?.close());

  const mails = async () =>
    Number(
      (await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail.send'"))
        .rows[0].n,
    );
  async function booking(status: "scheduled" | "completed" | "cancelled" = "scheduled") {
    seq += 1;
    const { customer, property } = await ctx.container.customers.createWithProperty(
      { email: `booked${seq}@example.com`, name: `Booked ${seq}`, subscriptionPlan: "standard" },
      { address: `${seq} Rideau Street`, city: "Ottawa", province: "ON", postalCode: "K1N 5Y3" },
    );
    const { minDate } = ctx.container.bookings.calendar();
    const saved = await ctx.db.transaction((tx) =>
      ctx.container.bookings.book(
        tx,
        {
          propertyId: property.id,
          customerId: customer.id,
          scheduledDate: minDate,
          timeSlot: "9:30 AM",
          source: "wizard",
        },
        { email: `booked${seq}@example.com`, name: `Booked ${seq}` },
      ),
    );
    if (status !== "scheduled") await ctx.db("inspection_bookings").where({ id: saved.id }).update({ status });
    return saved;
  }

  it("moves a scheduled booking under the booking rules, mails the client the new date, and the calendar shows it there", async () => {
    const saved = await booking();
    const { minDate } = ctx.container.bookings.calendar();
    const target = addDaysIso(minDate, 3);
    const before = await mails();
    const res = await staff
      .patch(`/api/inspection-bookings/${saved.id}`)
      .send({ scheduledDate: target, timeSlot: "afternoon" })
      .expect(200);
    expect(res.body).toMatchObject({ id: saved.id, scheduledDate: target, timeSlot: "afternoon", status: "scheduled" });
    expect(await mails()).toBe(before + 1);
    const calendar = await staff.get(`/api/maintenance-calendar?from=${target}&to=${target}`).expect(200);
    expect(calendar.body.bookings.map((b: { id: number }) => b.id)).toContain(saved.id);
  });

  it("refuses a date inside the 4-day lead, a bad slot, or both actions at once, naming the field and writing nothing", async () => {
    const saved = await booking();
    const { today } = ctx.container.bookings.calendar();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ scheduledDate: addDaysIso(today, 1) }, "scheduledDate", /at least 4 days/],
      [{ scheduledDate: "2026-13-01" }, "scheduledDate", /date/],
      [{ scheduledDate: addDaysIso(today, 800) }, "scheduledDate", /within a year/],
      [{ scheduledDate: addDaysIso(today, 6), timeSlot: "3 AM" }, "timeSlot", /Time slot/],
      [{ timeSlot: "morning" }, "scheduledDate", /required/],
      [{ status: "completed" }, "status", /cancelled/],
      [{ status: "cancelled", scheduledDate: addDaysIso(today, 6) }, "status", /not both/],
    ];
    const before = await mails();
    for (const [payload, field, message] of cases) {
      const res = await staff.patch(`/api/inspection-bookings/${saved.id}`).send(payload).expect(400);
      expect(res.body.fields[field], JSON.stringify(payload)).toMatch(message);
    }
    expect(await ctx.db("inspection_bookings").where({ id: saved.id }).first()).toMatchObject({
      scheduled_date: saved.scheduledDate,
      time_slot: "9:30 AM",
      status: "scheduled",
    });
    expect(await mails()).toBe(before);
  });

  it("cancels a scheduled booking; a completed or cancelled one is a 409; staff only", async () => {
    const saved = await booking();
    await ctx.agent().patch(`/api/inspection-bookings/${saved.id}`).send({ status: "cancelled" }).expect(401);
    const res = await staff.patch(`/api/inspection-bookings/${saved.id}`).send({ status: "cancelled" }).expect(200);
    expect(res.body.status).toBe("cancelled");
    const again = await staff.patch(`/api/inspection-bookings/${saved.id}`).send({ status: "cancelled" }).expect(409);
    expect(again.body.message).toMatch(/only a scheduled booking/);
    const done = await booking("completed");
    const { minDate } = ctx.container.bookings.calendar();
    await staff.patch(`/api/inspection-bookings/${done.id}`).send({ scheduledDate: minDate }).expect(409);
    await staff.patch("/api/inspection-bookings/999999").send({ status: "cancelled" }).expect(404);
    await staff.patch("/api/inspection-bookings/0x2").send({ status: "cancelled" }).expect(400);
  });
});

function addDaysIso(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
