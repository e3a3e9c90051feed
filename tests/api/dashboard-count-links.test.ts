// Every dashboard count opens the list it counts, holding exactly that count for the reader (docs/decisions.md#55):
// Pending Inspections counts open inspections and bookings none has taken up yet, and its list shows both;
// Completed This Month opens the completed inspections of that month.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, zonedInstant } from "../../src/shared/business-time.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { suiteNow, suiteToday } from "../support/clock.js";
import { completedInspection, quickEntries } from "./reports-fixtures.js";

let ctx: TestContext;
const password = "a long enough password";
const ids: Record<string, number> = {};

async function agentFor(email: string) {
  const agent = ctx.agent();
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return agent;
}

async function book(name: string, inspectorId: number | null, date: string) {
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
      during: inspectorId
        ? ctx.db.raw("tstzrange(?, ?)", [
            zonedInstant(date, "08:00", ctx.env.BUSINESS_TZ),
            zonedInstant(date, "12:00", ctx.env.BUSINESS_TZ),
          ])
        : null,
    })
    .returning("id");
  return { bookingId: row.id as number, propertyId: property.id };
}

/** The card's figure and link on /admin, and what that link's list says it holds. */
async function cardAndList(agent: ReturnType<TestContext["agent"]>, key: string) {
  const dashboard = await agent.get("/admin").expect(200);
  const card = new RegExp(`data-stat="${key}">[\\s\\S]*?href="([^"]+)"[\\s\\S]*?class="stat-value[^"]*">([^<]+)<`).exec(
    dashboard.text,
  );
  expect(card).not.toBeNull();
  const href = card![1]!.replaceAll("&amp;", "&");
  const list = await agent.get(href).expect(200);
  const heading = /data-testid="inspections-total">\s*<strong>([^<]+)<\/strong>/.exec(list.text);
  return { href, figure: card![2]!.trim(), listed: heading?.[1], text: list.text };
}

beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
  for (const [key, role] of [
    ["ines", "inspector"],
    ["otto", "inspector"],
    ["olga", "office"],
  ] as const)
    ids[key] = (
      await ctx.container.users.create({ email: `${key}@haven.test`, password, firstName: key, lastName: "X", role })
    ).id;
  const today = suiteToday(ctx.env.BUSINESS_TZ);
  // Ines: one visit booked three days on, nothing started: her whole pending work.
  ids.inesBooking = (await book("thursday", ids.ines!, addDays(today, 3))).bookingId;
  // Otto: a booking he has started (counted once, as its inspection) and one completed this month and last.
  const started = await book("started", ids.otto!, today);
  await ctx.container.inspections.create({ propertyId: started.propertyId, inspectionDate: today }, ids.otto!);
  const now = await completedInspection(ctx.container, quickEntries(), { inspectorId: ids.otto!, address: "1 Now St" });
  const old = await completedInspection(ctx.container, quickEntries(), { inspectorId: ids.otto!, address: "2 Old St" });
  const monthStart = zonedInstant(`${today.slice(0, 7)}-01`, "00:00", ctx.env.BUSINESS_TZ);
  await ctx.db("inspections").where({ id: now.inspectionId }).update({ completed_at: suiteNow() });
  await ctx
    .db("inspections")
    .where({ id: old.inspectionId })
    .update({ completed_at: new Date(monthStart.getTime() - 60_000) });
  // Nobody's yet: the office counts it, no inspector does.
  await book("unassigned", null, addDays(today, 5));
});
afterAll(() => ctx.close());

describe("dashboard counts open their lists", () => {
  it("an inspector's Pending Inspections 1 opens a list showing that one booked visit", async () => {
    const ines = await agentFor("ines@haven.test");
    const pending = await cardAndList(ines, "pendingInspections");
    expect(pending).toMatchObject({ href: "/admin/inspections?status=pending", figure: "1", listed: "1" });
    const rows = [...pending.text.matchAll(/data-testid="booked-row" data-booking-id="(\d+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(rows).toEqual([ids.inesBooking]);
    expect(pending.text).toContain("thursday Street");
  });

  it("the office's Pending Inspections and Completed This Month agree with their lists", async () => {
    const olga = await agentFor("olga@haven.test");
    const stats = (await olga.get("/api/dashboard/stats").expect(200)).body;
    expect(stats).toMatchObject({ pendingInspections: 3, completedThisMonth: 1 });
    const pending = await cardAndList(olga, "pendingInspections");
    expect(pending).toMatchObject({ figure: "3", listed: "3" });
    expect(pending.text.match(/data-testid="booked-row"/g)).toHaveLength(2);
    expect(pending.text.match(/data-testid="inspection-row"/g)).toHaveLength(1);
    const month = suiteToday(ctx.env.BUSINESS_TZ).slice(0, 7);
    const completed = await cardAndList(olga, "completedThisMonth");
    expect(completed).toMatchObject({ href: `/admin/inspections?status=completed&month=${month}`, figure: "1" });
    expect(completed.listed).toBe("1");
    expect(completed.text).toContain("1 Now St");
    expect(completed.text).not.toContain("2 Old St");
    // A month that is not one is ignored: every completed inspection.
    const all = await olga.get("/admin/inspections?status=completed&month=2026-13").expect(200);
    expect(all.text).toMatch(/data-testid="inspections-total">\s*<strong>2<\/strong>/);
  });
});
