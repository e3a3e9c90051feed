import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DashboardRepository, UNTAKEN } from "../../src/modules/dashboard/dashboard.repository.js";
import { DashboardService, monthWindow } from "../../src/modules/dashboard/dashboard.service.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;
let n = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx.close());

/** A customer and a property, made through the customers service. */
async function property(plan: "free-score" | "basic" | "standard" | "premium" = "standard") {
  n++;
  const { property } = await ctx.container.customers.createWithProperty(
    { email: `owner${n}@example.ca`, name: `Owner ${n}`, phone: "613-555-0100", subscriptionPlan: plan },
    { address: `${n} Sussex Drive`, city: "Ottawa", province: "ON", postalCode: "K1N 1K1" },
  );
  return property;
}

async function booking(propertyId: number, status = "scheduled") {
  const { customer_id } = await ctx.db("properties").where({ id: propertyId }).first("customer_id");
  const [row] = await ctx
    .db("inspection_bookings")
    .insert({
      property_id: propertyId,
      customer_id,
      scheduled_date: "2026-03-10",
      time_slot: "9:00 AM",
      source: "booking-page",
      status,
    })
    .returning("id");
  return row.id as number;
}

// The inspections service may validate more than these tests need; the dashboard only reads the rows.
async function inspection(
  propertyId: number,
  status: string,
  options: { bookingId?: number; completedAt?: Date; score?: number; createdAt?: Date } = {},
) {
  const [row] = await ctx
    .db("inspections")
    .insert({
      property_id: propertyId,
      booking_id: options.bookingId ?? null,
      inspection_date: "2026-03-10",
      status,
      overall_score: options.score ?? null,
      completed_at: options.completedAt ?? null,
      ...(options.createdAt && { created_at: options.createdAt }),
    })
    .returning("id");
  return row.id as number;
}

async function payment(cents: number, status: "succeeded" | "failed" | "pending") {
  await ctx
    .db("payments")
    .insert({ provider: "demo", provider_id: `pi_${++n}`, kind: "payment_intent", amount_cents: cents, status });
}

const stats = async () => (await staff.agent.get("/api/dashboard/stats").expect(200)).body;

describe("GET /api/dashboard/stats", () => {
  it("answers 401 without a session", async () => {
    const res = await ctx.agent().get("/api/dashboard/stats");
    expect(res.status).toBe(401);
    expect(res.body.message).toBeTruthy();
  });

  it("starts at zero on an empty database", async () => {
    expect(await stats()).toEqual({
      totalProperties: 0,
      pendingInspections: 0,
      completedThisMonth: 0,
      totalRevenue: 0,
    });
  });

  it("matches hand-counted data, with 'this month' cut at midnight in BUSINESS_TZ", async () => {
    const month = monthWindow(ctx.env.BUSINESS_TZ);
    const utcMidnight = new Date(`${month.month}-01T00:00:00Z`);
    // America/Toronto is behind UTC: the UTC first of the month is still last month there.
    expect(utcMidnight.getTime()).toBeLessThan(month.from.getTime());

    const [a, b, c, d, e] = [
      await property(),
      await property("basic"),
      await property("premium"),
      await property(),
      await property("free-score"),
    ];
    // Pending: a scheduled booking nobody has started ...
    await booking(a.id);
    // ... a scheduled booking with an inspection under way counts once, through its inspection ...
    await inspection(b.id, "in_progress", { bookingId: await booking(b.id) });
    // ... inspections not completed, with or without a booking ...
    await inspection(c.id, "draft");
    await inspection(c.id, "scheduled");
    // Not pending: a completed booking and its completed inspection; a scheduled booking whose inspection finished; a cancelled booking.
    await inspection(d.id, "completed", {
      bookingId: await booking(d.id, "completed"),
      completedAt: new Date(),
      score: 88,
    });
    await inspection(d.id, "completed", {
      bookingId: await booking(d.id),
      completedAt: new Date(month.from.getTime() - 1),
      score: 71,
    });
    await booking(e.id, "cancelled");
    // This month: from the zone's midnight on the first (inclusive); the instant before and UTC midnight are last month.
    await inspection(e.id, "completed", { completedAt: month.from, score: 64 });
    await inspection(e.id, "completed", { completedAt: utcMidnight, score: 90 });
    // Revenue: succeeded payments only, in dollars.
    await payment(19_400, "succeeded");
    await payment(41_250, "succeeded");
    await payment(88_900, "failed");
    await payment(14_900, "pending");

    expect(await stats()).toEqual({
      totalProperties: 5,
      pendingInspections: 4,
      completedThisMonth: 2,
      totalRevenue: 606.5,
    });
  });

  it("reads Total Properties and Total Revenue from the rollup's few rows, not from every property and payment", async () => {
    // The rollup is kept by triggers as rows are written (tests/api/dashboard-rollup.test.ts holds it to the old SQL).
    const raw = vi.spyOn(ctx.db, "raw");
    let sql: string;
    try {
      await new DashboardRepository(ctx.db).stats(monthWindow(ctx.env.BUSINESS_TZ));
      sql = raw.mock.calls.map((call) => String(call[0])).join("\n");
    } finally {
      raw.mockRestore();
    }
    expect(sql).toMatch(/from rollup_deltas/);
    expect(sql).not.toMatch(/from (properties|payments|invoices|refunds|disputes)\b/);
  });

  it("knows a booking taken up the moment an inspection names it, and untaken when it goes or moves; from its index", async () => {
    // The figure the partial index gives, and the anti-join it stands for, after each write.
    const untaken = async () => {
      const fast = await ctx.db.raw(`select count(*)::int as n from inspection_bookings b where ${UNTAKEN}`);
      const plain = await ctx.db.raw(
        `select count(*)::int as n from inspection_bookings b
          where b.status = 'scheduled' and not exists (select 1 from inspections i where i.booking_id = b.id)`,
      );
      expect(fast.rows[0].n).toBe(plain.rows[0].n);
      return fast.rows[0].n as number;
    };
    const before = await untaken();
    const home = await property();
    const [first, second] = [await booking(home.id), await booking(home.id)];
    expect(await untaken()).toBe(before + 2);
    const started = await inspection(home.id, "in_progress", { bookingId: first });
    expect(await untaken()).toBe(before + 1);
    await ctx.db("inspections").where({ id: started }).update({ booking_id: second });
    expect(await untaken()).toBe(before + 1);
    await ctx.db("inspection_bookings").where({ id: second }).update({ status: "cancelled" });
    await ctx.db("inspection_bookings").where({ id: second }).update({ status: "scheduled" });
    expect(await untaken()).toBe(before + 1);
    await ctx.db("inspections").where({ id: started }).del();
    expect(await untaken()).toBe(before + 2);

    const plan = await ctx.db.transaction(async (tx) => {
      await tx.raw("set local enable_seqscan = off");
      const sql = `explain select count(*) from inspection_bookings b where ${UNTAKEN}`;
      return (await tx.raw(sql)).rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/Index Only Scan using inspection_bookings_untaken_idx on inspection_bookings/);
    expect(plan).not.toMatch(/inspections/);
  });

  it("counts the month of the given instant at a month boundary (service)", async () => {
    const p = await property();
    // 2026-03-01 05:00 UTC is midnight in Toronto (EST, UTC-5); an hour before is still February there.
    await inspection(p.id, "completed", { completedAt: new Date("2026-03-01T04:00:00Z") });
    await inspection(p.id, "completed", { completedAt: new Date("2026-03-01T05:00:00Z") });
    await inspection(p.id, "completed", { completedAt: new Date("2026-02-01T04:59:59Z") });
    const february = await ctx.container.dashboard.stats(new Date("2026-03-01T04:30:00Z"));
    const march = await ctx.container.dashboard.stats(new Date("2026-03-01T05:00:00Z"));
    expect(february.completedThisMonth).toBe(1);
    expect(march.completedThisMonth).toBe(1);
    // The window spans whole local days across DST: March 2026 has 31 days less the hour lost on the 8th.
    const window = monthWindow("America/Toronto", new Date("2026-03-15T12:00:00Z"));
    expect(window.from.toISOString()).toBe("2026-03-01T05:00:00.000Z");
    expect(window.to.toISOString()).toBe("2026-04-01T04:00:00.000Z");
  });
});

describe("the sidebar's quick stats", () => {
  it("are counted once, then shown at once while fresh ones are counted in the background", async () => {
    const service = new DashboardService(new DashboardRepository(ctx.db), {
      timeZone: ctx.env.BUSINESS_TZ,
      quickStatsTtlMs: 0,
    });
    const first = await service.quickStats();
    // The sidebar shows no revenue, so it counts none (docs/decisions.md#36).
    expect(first).toEqual({ ...(await service.stats()), totalRevenue: null });
    await property();
    // Expired at once (TTL 0): the last figures come back while the recount runs ...
    expect((await service.quickStats()).totalProperties).toBe(first.totalProperties);
    // ... and the recount shows up on a later page.
    await vi.waitFor(async () => expect((await service.quickStats()).totalProperties).toBe(first.totalProperties + 1));
  });
});

describe("the dashboard page", () => {
  it("redirects without a session, and shows a customer's browser the Access Denied card", async () => {
    for (const path of ["/admin", "/admin/dashboard"]) {
      const res = await ctx.agent().get(path).expect(302);
      expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(path)}`);
    }
    const page = await customerSessionAgent();
    const denied = await page.get("/admin").expect(403);
    expect(denied.text).toContain("Access Denied");
    expect(denied.text).toMatch(/<a[^>]+href="\/api\/login"[^>]*>Login to Continue<\/a>/);
    // The staff API still answers 401 to that browser.
    await page.get("/api/dashboard/stats").expect(401);
  });

  it("answers an htmx request without a session with 401, never the login page", async () => {
    const res = await ctx.agent().get("/admin/properties").set("HX-Request", "true");
    expect(res.status).toBe(401);
    expect(res.text).not.toContain("Team Login");
  });

  it("shows the four stat cards, the 3 latest inspections with badges, the quick actions and the live sidebar counts", async () => {
    const p = await property();
    const base = Date.now();
    const ids: number[] = [];
    for (const [i, status] of (["completed", "scheduled", "in_progress", "draft"] as const).entries()) {
      ids.push(
        await inspection(p.id, status, {
          createdAt: new Date(base + 60_000 * (i + 1)),
          completedAt: status === "completed" ? new Date() : undefined,
          score: status === "completed" ? 91 : undefined,
        }),
      );
    }
    const figures = await stats();
    for (const path of ["/admin", "/admin/dashboard"]) {
      const res = await staff.agent.get(path).expect(200);
      const html = res.text;
      expect(html).toContain('aria-current="page"');
      for (const label of ["Total Properties", "Pending Inspections", "Completed This Month", "Total Revenue"])
        expect(html).toContain(label);
      expect(html).toMatch(new RegExp(`data-stat="totalProperties"[\\s\\S]*?>${figures.totalProperties}<`));
      expect(html).toMatch(new RegExp(`data-stat="pendingInspections"[\\s\\S]*?>${figures.pendingInspections}<`));
      expect(html).toContain(`$${Math.round(figures.totalRevenue).toLocaleString("en-CA")}`);
      // Newest first, 3 of them: draft (orange), in progress (orange), scheduled (blue); the completed one is 4th.
      const badges = [
        ...html.matchAll(/data-testid="recent-inspection"[\s\S]*?class="badge badge-(\w+)">([^<]+)</g),
      ].map((m) => [m[1], m[2]]);
      expect(badges).toEqual([
        ["orange", "Draft"],
        ["orange", "In Progress"],
        ["blue", "Scheduled"],
      ]);
      for (const href of ["/admin/properties", "/admin/inspections", "/admin/reports"])
        expect(html).toContain(`href="${href}"`);
      expect(html).toMatch(/href="\/admin\/inspections"[^>]*>View All</);
      // Header: the first-name initial and Logout; sidebar: every section and the live quick stats.
      expect(html).toMatch(/aria-label="Signed in as Sam: your two-step sign-in"[^>]*>S</);
      expect(html).toContain(">Logout<");
      for (const label of [
        "Dashboard",
        "Properties",
        "Inspections",
        "Reports",
        "Quote Requests",
        "Maintenance",
        "Subscriptions",
      ])
        expect(html).toContain(`<span>${label}</span>`);
      expect(html).toMatch(new RegExp(`<dt>Properties</dt><dd>${figures.totalProperties}</dd>`));
    }
    // The completed badge is green.
    await ctx.db("inspections").whereIn("id", ids.slice(1)).del();
    const html = (await staff.agent.get("/admin").expect(200)).text;
    expect(html).toMatch(/data-testid="recent-inspection"[\s\S]*?class="badge badge-green">Completed</);
  });
});

/** A browser holding only a customer session: it booked through the wizard, which names its customer in the cookie. */
async function customerSessionAgent() {
  const agent = ctx.agent();
  const calendar = ctx.container.bookings.calendar();
  await agent
    .post("/api/inspection-bookings")
    .send({
      propertyAddress: "77 Bank Street, Ottawa, ON K1P 5N2",
      propertyType: "single-family",
      propertySize: "1800",
      firstName: "Casey",
      lastName: "Customer",
      email: "casey@example.ca",
      phone: "613-555-0199",
      scheduledDate: calendar.minDate,
      timeSlot: "9:00 AM",
      accessMethod: "meet-inspector",
    })
    .expect(201);
  return agent;
}
