// Roles on every staff route and call (docs/decisions.md#36, src/http/roles.ts).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { oas31 } from "zod-openapi";
import { ANYONE, type StaffRole, ROLE_RULES, ruleOf, routesWithoutRule } from "../../src/http/roles.js";
import { listRoutes } from "../../src/http/routes.js";
import { buildOpenApiDocument } from "../../src/openapi.js";
import { type TestContext, createTestContext } from "../support/context.js";
import { completedInspection, newProperty, photo, quickEntries } from "./reports-fixtures.js";
import { suiteToday } from "../support/clock.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const ROLES: StaffRole[] = ["owner", "office", "inspector"];
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** A supertest agent signed in as a new staff user of this role. */
async function signInAs(role: StaffRole) {
  const agent = ctx.agent();
  const email = `${role}-${randomBytes(3).toString("hex")}@haven.test`;
  const password = "correct horse battery";
  const user = await ctx.container.users.create({ email, password, firstName: "Robin", lastName: "Role", role });
  await agent.post("/api/auth/login").send({ email, password }).expect(200);
  return { agent, user };
}

type Agent = Awaited<ReturnType<typeof signInAs>>["agent"];
const call = (agent: Agent, method: string, path: string) =>
  agent[method.toLowerCase() as (typeof METHODS)[number]](path).send({});

const concrete = (path: string) => path.replace(/:(\w+)/g, "1");

describe("every route has a rule", () => {
  it("each route Express registers (pages and API) is in the policy table", () => {
    const routes = listRoutes(ctx.app);
    expect(routes.length).toBeGreaterThan(100);
    // The probes' router is entered only for its paths (src/app.ts): its routes are still listed and ruled.
    expect(routes).toContainEqual({ method: "GET", path: "/metrics" });
    expect(routesWithoutRule(routes)).toEqual([]);
  });

  it("each call of the OpenAPI document is in the policy table", () => {
    const doc: oas31.OpenAPIObject = buildOpenApiDocument();
    const calls = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      METHODS.filter((m) => item?.[m]).map((m) => ({ method: m.toUpperCase(), path: path.replace(/{(\w+)}/g, ":$1") })),
    );
    expect(calls.length).toBeGreaterThan(50);
    expect(routesWithoutRule(calls)).toEqual([]);
  });

  it("a new route without a rule is caught, and closed to every role but the owner", async () => {
    expect(routesWithoutRule([{ method: "GET", path: "/admin/payroll" }])).toEqual(["GET /admin/payroll"]);
    expect(ruleOf("POST", "/api/payroll/:id")).toBeUndefined();
    for (const role of ["office", "inspector"] as const) {
      const { agent } = await signInAs(role);
      const res = await agent.get("/api/payroll").expect(403);
      expect(res.body.message).toBe(`Your role (${role}) cannot open this page.`);
    }
    const { agent } = await signInAs("owner");
    await agent.get("/api/payroll").expect(404);
  });
});

describe("each role is refused exactly where its rule says", () => {
  const staffRoutes = () =>
    listRoutes(ctx.app).filter((r) => {
      const rule = ruleOf(r.method, r.path);
      return rule && rule !== ANYONE;
    });

  for (const role of ROLES) {
    it(`${role}: 403 on every route its role may not call, and never on the others`, async () => {
      const { agent } = await signInAs(role);
      const routes = staffRoutes();
      expect(routes.length).toBeGreaterThan(60);
      const wrong: string[] = [];
      for (const route of routes) {
        const rule = ruleOf(route.method, route.path);
        if (!rule || rule === ANYONE) continue;
        // Id 1 names nothing of this inspector's: an "own" route refuses them too (an empty body names nothing, and
        // a photo on no entry yet is the uploader's to see).
        const notTheirs = role === "inspector" && rule.own && rule.ownFrom !== "body" && rule.own !== "photo";
        const allowed = rule.roles.includes(role) && !notTheirs;
        const res = await call(agent, route.method, concrete(route.path));
        if ((res.status === 403) === allowed) wrong.push(`${route.method} ${route.path} → ${res.status}`);
        if (res.status === 403 && !allowed && route.path.startsWith("/api/"))
          expect(res.body.message, route.path).toBe(`Your role (${role}) cannot ${rule.what}.`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it("the table names the money and account calls the owner keeps", () => {
    const owners = Object.entries(ROLE_RULES)
      .filter(([, rule]) => rule !== ANYONE && rule.roles.length === 1)
      .map(([key]) => key);
    expect(owners).toEqual(
      expect.arrayContaining([
        "POST /api/invoices/:id/refund",
        "POST /admin/subscriptions/:id/refund",
        "GET /api/tax-report",
      ]),
    );
    expect(ruleOf("GET", "/admin/staff")).toMatchObject({ roles: ["owner"] });
    expect(ruleOf("POST", "/api/staff-users/:id/role")).toMatchObject({ roles: ["owner"] });
  });

  it("another spelling of a path opens nothing (tests/api/path-spellings.test.ts tries them all)", async () => {
    const { agent } = await signInAs("inspector");
    for (const path of ["/API/SUBSCRIPTIONS", "/api/subscriptions/", "/Api/Invoices/1/Refund"])
      expect([403, 404], path).toContain((await agent.get(path)).status);
    await agent.post("/api/invoices/1/refund/").send({}).expect(404);
    await agent.head("/api/subscriptions").expect(403);
  });

  it("a page refusal is the error page with the plain message", async () => {
    const { agent } = await signInAs("inspector");
    const res = await agent.get("/admin/subscriptions").expect(403);
    expect(res.text).toContain("Your role (inspector) cannot see subscriptions, invoices or billing.");
  });
});

describe("an inspector sees only their own work", () => {
  it("inspections, reports, bookings and tasks: their own in every list; others' refused; no CSV", async () => {
    const mine = await signInAs("inspector");
    const theirs = await signInAs("inspector");
    const office = await signInAs("office");
    const own = await completedInspection(ctx.container, quickEntries(), { inspectorId: mine.user.id });
    const other = await completedInspection(ctx.container, quickEntries(), { inspectorId: theirs.user.id });
    const ownReport = await ctx.container.reports.generate(own.inspectionId);
    const otherReport = await ctx.container.reports.generate(other.inspectionId);

    // Inspections: the list, one inspection, the page.
    const list = await mine.agent.get("/api/inspections").expect(200);
    expect(list.body.map((i: { id: number }) => i.id)).toEqual([own.inspectionId]);
    expect(list.headers["x-total-count"]).toBe("1");
    await mine.agent.get(`/api/inspections/${own.inspectionId}`).expect(200);
    const refused = await mine.agent.get(`/api/inspections/${other.inspectionId}`).expect(403);
    expect(refused.body.message).toBe("Your role (inspector) cannot open another inspector's inspection.");
    await mine.agent.get(`/admin/inspections/view/${other.inspectionId}`).expect(403);
    // The form's entries: never into another inspector's inspection.
    const entry = { categoryName: "Plumbing", subcategoryName: "Pressure and Flow", score: 10 };
    const intoOther = await mine.agent
      .post("/api/inspection-categories")
      .send([{ ...entry, inspectionId: other.inspectionId }])
      .expect(403);
    expect(intoOther.body.message).toBe("Your role (inspector) cannot fill in another inspector's inspection.");
    await mine.agent
      .post("/api/inspection-categories/bulk-complete")
      .send([{ ...entry, inspectionId: other.inspectionId }])
      .expect(403);
    const intoOwn = await mine.agent
      .post("/api/inspection-categories")
      .send([{ ...entry, inspectionId: own.inspectionId }]);
    expect(intoOwn.status).not.toBe(403);
    const page = await mine.agent.get("/admin/inspections").expect(200);
    expect(page.text).toContain(`/admin/inspections/view/${own.inspectionId}`);
    expect(page.text).not.toContain(`/admin/inspections/view/${other.inspectionId}"`);
    expect(page.text).not.toContain("/admin/property-history/");
    const view = (await mine.agent.get(`/admin/inspections/view/${own.inspectionId}`).expect(200)).text;
    expect(view).not.toContain("/admin/property-history/");
    expect((await office.agent.get("/admin/inspections").expect(200)).text).toContain("/admin/property-history/");
    // The office sees both.
    const all = await office.agent.get("/api/inspections").expect(200);
    expect(all.body.map((i: { id: number }) => i.id)).toEqual(
      expect.arrayContaining([own.inspectionId, other.inspectionId]),
    );

    // Photos: those on their inspections' entries (or on none yet), not another inspector's.
    const entryOf = async (inspectionId: number) =>
      (await ctx.db("inspection_entries").where({ inspection_id: inspectionId }).first("id")).id as number;
    const ownPhoto = await photo(ctx.container, 1);
    const otherPhoto = await photo(ctx.container, 2);
    await ctx.db("inspection_entry_photos").insert([
      { entry_id: await entryOf(own.inspectionId), photo_id: ownPhoto },
      { entry_id: await entryOf(other.inspectionId), photo_id: otherPhoto },
    ]);
    await mine.agent.get(`/api/photos/${ownPhoto}/thumbnail`).expect(200);
    await mine.agent.get(`/api/photos/${otherPhoto}/thumbnail`).expect(403);
    await mine.agent.get(`/api/photos/${otherPhoto}`).expect(403);
    await office.agent.get(`/api/photos/${otherPhoto}/thumbnail`).expect(200);

    // Reports of their inspections only.
    const reports = await mine.agent.get("/api/reports").expect(200);
    expect(reports.body.map((r: { id: number }) => r.id)).toEqual([ownReport.id]);
    await mine.agent.get(`/api/reports/${ownReport.id}`).expect(200);
    await mine.agent.get(`/api/reports/${otherReport.id}`).expect(403);
    const reportsPage = await mine.agent.get("/admin/reports").expect(200);
    expect(reportsPage.text).toContain(`/admin/reports/${ownReport.id}`);
    expect(reportsPage.text).not.toContain(`/admin/reports/${otherReport.id}"`);
    // No control the role may not use: generate, share, delete, the property's history.
    for (const control of [
      'data-testid="generate-report"',
      "data-share-report",
      'data-testid="delete-report"',
      "/admin/property-history/",
    ])
      expect(reportsPage.text, control).not.toContain(control);
    const officeReports = (await office.agent.get("/admin/reports").expect(200)).text;
    for (const control of [
      'data-testid="generate-report"',
      "data-share-report",
      'data-testid="delete-report"',
      "/admin/property-history/",
    ])
      expect(officeReports, control).toContain(control);

    // No CSV export, of anything.
    for (const path of ["/api/inspections", "/api/reports", "/api/maintenance-tasks", "/api/properties"]) {
      const res = await mine.agent.get(`${path}?format=csv`).expect(403);
      expect(res.body.message).toBe("Your role (inspector) cannot export to CSV.");
    }
    await office.agent.get("/api/inspections?format=csv").expect(200);

    // Bookings: their own in the staff list.
    const property = await newProperty(ctx.container);
    const booking = (mine_: number | null, date: string) => ({
      property_id: property.id,
      customer_id: property.customerId,
      scheduled_date: date,
      time_slot: "morning",
      access_method: "home",
      status: "scheduled",
      source: "wizard",
      inspector_id: mine_,
      during:
        mine_ === null
          ? null
          : ctx.db.raw(`tstzrange(?::timestamptz, ?::timestamptz)`, [`${date}T13:00Z`, `${date}T15:00Z`]),
    });
    const [ownBooking] = await ctx
      .db("inspection_bookings")
      .insert(booking(mine.user.id, "2027-03-02"))
      .returning("id");
    await ctx.db("inspection_bookings").insert(booking(theirs.user.id, "2027-03-03"));
    await ctx.db("inspection_bookings").insert(booking(null, "2027-03-04"));
    const bookings = await mine.agent.get("/api/inspection-bookings").expect(200);
    expect(bookings.body.map((b: { id: number }) => b.id)).toEqual([ownBooking.id]);
    expect((await office.agent.get("/api/inspection-bookings").expect(200)).body).toHaveLength(3);

    // Tasks assigned to them, in the list and on the calendar; the calendar's bookings are theirs too.
    const task = (assignedTo: number | null) => ({
      property_id: property.id,
      title: `Gutters ${assignedTo}`,
      scheduled_date: "2027-03-10",
      status: "scheduled",
      assigned_to: assignedTo,
    });
    const [ownTask] = await ctx.db("maintenance_tasks").insert(task(mine.user.id)).returning("id");
    const [otherTask] = await ctx.db("maintenance_tasks").insert(task(theirs.user.id)).returning("id");
    await ctx.db("maintenance_tasks").insert(task(null));
    const tasks = await mine.agent.get("/api/maintenance-tasks").expect(200);
    expect(tasks.body.map((t: { id: number }) => t.id)).toEqual([ownTask.id]);
    await mine.agent.patch(`/api/maintenance-tasks/${otherTask.id}`).send({ status: "completed" }).expect(403);
    const calendar = await mine.agent.get("/api/maintenance-calendar?month=2027-03").expect(200);
    expect(calendar.body.tasks.map((t: { id: number }) => t.id)).toEqual([ownTask.id]);
    expect(calendar.body.taskCounts).toEqual({ "2027-03-10": 1 });
    expect(calendar.body.bookings.map((b: { id: number }) => b.id)).toEqual([ownBooking.id]);
    const officeCalendar = await office.agent.get("/api/maintenance-calendar?month=2027-03").expect(200);
    expect(officeCalendar.body.tasks).toHaveLength(3);

    // The new-inspection page offers the homes of their own bookings of the coming days.
    const today = suiteToday(ctx.env.BUSINESS_TZ);
    const ownHome = await newProperty(ctx.container, "5 Own Crescent");
    const otherHome = await newProperty(ctx.container, "7 Else Crescent");
    for (const [home, inspectorId] of [
      [ownHome, mine.user.id],
      [otherHome, theirs.user.id],
    ] as const) {
      await ctx.db("inspection_bookings").insert({
        ...booking(inspectorId, today),
        property_id: home.id,
        customer_id: home.customerId,
      });
    }
    const form = (await mine.agent.get("/admin/inspections/new").expect(200)).text;
    expect(form).toContain("5 Own Crescent");
    expect(form).not.toContain("7 Else Crescent");
    const officeForm = (await office.agent.get("/admin/inspections/new").expect(200)).text;
    expect(officeForm).toContain("7 Else Crescent");
  });

  it("the dashboard shows an inspector no revenue and only their inspections; the sidebar only their sections", async () => {
    const mine = await signInAs("inspector");
    const theirs = await signInAs("inspector");
    const own = await completedInspection(ctx.container, quickEntries(), { inspectorId: mine.user.id });
    await completedInspection(ctx.container, quickEntries(), { inspectorId: theirs.user.id, address: "9 Other Rd" });
    const html = (await mine.agent.get("/admin").expect(200)).text;
    expect(html).not.toContain("Total Revenue");
    expect(html).not.toContain('href="/admin/subscriptions"');
    expect(html).not.toContain('href="/admin/properties"');
    expect(html).not.toContain('href="/admin/quote-requests"');
    expect(html).not.toContain("data-bell");
    expect(html).toContain('href="/admin/inspections"');
    expect(html).toContain('href="/admin/reports"');
    expect(html).toContain(`/admin/inspections/view/${own.inspectionId}`);
    expect(html).not.toContain("9 Other Rd");
    // Their own figures, in the cards and the sidebar: one home, one inspection completed this month.
    const figure = (key: string) => html.match(new RegExp(`data-stat="${key}"[\\s\\S]*?stat-value[^>]*>([^<]+)<`))?.[1];
    expect(figure("totalProperties")).toBe("1");
    expect(figure("completedThisMonth")).toBe("1");
    expect(html).toMatch(/<dt>Properties<\/dt><dd>1<\/dd>/);
    await mine.agent.get("/api/dashboard/stats").expect(403);

    const { agent: office } = await signInAs("office");
    const officeHtml = (await office.get("/admin").expect(200)).text;
    // Revenue is the owner's (tests/api/revenue-roles.test.ts); the office's banner and sidebar still open billing.
    expect(officeHtml).not.toContain("Total Revenue");
    expect(officeHtml).toContain('href="/admin/subscriptions"');
    expect(officeHtml).toContain("9 Other Rd");
  });
});
