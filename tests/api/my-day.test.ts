// My Day (docs/decisions.md#38, #55): an inspector's own visits of today and the 7 days after it, the owner's
// everyone's; starting an inspection only from one's own booking; the offline scripts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, zonedInstant } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { suiteToday } from "../support/clock.js";

let ctx: TestContext;
const password = "a long enough password";
const ids: Record<string, number> = {};

async function agentFor(email: string) {
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}

async function book(name: string, inspectorId: number, date: string) {
  const { customer, property } = await ctx.container.customers.createWithProperty(
    { email: `${name}@example.ca`, name, phone: "613-555-0199", subscriptionPlan: "basic" },
    { address: `${name} Street`, city: "Ottawa", province: "ON", postalCode: "K1P 1J1" },
  );
  const [row] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: property.id,
      customer_id: customer.id,
      scheduled_date: date,
      time_slot: "morning",
      source: "booking-page",
      inspector_id: inspectorId,
      during: ctx.db.raw("tstzrange(?, ?)", [
        zonedInstant(date, "08:00", ctx.env.BUSINESS_TZ),
        zonedInstant(date, "12:00", ctx.env.BUSINESS_TZ),
      ]),
      access_code: "9876",
    })
    .returning("id");
  return row.id as number;
}

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  for (const [key, role] of [
    ["ines", "inspector"],
    ["otto", "inspector"],
    ["olga", "owner"],
  ] as const)
    ids[key] = (
      await ctx.container.users.create({ email: `${key}@haven.test`, password, firstName: key, lastName: "X", role })
    ).id;
  const today = suiteToday(ctx.env.BUSINESS_TZ);
  ids.inesToday = await book("inesclient", ids.ines!, today);
  ids.ottoToday = await book("ottoclient", ids.otto!, today);
  ids.inesLater = await book("laterclient", ids.ines!, addDays(today, 3));
  ids.inesBeyond = await book("beyondclient", ids.ines!, addDays(today, 8));
});
afterAll(() => ctx.close());

describe("/admin/my-day", () => {
  it("an inspector sees their own visits of today and the 7 days after, each day by its date; the owner everyone's", async () => {
    const ines = await agentFor("ines@haven.test");
    const mine = await ines.get("/admin/my-day").expect(200);
    expect(mine.text).toContain("inesclient");
    expect(mine.text).not.toContain("ottoclient");
    // The visit three days on is listed under its date; the one eight days on is past the page's week.
    const today = suiteToday(ctx.env.BUSINESS_TZ);
    const dayOf = (offset: number) =>
      new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric" }).format(
        new Date(`${addDays(today, offset)}T12:00:00Z`),
      );
    const later = mine.text.indexOf(`data-testid="my-day-${addDays(today, 3)}"`);
    expect(later).toBeGreaterThan(0);
    expect(mine.text.indexOf("laterclient")).toBeGreaterThan(later);
    expect(mine.text).toContain(`>${dayOf(3)} <span`);
    expect(mine.text).not.toContain("beyondclient");
    // Tomorrow says it has nothing; the empty days after it fold into one line each run.
    expect(mine.text).toMatch(/data-testid="my-day-tomorrow"[\s\S]*?0 visits[\s\S]*?No visits\./);
    expect(mine.text).toContain(`${dayOf(2)}: no visits`);
    expect(mine.text).toContain(`${dayOf(4)} – ${dayOf(7)}: no visits`);
    expect(mine.text).not.toContain("9876");
    const olga = await agentFor("olga@haven.test");
    const all = await olga.get("/admin/my-day").expect(200);
    expect(all.text).toContain("inesclient");
    expect(all.text).toContain("ottoclient");
  });

  it("starts the inspection of one's own booking, then opens it; another inspector's booking is a 404", async () => {
    const ines = await agentFor("ines@haven.test");
    await ines.post(`/admin/my-day/${ids.ottoToday}/start`).expect(404);
    await ines.post(`/admin/my-day/${ids.inesBeyond}/start`).expect(404);
    await ines.post("/admin/my-day/abc/start").expect(400);
    expect(await ctx.db("inspections").count("* as n").first()).toEqual({ n: 0 });
    const started = await ines.post(`/admin/my-day/${ids.inesToday}/start`).expect(303);
    const inspectionId = Number(String(started.headers.location).split("/").at(-1));
    expect(await ctx.db("inspections").where({ id: inspectionId }).first()).toMatchObject({
      booking_id: ids.inesToday,
      inspector_id: ids.ines,
    });
    // A second press opens the same inspection.
    const again = await ines.post(`/admin/my-day/${ids.inesToday}/start`).expect(303);
    expect(again.headers.location).toBe(`/admin/inspections/edit/${inspectionId}`);
  });

  it("the inspector reads what the homeowner told him: notes, the access method in words, requests; the code only on asking", async () => {
    const booking = await ctx.db("inspection_bookings").where({ id: ids.inesLater }).first();
    await ctx.db("properties").where({ id: booking.property_id }).update({ notes: "Side door is easiest. Small dog." });
    await ctx.db("inspection_bookings").where({ id: ids.inesLater }).update({
      access_method: "meet-inspector",
      access_instructions: "Ring twice",
      special_requests: "Please look at the attic hatch",
    });
    const ines = await agentFor("ines@haven.test");
    const page = (await ines.get("/admin/my-day").expect(200)).text;
    const visit = page.slice(page.indexOf(`data-booking="${ids.inesLater}"`));
    expect(visit).toContain("<strong>Access:</strong> Meet inspector at property");
    expect(visit).toContain("<strong>Access instructions:</strong> Ring twice");
    expect(visit).toContain("<strong>Special requests:</strong> Please look at the attic hatch");
    expect(visit).toContain("<strong>Notes for your inspector:</strong> Side door is easiest. Small dog.");
    expect(page).not.toContain("meet-inspector");
    // The code is offered, not carried: the page kept offline never holds it.
    expect(visit).toContain(`data-access-code="${ids.inesLater}"`);
    expect(page).not.toContain("9876");
    const code = await ines.get(`/api/inspection-bookings/${ids.inesLater}/access-code`).expect(200);
    expect(code.body).toEqual({ bookingId: ids.inesLater, label: "Door code", accessCode: "9876" });
    expect(code.headers["cache-control"]).toBe("no-store");
    // Another inspector's visit: refused; the owner reads any.
    const refused = await ines.get(`/api/inspection-bookings/${ids.ottoToday}/access-code`).expect(403);
    expect(refused.body.message).toBe("Your role (inspector) cannot read the door codes of other inspectors' visits.");
    const olga = await agentFor("olga@haven.test");
    await olga.get(`/api/inspection-bookings/${ids.ottoToday}/access-code`).expect(200);
    await olga.get("/api/inspection-bookings/999999/access-code").expect(404);
    // The form's header reads the same, with the booking to ask the code of, and never the code.
    const started = await ines.post(`/admin/my-day/${ids.inesLater}/start`).expect(303);
    const inspectionId = Number(String(started.headers.location).split("/").at(-1));
    const inspection = await ines.get(`/api/inspections/${inspectionId}`).expect(200);
    expect(inspection.body.visit).toEqual({
      bookingId: ids.inesLater,
      clientPhone: "613-555-0199",
      accessMethod: "meet-inspector",
      accessInstructions: "Ring twice",
      specialRequests: "Please look at the attic hatch",
      bookingNotes: null,
      homeownerNotes: "Side door is easiest. Small dog.",
      hasAccessCode: true,
    });
    expect(JSON.stringify(inspection.body)).not.toContain("9876");
  });

  it("signed out, the page goes to the login; the offline scripts are plain JavaScript", async () => {
    const page = await ctx.agent().get("/admin/my-day").expect(302);
    expect(page.headers.location).toBe("/login?next=%2Fadmin%2Fmy-day");
    const worker = await ctx.agent().get("/my-day-sw.js").expect(200);
    expect(worker.headers["content-type"]).toContain("javascript");
    expect(worker.text).toContain('"/admin/my-day"');
    await ctx.agent().get("/my-day.js").expect(200);
  });
});
