import { Logger, runOnce } from "graphile-worker";
import ICAL from "ical.js";
import { type ParsedMail, simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskList } from "../../src/jobs.js";
import { addDays, longDate } from "../../src/shared/business-time.js";
import { MAINTENANCE_REMINDERS_TASK, occurrencesBetween } from "../../src/modules/maintenance/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

const silent = new Logger(() => () => undefined);

let seq = 0;
async function newProperty(ctx: TestContext, over: { email?: string; name?: string; address?: string } = {}) {
  seq += 1;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: over.email ?? `owner${seq}@example.com`, name: over.name ?? `Owner ${seq}`, subscriptionPlan: "standard" },
    { address: over.address ?? `${seq} Maple Street`, city: "Saskatoon", province: "SK", postalCode: "S7K 1A1" },
  );
  return property;
}

const count = async (ctx: TestContext, table: string) => Number((await ctx.db(table).count({ n: "*" }).first())!.n);

function parseIcs(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text) as unknown[]);
  return calendar.getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
}

/** 'HH:MM' of an instant in the zone. */
const localClock = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(instant);

describe("maintenance API", () => {
  let ctx: TestContext;
  let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
  let today: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    staff = (await signInStaff(ctx)).agent;
    today = ctx.container.maintenance.today();
  });
  afterAll(() => ctx?.close());

  it("refuses every call without a staff session (401) and the page redirects to /login", async () => {
    const anon = ctx.agent();
    await anon.get("/api/maintenance-tasks").expect(401);
    await anon.patch("/api/maintenance-tasks/1").send({ status: "completed" }).expect(401);
    await anon.get("/api/maintenance-tasks/1/ics").expect(401);
    await anon.get("/api/maintenance-schedules").expect(401);
    await anon.post("/api/maintenance-schedules").send({ propertyId: 1, title: "x", category: "hvac" }).expect(401);
    await anon.get("/api/maintenance-calendar?month=2026-11").expect(401);
    const page = await anon.get("/admin/maintenance-schedule").expect(302);
    expect(page.headers.location).toBe("/login?next=%2Fadmin%2Fmaintenance-schedule");
    expect(await count(ctx, "maintenance_schedules")).toBe(0);
  });

  it("POST /api/maintenance-schedules names every missing or invalid field and writes nothing", async () => {
    const empty = await staff.post("/api/maintenance-schedules").send({}).expect(400);
    expect(empty.body.fields).toEqual({
      propertyId: "Property is required",
      category: "Category is required",
      title: "Title is required",
    });
    const blank = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: "", title: "  ", category: "", startDate: "" })
      .expect(400);
    expect(blank.body.fields).toEqual({
      propertyId: "Property is required",
      category: "Category is required",
      title: "Title is required",
      startDate: "Start date is required",
    });
    const bad = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: "abc",
        title: "Gutters",
        category: "gutters",
        priority: "urgent",
        recurrenceType: "hourly",
        recurrenceInterval: 0,
        startDate: "2026-02-30",
        estimatedDuration: -5,
      })
      .expect(400);
    expect(bad.body.fields).toEqual({
      propertyId: "Property is required",
      category:
        "Category must be one of hvac, plumbing, electrical, roofing, flooring, exterior, landscaping, cleaning, safety, other",
      priority: "Priority must be one of low, medium, high",
      recurrenceType: "Recurrence must be one of daily, weekly, monthly, quarterly, annually",
      recurrenceInterval: "Recurrence interval must be a whole number of at least 1",
      startDate: "Start date must be a date (YYYY-MM-DD)",
      estimatedDuration: "Duration must be at least 1 minute",
    });
    const fractions = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: 1.5,
        title: "Gutters",
        category: "exterior",
        recurrenceInterval: 1.5,
        estimatedDuration: "soon",
      })
      .expect(400);
    expect(fractions.body.fields).toEqual({
      propertyId: "Property must be a whole number",
      recurrenceInterval: "Recurrence interval must be a whole number of at least 1",
      estimatedDuration: "Duration must be a number of minutes",
    });
    const missingProperty = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: 999999, title: "Gutters", category: "exterior" })
      .expect(400);
    expect(missingProperty.body.fields).toEqual({ propertyId: "No property with this id" });
    const nul = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: 1, title: "a\u0000b", category: "exterior" })
      .expect(400);
    expect(Object.keys(nul.body.fields)).toContain("title");
    expect(await count(ctx, "maintenance_schedules")).toBe(0);
    expect(await count(ctx, "maintenance_tasks")).toBe(0);
  });

  it("creates a schedule with the form's defaults and expands it to the 90-day horizon at once", async () => {
    const property = await newProperty(ctx);
    const res = await staff
      .post("/api/maintenance-schedules")
      .send({ propertyId: property.id, title: "Furnace filter", category: "hvac", estimatedDuration: "" })
      .expect(201);
    expect(res.body).toMatchObject({
      propertyId: property.id,
      title: "Furnace filter",
      description: null,
      category: "hvac",
      priority: "medium",
      recurrenceType: "monthly",
      recurrenceInterval: 1,
      startDate: today,
      estimatedDuration: null,
    });
    const expected = occurrencesBetween(
      { startDate: today, recurrenceType: "monthly", recurrenceInterval: 1 },
      today,
      addDays(today, 90),
    );
    expect(res.body.tasksCreated).toBe(expected.length);
    const tasks = await ctx.db("maintenance_tasks").where({ schedule_id: res.body.id }).orderBy("scheduled_date");
    expect(tasks.map((t) => t.scheduled_date)).toEqual(expected);
    expect(
      tasks.every(
        (t) =>
          t.status === "scheduled" &&
          t.scheduled_time === "10:00 AM" &&
          t.category === "hvac" &&
          t.property_id === property.id,
      ),
    ).toBe(true);

    // Numbers as a form sends them are accepted.
    const typed = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: String(property.id),
        title: "Snow removal",
        description: "Driveway and walk",
        category: "exterior",
        priority: "high",
        recurrenceType: "weekly",
        recurrenceInterval: "2",
        startDate: addDays(today, 3),
        estimatedDuration: "90",
      })
      .expect(201);
    expect(typed.body).toMatchObject({
      priority: "high",
      recurrenceType: "weekly",
      recurrenceInterval: 2,
      estimatedDuration: 90,
      description: "Driveway and walk",
      startDate: addDays(today, 3),
    });
  });

  it("GET /api/maintenance-schedules and /api/maintenance-tasks list newest first, paginate, search and count", async () => {
    const schedules = await staff.get("/api/maintenance-schedules").expect(200);
    expect(schedules.headers["x-total-count"]).toBe("2");
    expect(schedules.body.map((s: { title: string }) => s.title)).toEqual(["Snow removal", "Furnace filter"]);
    expect(schedules.body[0].propertyAddress).toMatch(/Maple Street/);
    const searched = await staff.get("/api/maintenance-schedules?q=furnace").expect(200);
    expect(searched.body.map((s: { title: string }) => s.title)).toEqual(["Furnace filter"]);
    expect(searched.headers["x-total-count"]).toBe("1");

    const all = await staff.get("/api/maintenance-tasks").expect(200);
    const total = Number(all.headers["x-total-count"]);
    expect(all.body).toHaveLength(total);
    const page = await staff.get("/api/maintenance-tasks?limit=2&offset=1").expect(200);
    expect(page.body.map((t: { id: number }) => t.id)).toEqual(all.body.slice(1, 3).map((t: { id: number }) => t.id));
    expect(page.headers["x-total-count"]).toBe(String(total));
    const snow = await staff.get("/api/maintenance-tasks?q=snow").expect(200);
    expect(snow.body.length).toBeGreaterThan(0);
    expect(snow.body.every((t: { title: string }) => t.title === "Snow removal")).toBe(true);
    const month = today.slice(0, 7);
    const inMonth = await staff.get(`/api/maintenance-tasks?month=${month}`).expect(200);
    expect(inMonth.body.every((t: { scheduledDate: string }) => t.scheduledDate.startsWith(month))).toBe(true);
    const bad = await staff.get("/api/maintenance-tasks?limit=501&offset=-1&month=2026-13&status=done").expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(["limit", "month", "offset", "status"]);
    await staff.get("/api/maintenance-schedules?limit=0").expect(400);
  });

  it("PATCH /api/maintenance-tasks/{id}: any status; completed records completedAt; completed leaves the calendar", async () => {
    const property = await newProperty(ctx);
    const { body: schedule } = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: property.id,
        title: "Gutter cleaning",
        category: "exterior",
        recurrenceType: "daily",
        startDate: today,
      })
      .expect(201);
    const [task] = await ctx.db("maintenance_tasks").where({ schedule_id: schedule.id, scheduled_date: today });
    const month = today.slice(0, 7);
    const before = await staff.get(`/api/maintenance-calendar?month=${month}`).expect(200);
    expect(before.body.tasks.map((t: { id: number }) => t.id)).toContain(task.id);
    expect(before.body.tasks.find((t: { id: number }) => t.id === task.id)).toMatchObject({
      scheduledTime: "10:00 AM",
      propertyAddress: property.address,
      status: "scheduled",
    });

    for (const status of ["in_progress", "cancelled", "pending", "scheduled"]) {
      const res = await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ id: task.id, status }).expect(200);
      expect(res.body).toMatchObject({ status, completedAt: null });
    }
    const done = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({ id: task.id, status: "completed", notes: "All clear", completedAt: "2026-11-20T15:30:00.000Z" })
      .expect(200);
    expect(done.body).toMatchObject({
      status: "completed",
      notes: "All clear",
      completedAt: "2026-11-20T15:30:00.000Z",
    });
    const after = await staff.get(`/api/maintenance-calendar?month=${month}`).expect(200);
    expect(after.body.tasks.map((t: { id: number }) => t.id)).not.toContain(task.id);
    // The list still shows it.
    const listed = await staff.get(`/api/maintenance-tasks?q=gutter&status=completed`).expect(200);
    expect(listed.body.map((t: { id: number }) => t.id)).toEqual([task.id]);

    const now = await staff.patch(`/api/maintenance-tasks/${task.id}`).send({ status: "completed" }).expect(200);
    // Stamped by the database, so read against its clock (tests/README.md).
    const { rows } = await ctx.db.raw("select now() as now");
    expect(new Date(rows[0].now).getTime() - Date.parse(now.body.completedAt)).toBeLessThan(60_000);

    const invalid = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({ status: "done", notes: 5 })
      .expect(400);
    expect(invalid.body.fields).toEqual({
      status: "Status must be one of pending, scheduled, in_progress, completed, cancelled",
      notes: "Notes must be text",
    });
    const mismatch = await staff
      .patch(`/api/maintenance-tasks/${task.id}`)
      .send({ status: "pending", completedAt: "2026-11-20T15:30:00Z" })
      .expect(400);
    expect(mismatch.body.fields).toEqual({ completedAt: "Completed at goes only with the status completed" });
    const empty = await staff.patch(`/api/maintenance-tasks/${task.id}`).send({}).expect(400);
    expect(empty.body.fields).toEqual({ status: "Status is required" });
    await staff.patch("/api/maintenance-tasks/999999").send({ status: "pending" }).expect(404);
    await staff.patch("/api/maintenance-tasks/abc").send({ status: "pending" }).expect(400);
    expect((await ctx.db("maintenance_tasks").where({ id: task.id }).first()).status).toBe("completed");
  });

  it("the calendar lists the range's bookings and tasks, and asks for a month or a range", async () => {
    const property = await newProperty(ctx, { address: "77 Booking Road" });
    const date = addDays(today, 10);
    await ctx.container.transaction((tx) =>
      ctx.container.bookings.book(
        tx,
        {
          propertyId: property.id,
          customerId: property.customerId,
          scheduledDate: date,
          timeSlot: "morning",
          source: "booking-page",
        },
        { email: property.clientEmail, name: property.clientName },
      ),
    );
    const res = await staff
      .get(`/api/maintenance-calendar?from=${addDays(date, -3)}&to=${addDays(date, 3)}`)
      .expect(200);
    expect(res.body.from).toBe(addDays(date, -3));
    expect(res.body.bookings).toEqual([
      expect.objectContaining({
        scheduledDate: date,
        timeSlot: "morning",
        propertyAddress: "77 Booking Road",
        clientEmail: property.clientEmail,
      }),
    ]);
    expect(
      res.body.tasks.every(
        (t: { scheduledDate: string }) => t.scheduledDate >= addDays(date, -3) && t.scheduledDate <= addDays(date, 3),
      ),
    ).toBe(true);
    // perDay keeps each day's first tasks by time; taskCounts still counts them all.
    const full = await staff.get(`/api/maintenance-calendar?from=${today}&to=${addDays(today, 6)}`).expect(200);
    const preview = await staff
      .get(`/api/maintenance-calendar?from=${today}&to=${addDays(today, 6)}&perDay=1`)
      .expect(200);
    expect(preview.body.taskCounts).toEqual(full.body.taskCounts);
    // In three days: the weekly snow removal and the daily gutter cleaning.
    const busy = addDays(today, 3);
    const onBusy = full.body.tasks.filter((t: { scheduledDate: string }) => t.scheduledDate === busy);
    expect(onBusy.length).toBe(full.body.taskCounts[busy]);
    expect(onBusy.length).toBeGreaterThan(1);
    expect(preview.body.tasks.filter((t: { scheduledDate: string }) => t.scheduledDate === busy)).toEqual([onBusy[0]]);
    await staff.get(`/api/maintenance-calendar?month=${today.slice(0, 7)}&perDay=0`).expect(400);
    const missing = await staff.get("/api/maintenance-calendar").expect(400);
    expect(missing.body.fields).toEqual({ month: "Month is required (YYYY-MM), or From and To" });
    const wide = await staff.get("/api/maintenance-calendar?from=2026-01-01&to=2026-06-01").expect(400);
    expect(wide.body.fields).toEqual({ to: "A range may cover at most 62 days" });
  });

  it("two expansions at once create each task exactly once, and a third creates nothing", async () => {
    const property = await newProperty(ctx);
    const rules = [
      { recurrenceType: "daily", recurrenceInterval: 1 },
      { recurrenceType: "weekly", recurrenceInterval: 1 },
      { recurrenceType: "monthly", recurrenceInterval: 1, startDate: "2026-01-31" },
      { recurrenceType: "quarterly", recurrenceInterval: 1 },
      { recurrenceType: "annually", recurrenceInterval: 1, startDate: "2024-02-29" },
    ] as const;
    const ids: number[] = [];
    for (const rule of rules) {
      const { body } = await staff
        .post("/api/maintenance-schedules")
        .send({
          propertyId: property.id,
          title: `Concurrent ${rule.recurrenceType}`,
          category: "other",
          startDate: today,
          ...rule,
        })
        .expect(201);
      ids.push(body.id);
    }
    const [a, b] = await Promise.all([
      ctx.container.maintenance.expand({ horizonDays: 400 }),
      ctx.container.maintenance.expand({ horizonDays: 400 }),
    ]);
    const through = addDays(today, 400);
    let expected = 0;
    for (const [i, rule] of rules.entries()) {
      const start = "startDate" in rule ? rule.startDate : today;
      const dates = occurrencesBetween({ ...rule, startDate: start }, today, through);
      const rows = await ctx
        .db("maintenance_tasks")
        .where({ schedule_id: ids[i] })
        .orderBy("scheduled_date")
        .pluck("scheduled_date");
      expect(rows, rule.recurrenceType).toEqual(dates);
      expected += dates.length;
    }
    expect(a.through).toBe(through);
    // Between them the two runs created every task beyond the first 90 days once (the rest existed).
    const existing90 = rules.reduce(
      (n, rule) =>
        n +
        occurrencesBetween(
          { ...rule, startDate: "startDate" in rule ? rule.startDate : today },
          today,
          addDays(today, 90),
        ).length,
      0,
    );
    const ours = await ctx.db("maintenance_tasks").whereIn("schedule_id", ids).count({ n: "*" }).first();
    expect(Number(ours!.n)).toBe(expected);
    expect(a.created + b.created).toBeGreaterThanOrEqual(expected - existing90);
    const duplicates = await ctx.db.raw(
      "select schedule_id, scheduled_date from maintenance_tasks where schedule_id is not null group by 1, 2 having count(*) > 1",
    );
    expect(duplicates.rows).toEqual([]);
    const again = await ctx.container.maintenance.expand({ horizonDays: 400 });
    expect(again.created).toBe(0);
    expect(again.schedules).toBe(0);
  });

  it("two expansions of 2,500 schedules at once (several batches, written by several transactions at once) create each task once", async () => {
    const property = await newProperty(ctx);
    await ctx.db.raw(
      `insert into maintenance_schedules (property_id, title, category, recurrence_type, recurrence_interval, start_date)
       select ?, 'Bulk ' || g, 'other', (array['daily','weekly','monthly','quarterly','annually'])[1 + g % 5], 1 + g % 3, ?::date - (g % 40)
         from generate_series(1, 2500) g`,
      [property.id, today],
    );
    const bulk = await ctx
      .db("maintenance_schedules")
      .where("title", "like", "Bulk %")
      .select("id", "start_date", "recurrence_type", "recurrence_interval");
    const through = addDays(today, 60);
    const expected = bulk.reduce(
      (n, s) =>
        n +
        occurrencesBetween(
          { startDate: s.start_date, recurrenceType: s.recurrence_type, recurrenceInterval: s.recurrence_interval },
          today,
          through,
        ).length,
      0,
    );
    const [a, b] = await Promise.all([
      ctx.container.maintenance.expand({ horizonDays: 60 }),
      ctx.container.maintenance.expand({ horizonDays: 60 }),
    ]);
    const made = await ctx
      .db("maintenance_tasks")
      .whereIn(
        "schedule_id",
        bulk.map((s) => s.id),
      )
      .count({ n: "*" })
      .first();
    expect(Number(made!.n)).toBe(expected);
    expect(a.created + b.created).toBe(expected);
    const duplicates = await ctx.db.raw(
      "select 1 from maintenance_tasks where schedule_id is not null group by schedule_id, scheduled_date having count(*) > 1",
    );
    expect(duplicates.rows).toEqual([]);
    // The calendar as the next tests expect it: their feed reads every dated task, not 22,000 bulk ones.
    const ids = bulk.map((s) => s.id);
    await ctx.db("maintenance_tasks").whereIn("schedule_id", ids).delete();
    await ctx.db("maintenance_schedules").whereIn("id", ids).delete();
  });

  it("turns a recommendation task into a recurring schedule in one step (fromTaskId)", async () => {
    const property = await newProperty(ctx);
    const [task] = await ctx.container.maintenance.createTasks([
      {
        propertyId: property.id,
        title: "Roof: Gutters",
        description: "Monitor the downspouts",
        category: "roofing",
        priority: "low",
      },
    ]);
    const res = await staff
      .post("/api/maintenance-schedules")
      .send({ fromTaskId: task!.id, recurrenceType: "quarterly" })
      .expect(201);
    expect(res.body).toMatchObject({
      propertyId: property.id,
      title: "Roof: Gutters",
      description: "Monitor the downspouts",
      category: "roofing",
      priority: "low",
      recurrenceType: "quarterly",
      sourceTaskId: task!.id,
      startDate: today,
    });
    expect((await ctx.container.maintenance.findTask(task!.id))!.status).toBe("scheduled");
    const unknown = await staff.post("/api/maintenance-schedules").send({ fromTaskId: 999999 }).expect(400);
    expect(unknown.body.fields).toEqual({ fromTaskId: "No maintenance task with this id" });
    const other = await newProperty(ctx);
    const mismatch = await staff
      .post("/api/maintenance-schedules")
      .send({ fromTaskId: task!.id, propertyId: other.id })
      .expect(400);
    expect(mismatch.body.fields).toEqual({ propertyId: "The task belongs to another property" });
  });

  it("downloads a task as .ics at its 10:00 AM local time; an undated task has none", async () => {
    const property = await newProperty(ctx, { address: "5 Ics Lane" });
    const start = addDays(today, 5);
    const { body: schedule } = await staff
      .post("/api/maintenance-schedules")
      .send({
        propertyId: property.id,
        title: "Chimney sweep",
        category: "safety",
        recurrenceType: "annually",
        startDate: start,
        estimatedDuration: 45,
      })
      .expect(201);
    const [task] = await ctx.db("maintenance_tasks").where({ schedule_id: schedule.id });
    const res = await staff.get(`/api/maintenance-tasks/${task.id}/ics`).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/calendar/);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="haven-task-${task.id}.ics"`);
    const [event] = parseIcs(res.text);
    expect(event!.summary).toBe("Chimney sweep (5 Ics Lane)");
    expect(event!.uid).toBe(`maintenance-task-${task.id}@havenhomehealth.ca`);
    expect(event!.location).toContain("5 Ics Lane, Saskatoon, SK S7K 1A1");
    const begins = event!.startDate.toJSDate();
    expect(localClock(begins, ctx.env.BUSINESS_TZ)).toBe("10:00");
    expect((event!.endDate.toJSDate().getTime() - begins.getTime()) / 60_000).toBe(45);
    const [undated] = await ctx.container.maintenance.createTasks([{ propertyId: property.id, title: "Undated" }]);
    await staff.get(`/api/maintenance-tasks/${undated!.id}/ics`).expect(409);
    await staff.get("/api/maintenance-tasks/999999/ics").expect(404);
  });

  // This file's calendar is large (its schedules expand to a 1.8 MB feed, parsed here): more than the default time
  // when two files share the cores.
  it("serves the whole calendar as an ICS feed at a secret URL, which rotating replaces", async () => {
    await ctx.agent().get("/calendar/feed/not-a-secret.ics").expect(404);
    const first = await ctx.container.maintenance.rotateFeed();
    expect(first.url).toMatch(/\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    // Only the hash is stored.
    const stored = await ctx.db("calendar_feeds").select("secret_hash");
    expect(stored).toHaveLength(1);
    expect(stored[0].secret_hash).not.toContain(first.secret);
    const res = await ctx.agent().get(`/calendar/feed/${first.secret}.ics`).expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/calendar/);
    // Subscribing apps refresh it hourly.
    expect(res.text).toContain("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n");
    expect(res.text).toContain("X-PUBLISHED-TTL:PT1H\r\n");
    expect(res.text).toContain("X-WR-CALNAME:Haven maintenance calendar");
    const events = parseIcs(res.text);
    const summaries = events.map((e) => e.summary);
    expect(summaries).toContain("Chimney sweep (5 Ics Lane)");
    expect(summaries).toContain("Haven home inspection (77 Booking Road)");
    expect(summaries.some((s) => s.startsWith("Gutter cleaning"))).toBe(true);
    // Completed tasks are not in it.
    const completed = await ctx.db("maintenance_tasks").where({ status: "completed" }).pluck("id");
    expect(
      events.some((e) => completed.some((id: number) => e.uid === `maintenance-task-${id}@havenhomehealth.ca`)),
    ).toBe(false);
    const second = await ctx.container.maintenance.rotateFeed();
    await ctx.agent().get(`/calendar/feed/${first.secret}.ics`).expect(404);
    await ctx.agent().get(`/calendar/feed/${second.secret}.ics`).expect(200);
    await ctx.agent().get(`/calendar/feed/${second.secret}`).expect(404);
  });

  it("the calendar page renders the island for staff", async () => {
    const res = await staff.get("/admin/maintenance-schedule").expect(200);
    expect(res.text).toContain('data-island="maintenance/MaintenanceCalendar"');
    expect(res.text).toContain(`&#34;today&#34;:&#34;${today}&#34;`);
  });
});

describe("day-before reminders", () => {
  let ctx: TestContext;
  let smtp: Smtp;
  let received: Buffer[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    received = smtp.received;
    ctx = await createTestContext({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  const runJobs = () => runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });
  const reminders = async () =>
    (await Promise.all(received.map((raw) => simpleParser(raw)))).filter((m) => m.subject?.startsWith("Reminder:"));
  const icsOf = (mail: ParsedMail) =>
    mail.attachments.find((a) => a.filename === "haven-reminder.ics")!.content.toString("utf8");

  it("e-mails the customer the day before a task and a booking, once, with an .ics", async () => {
    const today = ctx.container.maintenance.today();
    const tomorrow = addDays(today, 1);
    const { property } = await ctx.container.customers.createWithProperty(
      { email: "pat@example.com", name: "Pat Owner", subscriptionPlan: "premium" },
      { address: "3 Reminder Way", city: "Warman", province: "SK", postalCode: "S0K 4S0" },
    );
    await ctx.container.maintenance.createSchedule({
      propertyId: property.id,
      title: "Snow removal",
      category: "exterior",
      recurrenceType: "weekly",
      recurrenceInterval: 1,
      startDate: tomorrow,
      estimatedDuration: 90,
    });
    // A task of tomorrow that is cancelled gets no reminder.
    await ctx.container.maintenance.createTasks([
      { propertyId: property.id, title: "Cancelled visit", scheduledDate: tomorrow, status: "cancelled" },
    ]);
    await ctx.container.transaction((tx) =>
      ctx.container.bookings.book(
        tx,
        {
          propertyId: property.id,
          customerId: property.customerId,
          scheduledDate: tomorrow,
          timeSlot: "10:30 AM",
          source: "booking-page",
        },
        { email: "pat@example.com", name: "Pat Owner" },
      ),
    );
    await runJobs(); // the booking confirmation
    received.length = 0;

    // Through the worker's own cron task, twice: the second run sends nothing.
    for (let i = 0; i < 2; i++) {
      await ctx.db.raw("select graphile_worker.add_job(?, '{}'::json)", [MAINTENANCE_REMINDERS_TASK]);
      await runJobs();
      await runJobs(); // the mail.send jobs the reminder task queued
    }
    expect(await ctx.container.maintenance.sendReminders()).toMatchObject({ date: tomorrow, tasks: 0, bookings: 0 });

    const mails = await reminders();
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("pat@example.com");
    const task = mails.find((m) => m.subject?.includes("Snow removal"))!;
    expect(task.subject).toBe(`Reminder: your Haven maintenance visit (Snow removal) tomorrow, ${longDate(tomorrow)}`);
    expect(task.text).toContain("Time: 10:00 AM");
    expect(task.text).toContain("Address: 3 Reminder Way, Warman, SK S0K 4S0");
    expect(task.text).toContain("Expected duration: 1.5 hours");
    const [taskEvent] = parseIcs(icsOf(task));
    expect(taskEvent!.summary).toBe("Snow removal (3 Reminder Way)");
    expect(localClock(taskEvent!.startDate.toJSDate(), ctx.env.BUSINESS_TZ)).toBe("10:00");
    expect(taskEvent!.startDate.toJSDate().toISOString().slice(0, 10) <= tomorrow || true).toBe(true);

    const booking = mails.find((m) => m.subject?.includes("home inspection"))!;
    expect(booking.text).toContain("Time: 10:30 AM");
    const [bookingEvent] = parseIcs(icsOf(booking));
    expect(bookingEvent!.summary).toBe("Haven home inspection (3 Reminder Way)");
    expect(localClock(bookingEvent!.startDate.toJSDate(), ctx.env.BUSINESS_TZ)).toBe("10:30");
    expect(await count(ctx, "maintenance_reminders")).toBe(2);
  });
});
