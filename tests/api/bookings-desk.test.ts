// The bookings desk (docs/decisions.md#58): every booking of a date range by time, filtered by inspector, status and
// "unassigned", searched by name, e-mail or address, with CSV; assign, reassign, reschedule and cancel, each answered
// in words; the office's and the owner's, never an inspector's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/shared/business-time.js";
import type { TestContext } from "../support/context.js";
import { EVERY_DAY, addInspector, bookByWizard, bookingContext } from "../support/inspectors.js";

let ctx: TestContext;
let date: string;
const password = "correct horse battery";
let luc: { id: number };
let nadia: { id: number };
const ids: Record<string, number> = {};

async function signIn(role: "owner" | "office" | "inspector", email: string) {
  await ctx.container.users.create({ email, password, firstName: "Olivia", lastName: "Chen", role });
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}
let office: Awaited<ReturnType<typeof signIn>>;

const weekday = (d: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long" }).format(new Date(`${d}T12:00:00Z`));
const booking = (id: number | undefined) => ctx.db("inspection_bookings").where({ id }).first();

beforeAll(async () => {
  ({ ctx, date } = await bookingContext());
  // Luc works every day 8 to 5; Nadia too, so each 9:00 AM goes to the less loaded of them.
  luc = await ctx.container.users.create({
    email: "luc@haven.test",
    password,
    firstName: "Luc",
    lastName: "Tremblay",
    role: "inspector",
  });
  await ctx.container.inspectors.setHours("luc@haven.test", EVERY_DAY);
  nadia = await addInspector(ctx, "Nadia", EVERY_DAY);
  const priya = await bookByWizard(ctx, {
    firstName: "Priya",
    lastName: "Nguyen",
    email: "priya@example.com",
    propertyAddress: "45 Rue Principale, Orléans, ON K1C 1A1",
    timeSlot: "2:00 PM",
  });
  ids.priya = priya.body.id;
  ids.early = (await bookByWizard(ctx, { firstName: "Sam", lastName: "Early", timeSlot: "8:00 AM" })).body.id;
  ids.later = (await bookByWizard(ctx, { scheduledDate: addDays(date, 2), lastName: "Later" })).body.id;
  ids.far = (await bookByWizard(ctx, { scheduledDate: addDays(date, 60), lastName: "Far" })).body.id;
  // One nobody has (as before any inspector was set up), and one cancelled.
  ids.open = (await bookByWizard(ctx, { scheduledDate: addDays(date, 1), lastName: "Open" })).body.id;
  await ctx.db("inspection_bookings").where({ id: ids.open }).update({ inspector_id: null });
  ids.gone = (
    await bookByWizard(ctx, { scheduledDate: addDays(date, 1), lastName: "Gone", timeSlot: "3:00 PM" })
  ).body.id;
  await ctx.db("inspection_bookings").where({ id: ids.gone }).update({ status: "cancelled" });
  office = await signIn("office", "olivia@haven.test");
});
afterAll(() => ctx.close());

const list = async (query: Record<string, string>) =>
  (
    await office
      .get("/api/inspection-bookings")
      .query({ sort: "time", ...query })
      .expect(200)
  ).body.map((b: { id: number }) => b.id);

describe("the list: a date range by time, filters, search and CSV", () => {
  it("sorts by the visit's time and keeps to the dates; filters by inspector, status and unassigned", async () => {
    const range = { from: date, to: addDays(date, 30) };
    expect(await list(range)).toEqual([ids.early, ids.priya, ids.open, ids.gone, ids.later]);
    expect(await list({ ...range, status: "cancelled" })).toEqual([ids.gone]);
    expect(await list({ ...range, inspector: "unassigned" })).toEqual([ids.open]);
    const lucs = await list({ ...range, inspector: String(luc.id) });
    const nadias = await list({ ...range, inspector: String(nadia.id) });
    expect([...lucs, ...nadias].sort()).toEqual([ids.early, ids.priya, ids.gone, ids.later].sort());
    expect(lucs.every((id: number) => !nadias.includes(id))).toBe(true);
    const res = await office
      .get("/api/inspection-bookings")
      .query({ ...range, sort: "time", limit: 2 })
      .expect(200);
    expect(res.headers["x-total-count"]).toBe("5");
    expect(res.body).toHaveLength(2);
    // Refused filters say which field.
    const bad = await office
      .get("/api/inspection-bookings")
      .query({ inspector: "luc", from: "2026-02-30" })
      .expect(400);
    expect(bad.body.fields).toMatchObject({
      inspector: "Inspector must be an inspector's id or unassigned",
      from: "From must be a date (YYYY-MM-DD)",
    });
  });

  it("searches by name, e-mail or address (accents ignored)", async () => {
    expect(await list({ q: "priya nguyen" })).toEqual([ids.priya]);
    expect(await list({ q: "PRIYA@example" })).toEqual([ids.priya]);
    expect(await list({ q: "rue principale, orleans" })).toEqual([]);
    expect(await list({ q: "orleans" })).toEqual([ids.priya]);
  });

  it("exports the filter as CSV, every row, without door codes", async () => {
    await ctx.db("inspection_bookings").where({ id: ids.priya }).update({ access_code: "5150" });
    const res = await office
      .get("/api/inspection-bookings")
      .query({ format: "csv", sort: "time", from: date, to: addDays(date, 30), status: "scheduled" })
      .expect(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.text.trim().split("\r\n");
    expect(lines).toHaveLength(1 + 4);
    expect(lines[0]).not.toContain("accessCode");
    expect(res.text).not.toContain("5150");
    expect(lines[2]).toContain("priya@example.com");
  });

  it("the page lists the range by time with its count, and the sidebar names it", async () => {
    const page = await office
      .get("/admin/bookings")
      .query({ from: date, to: addDays(date, 30) })
      .expect(200);
    expect(page.text).toMatch(/<strong>5<\/strong> bookings/);
    const rows = [...page.text.matchAll(/data-booking-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(rows).toEqual([ids.early, ids.priya, ids.open, ids.gone, ids.later]);
    expect(page.text).toContain('href="/admin/bookings" aria-current="page"');
    // Opened bare, it shows today and the 30 days after: the visit 60 days out is not on it.
    const bare = await office.get("/admin/bookings").expect(200);
    expect(bare.text).not.toContain(`data-booking-id="${ids.far}"`);
  });
});

describe("changes from the desk, each answered in words", () => {
  it("assigns and reassigns: 'Given to Luc Tremblay, <day> 2:00 PM', with an audit event", async () => {
    await ctx.db("inspection_bookings").where({ id: ids.priya }).update({ inspector_id: nadia.id });
    const res = await office
      .post(`/admin/bookings/${ids.priya}/assign`)
      .query({ from: date })
      .set("HX-Request", "true")
      .type("form")
      .send({ inspectorId: String(luc.id) })
      .expect(200);
    expect(res.text).toContain(`Given to Luc Tremblay, ${weekday(date)} 2:00 PM`);
    expect(res.text).toContain('id="bookings-results"');
    expect((await booking(ids.priya)).inspector_id).toBe(luc.id);
    const event = await ctx
      .db("audit_events")
      .where({ record_id: String(ids.priya), action: "booking.reassign" })
      .first();
    expect(event).toBeTruthy();
    const open = await office
      .post(`/admin/bookings/${ids.open}/assign`)
      .type("form")
      .send({ inspectorId: String(nadia.id) })
      .expect(200);
    expect(open.text).toContain(`Given to Nadia Inspector, ${weekday(addDays(date, 1))} 9:00 AM`);
    // Giving a booking to nobody says so.
    const nobody = await office
      .post(`/admin/bookings/${ids.open}/assign`)
      .type("form")
      .send({ inspectorId: "" })
      .expect(200);
    expect(nobody.text).toContain(`No inspector now for ${weekday(addDays(date, 1))} 9:00 AM`);
    expect((await booking(ids.open)).inspector_id).toBeNull();
  });

  it("reschedules to one of the inspectors' free times, or to another time marked as outside them", async () => {
    const dialog = await office.get(`/admin/bookings/${ids.later}/reschedule`).set("HX-Request", "true").expect(200);
    expect(dialog.text).toContain(`value="${date}|9:00 AM"`);
    // Nobody works at 7:00 PM, so it is not offered.
    expect(dialog.text).not.toContain(`value="${date}|7:00 PM"`);
    expect(dialog.text).toContain("Or another time, outside the inspectors' free times");
    expect(dialog.text).not.toContain("<h1");
    // Without script, a page of its own with its heading and a way back.
    const page = await office.get(`/admin/bookings/${ids.later}/reschedule`).query({ from: date }).expect(200);
    expect(page.text).toContain('<h1 class="admin-title">Reschedule</h1>');
    expect(page.text).toContain(`href="/admin/bookings?from=${date}&amp;to=`);
    const free = await office
      .post(`/admin/bookings/${ids.later}/reschedule`)
      .type("form")
      .send({ freeTime: `${addDays(date, 1)}|10:00 AM`, inspectorId: "keep" })
      .expect(200);
    const moved = await booking(ids.later);
    expect(moved).toMatchObject({ scheduled_date: addDays(date, 1), time_slot: "10:00 AM" });
    const name = moved.inspector_id === luc.id ? "Luc Tremblay" : "Nadia Inspector";
    expect(free.text).toContain(
      `Moved to ${weekday(addDays(date, 1))} 10:00 AM, with ${name}. Jo Later is e-mailed the new time.`,
    );
    const outside = await office
      .post(`/admin/bookings/${ids.later}/reschedule`)
      .type("form")
      .send({ otherDate: addDays(date, 2), otherSlot: "7:00 PM", inspectorId: "keep" })
      .expect(200);
    expect(outside.text).toContain(
      `Moved to ${weekday(addDays(date, 2))} 7:00 PM, with ${name} (outside the inspectors&#39; free times).`,
    );
    expect(await booking(ids.later)).toMatchObject({
      scheduled_date: addDays(date, 2),
      time_slot: "7:00 PM",
      inspector_id: moved.inspector_id,
    });
    // Nothing chosen, or a date inside the 4-day lead: 400, nothing written.
    const none = await office
      .post(`/admin/bookings/${ids.later}/reschedule`)
      .set("HX-Request", "true")
      .type("form")
      .send({})
      .expect(400);
    expect(none.body.message).toBe("Choose one of the free times, or another time");
    const early = await office
      .post(`/admin/bookings/${ids.later}/reschedule`)
      .set("HX-Request", "true")
      .type("form")
      .send({ otherDate: addDays(date, -3), otherSlot: "9:00 AM" })
      .expect(400);
    expect(early.body.message).toMatch(/Inspection date/);
    expect(await booking(ids.later)).toMatchObject({ scheduled_date: addDays(date, 2), time_slot: "7:00 PM" });
  });

  it("cancels, and a cancelled booking changes no more", async () => {
    const res = await office.post(`/admin/bookings/${ids.early}/cancel`).type("form").send({}).expect(200);
    expect(res.text).toContain(`Cancelled: Sam Early&#39;s inspection of ${weekday(date)} 8:00 AM`);
    expect((await booking(ids.early)).status).toBe("cancelled");
    const again = await office
      .post(`/admin/bookings/${ids.early}/cancel`)
      .set("HX-Request", "true")
      .type("form")
      .send({})
      .expect(409);
    expect(again.body.message).toBe("This booking is cancelled: only a scheduled booking can be cancelled");
  });

  it("an inspector may not open the desk nor change a booking from it; the owner may", async () => {
    const inspector = ctx.agent();
    await inspector.post("/api/auth/login").send({ email: "luc@haven.test", password }).expect(200);
    const page = await inspector.get("/admin/bookings").expect(403);
    expect(page.text).toContain("Your role (inspector) cannot change bookings.");
    const before = await booking(ids.priya);
    for (const [path, send] of [
      [`/admin/bookings/${ids.priya}/assign`, { inspectorId: String(nadia.id) }],
      [`/admin/bookings/${ids.priya}/reschedule`, { freeTime: `${addDays(date, 1)}|11:00 AM` }],
      [`/admin/bookings/${ids.priya}/cancel`, {}],
    ] as const) {
      const refused = await inspector.post(path).set("HX-Request", "true").type("form").send(send).expect(403);
      expect(refused.body.message).toBe("Your role (inspector) cannot change bookings.");
    }
    await inspector.get(`/admin/bookings/${ids.priya}/reschedule`).expect(403);
    await inspector.get("/api/inspection-bookings").query({ format: "csv" }).expect(403);
    expect(await booking(ids.priya)).toEqual(before);
    // The inspector's sidebar has no Bookings entry; the owner's has.
    expect((await inspector.get("/admin/my-day").expect(200)).text).not.toContain('href="/admin/bookings"');
    const owner = await signIn("owner", "olga@haven.test");
    await owner.get("/admin/bookings").expect(200);
  });
});
