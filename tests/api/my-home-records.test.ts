// My Home's records: Home, Reports, Quotes and their JSON calls, with the second-customer
// isolation test (every route as another customer: 404 or 403, never data) and the shared-report rule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { barColour, clientLabel } from "../../src/modules/inspections/bands.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";
import { expectAllTranslated, pseudoApp } from "../support/pseudo-locale.js";
import supertest from "supertest";
import { completedInspection, photo } from "./reports-fixtures.js";
import { pdfText, shareReport, sharedReportFixture } from "./sharing-fixtures.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>["agent"];

type Fixture = Awaited<ReturnType<typeof sharedReportFixture>> & { email: string };
let alice: Fixture & { secondReportId: number };
let bob: Fixture;
const AGENT_EMAIL = "buyers.agent@example.com";

const emailOf = async (propertyId: number) =>
  (
    await ctx
      .db("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", propertyId)
      .first("c.email")
  ).email as string;

beforeAll(async () => {
  ctx = await createTestContext({ PUBLIC_URL: "https://haven.example" });
  staff = (await signInStaff(ctx)).agent;
  // Alice: two inspections of her home (history with 'what changed'); the latest report has three findings.
  const first = await sharedReportFixture(ctx, "12 Maple Crescent");
  const { inspectionId } = await completedInspection(
    ctx.container,
    [
      { categoryName: "Plumbing", subcategoryName: "Water Main Shut Off", score: 10 },
      {
        categoryName: "Plumbing",
        subcategoryName: "Hot Water System",
        score: 7,
        notes: "Replaced last spring",
        photoIds: [await photo(ctx.container, 901)],
      },
      { categoryName: "Roof", subcategoryName: "Gutters", score: 10 },
      { categoryName: "Roof", subcategoryName: "Flashings", score: 4, notes: "Loose at the chimney" },
      {
        categoryName: "Electrical",
        subcategoryName: "Smoke / CO Detectors",
        score: 1,
        notes: "Detector missing in the hall",
      },
    ],
    { propertyId: first.propertyId, inspectionDate: "2026-05-04" },
  );
  const second = await ctx.container.reports.generate(inspectionId);
  alice = { ...first, email: await emailOf(first.propertyId), secondReportId: second.id };
  // Bob: another customer, whose report staff also shared with a buyer's agent (who has no home of her own).
  const b = await sharedReportFixture(ctx, "48 Birch Road");
  bob = { ...b, email: await emailOf(b.propertyId) };
  await shareReport(staff, bob.report.id, AGENT_EMAIL);
});
afterAll(async () => {
  await ctx?.close();
});

const home = (email: string) => signInHome(ctx, email);

describe("My Home records: the session", () => {
  const calls: [string, string][] = [
    ["get", "/api/my-home/properties"],
    ["get", "/api/my-home/reports"],
    ["get", "/api/my-home/reports/1"],
    ["get", "/api/my-home/reports/1/photos/1"],
    ["get", "/api/my-home/properties/1/history"],
    ["get", "/api/my-home/quotes"],
    ["post", "/api/my-home/quotes/1/accept"],
    ["post", "/api/my-home/quotes/1/decline"],
    ["post", "/api/my-home/quote-requests"],
  ];

  it("every call answers 401 without a home session, and a staff session grants nothing here", async () => {
    for (const [method, path] of calls) {
      const anonymous = await (
        ctx.agent() as unknown as Record<string, (p: string) => Promise<{ status: number; body: { message: string } }>>
      )[method]!(path);
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.message).toMatch(/Sign in to My Home/);
      const asStaff = await (staff as unknown as Record<string, (p: string) => Promise<{ status: number }>>)[method]!(
        path,
      );
      expect(asStaff.status, `staff ${method} ${path}`).toBe(401);
    }
  });

  it("pages send a visitor to the sign-in page, coming back afterwards; a staff session is no home session", async () => {
    for (const path of [
      "/my-home",
      "/my-home/reports",
      `/my-home/reports/${alice.report.id}`,
      `/my-home/reports/${alice.report.id}/pdf`,
      "/my-home/quotes",
    ]) {
      const res = await ctx.agent().get(path).expect(303);
      expect(res.headers.location).toBe(`/my-home/sign-in?next=${encodeURIComponent(path)}`);
      await staff.get(path).expect(303);
    }
  });

  it("a home session grants nothing of the staff side", async () => {
    const agent = await home(alice.email);
    await agent.get("/api/quote-requests").expect(401);
    await agent.get(`/api/reports/${alice.report.id}`).expect(401);
    await agent.get("/admin/quote-requests").expect(302);
  });
});

describe("My Home records: Home", () => {
  it("lists the homeowner's property with its latest score, band, trend and open recommendations by priority", async () => {
    const agent = await home(alice.email.toUpperCase());
    const res = await agent.get("/api/my-home/properties").expect(200);
    expect(res.headers["cache-control"]).toContain("no-store");
    expect(res.body).toHaveLength(1);
    const [p] = res.body;
    const latest = await ctx.container.reports.get(alice.secondReportId);
    const previous = alice.report.overallScore!;
    expect(p).toMatchObject({
      id: alice.propertyId,
      address: "12 Maple Crescent",
      latestReport: { id: alice.secondReportId },
      currentScore: latest.overallScore,
      pastDue: false,
    });
    expect(p.trend).toBe(latest.overallScore! - previous);
    expect(p.band).toBe(clientLabel(latest.overallScore!));
    expect(p.colour).toBe(barColour(latest.overallScore!));
    // What needs attention now: the latest report's open items (the older report's are not repeated), high first.
    const latestIds = (latest.reportData.recommendations as { id: number }[]).map((r) => r.id);
    expect(latestIds.length).toBeGreaterThan(0);
    expect(p.openRecommendations.map((r: { id: number }) => r.id).sort()).toEqual([...latestIds].sort());
    const priorities = p.openRecommendations.map((r: { priority: string }) => r.priority);
    expect(
      [...priorities].sort(
        (a: string, b: string) => ["high", "medium", "low"].indexOf(a) - ["high", "medium", "low"].indexOf(b),
      ),
    ).toEqual(priorities);
  });

  it("shows a past-due plan as needing attention", async () => {
    // A row as the demo provider keeps it after a failed renewal (the billing rules are the subscriptions module's).
    const [sub] = await ctx
      .db("subscriptions")
      .insert({
        property_id: bob.propertyId,
        plan_type: "standard",
        provider: "demo",
        provider_subscription_id: "demo_sub_pastdue",
        status: "past_due",
        monthly_amount_cents: 37000,
        started_at: "2026-01-01T05:00:00Z",
        billing_anchor: "2026-01-01",
        current_period_start: "2026-03-01T05:00:00Z",
        current_period_end: "2026-04-01T04:00:00Z",
        minimum_term_ends_at: "2026-04-01T04:00:00Z",
      })
      .returning("id");
    const agent = await home(bob.email);
    const res = await agent.get("/api/my-home/properties").expect(200);
    expect(res.body[0].pastDue).toBe(true);
    const page = await agent.get("/my-home").expect(200);
    expect(page.text).toContain("data-past-due");
    await ctx.db("subscriptions").where({ id: sub.id }).delete();
  });

  it("renders Home with the score ring, the tabs and sign out; an unknown customer gets the empty state", async () => {
    const agent = await home(alice.email);
    const page = await agent.get("/my-home").expect(200);
    expect(page.headers["cache-control"]).toContain("no-store");
    expect(page.text).toContain(`data-home-property="${alice.propertyId}"`);
    expect(page.text).toContain("data-score-ring");
    expect(page.text).toContain('aria-current="page">Home</a>');
    expect(page.text).toContain('action="/my-home/sign-out"');
    for (const tab of ["Reports", "Quotes", "Visits", "Plan", "Account"]) expect(page.text).toContain(`>${tab}</a>`);
    const nobody = await home("nobody-yet@example.com");
    const empty = await nobody.get("/my-home").expect(200);
    expect(empty.text).toContain("data-empty-home");
  });
});

describe("My Home records: Reports", () => {
  it("lists every report of the homeowner's property, newest first, and none of anyone else's", async () => {
    const agent = await home(alice.email);
    const res = await agent.get("/api/my-home/reports").expect(200);
    expect(res.body.map((r: { id: number }) => r.id)).toEqual([alice.secondReportId, alice.report.id]);
    expect(res.body.every((r: { shared: boolean }) => !r.shared)).toBe(true);
  });

  it("reads a report in the client view as often as wanted, photos under My Home, and no staff notes", async () => {
    const agent = await home(alice.email);
    for (let i = 0; i < 2; i++) {
      const res = await agent.get(`/api/my-home/reports/${alice.report.id}`).expect(200);
      expect(res.body.shared).toBe(false);
      expect(res.body.pdf).toEqual({
        full: `/my-home/reports/${alice.report.id}/pdf`,
        summary: `/my-home/reports/${alice.report.id}/pdf?format=summary`,
      });
      const recs = res.body.report.reportData.recommendations as { id: number; photos: string[] }[];
      expect(recs.map((r) => r.id).sort()).toEqual([...alice.taskIds].sort());
      expect(JSON.stringify(res.body)).not.toContain("adminNotes");
      const photos = recs.flatMap((r) => r.photos);
      expect(photos.length).toBe(5);
      for (const url of photos)
        expect(url).toMatch(new RegExp(`^/api/my-home/reports/${alice.report.id}/photos/\\d+$`));
      const image = await agent.get(photos[0]!).expect(200);
      expect(image.headers["content-type"]).toBe("image/jpeg");
      expect(res.body.items[String(alice.taskIds[0])]).toMatchObject({ status: "pending" });
    }
    // A photo the report does not show (the second report's) is not served under the first.
    const other = await ctx.container.reports.get(alice.secondReportId);
    const otherPhoto = JSON.stringify(other.reportData).match(/\/api\/photos\/(\d+)/);
    if (otherPhoto) await agent.get(`/api/my-home/reports/${alice.report.id}/photos/${otherPhoto[1]}`).expect(404);
    await agent.get(`/api/my-home/reports/${alice.report.id}/photos/${alice.photos[0]! + 100000}`).expect(404);
  });

  it("downloads both PDFs", async () => {
    const agent = await home(alice.email);
    const full = await agent.get(`/my-home/reports/${alice.report.id}/pdf`).buffer(true).parse(binary).expect(200);
    expect(full.headers["content-type"]).toBe("application/pdf");
    expect(full.headers["content-disposition"]).toMatch(
      /attachment; filename="haven-report-\d+-12-Maple-Crescent\.pdf"/,
    );
    const fullText = await pdfText(full.body as Buffer);
    expect(fullText).toContain("12 Maple Crescent");
    // The homeowner's PDF names the band as My Home does: the client label (docs/decisions.md#41).
    expect(fullText).toContain(clientLabel(alice.report.overallScore!));
    const summary = await agent
      .get(`/my-home/reports/${alice.report.id}/pdf?format=summary`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(summary.headers["content-disposition"]).toContain("-summary.pdf");
    await agent.get(`/my-home/reports/${alice.report.id}/pdf?format=poster`).expect(400);
  });

  it("gives the property's history with what changed, JSON and on the report page", async () => {
    const agent = await home(alice.email);
    const res = await agent.get(`/api/my-home/properties/${alice.propertyId}/history`).expect(200);
    expect(res.body.points).toHaveLength(2);
    expect(res.body.changes.items.map((i: { subcategoryName: string }) => i.subcategoryName)).toContain(
      "Hot Water System",
    );
    const page = await agent.get(`/my-home/reports/${alice.secondReportId}`).expect(200);
    expect(page.text).toContain("data-home-history");
    expect(page.text).toContain("data-what-changed");
    expect(page.text).toContain('data-island="sharing/ClientReport"');
    expect(page.text).toContain(`&#34;reportId&#34;:${alice.secondReportId}`);
    const list = await agent.get("/my-home/reports").expect(200);
    expect(list.text).toContain(`data-home-report="${alice.report.id}"`);
    expect(list.text).toContain(`data-home-report="${alice.secondReportId}"`);
  });

  it("a report shared to an e-mail shows that report alone: never the property's other records", async () => {
    const agent = await home(AGENT_EMAIL);
    const list = await agent.get("/api/my-home/reports").expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({ id: bob.report.id, shared: true, propertyId: bob.propertyId }),
    ]);
    const one = await agent.get(`/api/my-home/reports/${bob.report.id}`).expect(200);
    expect(one.body.shared).toBe(true);
    expect(one.body.items).toEqual({});
    const photos = (one.body.report.reportData.recommendations as { photos: string[] }[]).flatMap((r) => r.photos);
    await agent.get(photos[0]!).expect(200);
    await agent.get(`/my-home/reports/${bob.report.id}/pdf?format=summary`).expect(200);
    expect((await agent.get("/api/my-home/properties").expect(200)).body).toEqual([]);
    expect((await agent.get("/api/my-home/quotes").expect(200)).body).toEqual([]);
    await agent.get(`/api/my-home/properties/${bob.propertyId}/history`).expect(404);
    await agent.post("/api/my-home/quote-requests").send({ recommendationId: bob.taskIds[0] }).expect(404);
    const page = await agent.get(`/my-home/reports/${bob.report.id}`).expect(200);
    expect(page.text).not.toContain("data-home-history");
    expect((await agent.get("/my-home").expect(200)).text).toContain("a report was shared with you");
  });

  it("a share past its expiry grants nothing, as a revoked one; the homeowner's own report stays theirs", async () => {
    const reader = "expiring.reader@example.com";
    await shareReport(staff, alice.report.id, reader);
    const agent = await home(reader);
    const one = await agent.get(`/api/my-home/reports/${alice.report.id}`).expect(200);
    const photo = (one.body.report.reportData.recommendations as { photos: string[] }[]).flatMap((r) => r.photos)[0]!;
    await agent.get(photo).expect(200);

    // Every share of Alice's report expires (hers included).
    await ctx
      .db("report_shares")
      .where({ report_id: alice.report.id })
      .update({ expires_at: ctx.db.raw("now() - interval '1 minute'") });
    expect((await agent.get("/api/my-home/reports").expect(200)).body).toEqual([]);
    await agent.get(`/api/my-home/reports/${alice.report.id}`).expect(404);
    await agent.get(photo).expect(404);
    await agent.get(`/my-home/reports/${alice.report.id}`).expect(404);
    await agent.get(`/my-home/reports/${alice.report.id}/pdf?format=summary`).expect(404);
    expect((await agent.get("/my-home").expect(200)).text).not.toContain("a report was shared with you");
    // Nothing left to see: a sign-in request for that e-mail sends nothing.
    expect(await ctx.container.homeAccess.isKnown(reader)).toBe(false);

    const owner = await home(alice.email);
    await owner.get(`/api/my-home/reports/${alice.report.id}`).expect(200);
    expect((await owner.get("/api/my-home/reports").expect(200)).body.map((r: { id: number }) => r.id)).toContain(
      alice.report.id,
    );
  });
});

describe("My Home records: Quotes", () => {
  it("asks for a quote on an open recommendation: marked as from the portal, seen by staff at once", async () => {
    const agent = await home(alice.email);
    const [taskId] = alice.taskIds;
    const res = await agent
      .post("/api/my-home/quote-requests")
      .send({ recommendationId: taskId, notes: "Mornings are best" })
      .expect(201);
    expect(res.body).toMatchObject({
      maintenanceTaskId: taskId,
      status: "pending",
      source: "portal",
      clientNotes: "Mornings are best",
      propertyId: alice.propertyId,
    });
    expect(res.body).not.toHaveProperty("adminNotes");
    const staffList = await staff.get(`/api/quote-requests?propertyId=${alice.propertyId}`).expect(200);
    expect(staffList.body.find((q: { id: number }) => q.id === res.body.id)).toMatchObject({
      source: "portal",
      priority: "immediate",
    });
    const staffPage = await staff.get("/admin/quote-requests").expect(200);
    expect(staffPage.text).toContain("From My Home");
    // Asking again appends the note to the open request: one request per item, as with links.
    const again = await agent.post("/api/my-home/quote-requests").send({ taskId, notes: "Or Saturdays" }).expect(200);
    expect(again.body.id).toBe(res.body.id);
    expect(again.body.clientNotes).toMatch(/Mornings are best\n\nAsked again on \d{4}-\d{2}-\d{2}: Or Saturdays/);
    // The item now shows its quote in the report view.
    const report = await agent.get(`/api/my-home/reports/${alice.report.id}`).expect(200);
    expect(report.body.items[String(taskId)].quote).toEqual({ id: res.body.id, status: "pending" });
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const agent = await home(alice.email);
    const before = Number((await ctx.db("quote_requests").count({ n: "*" }).first())!.n);
    const cases: [unknown, string][] = [
      [{}, "recommendationId"],
      [{ recommendationId: "abc" }, "recommendationId"],
      [{ recommendationId: 0 }, "recommendationId"],
      [{ recommendationId: alice.taskIds[1], notes: "x".repeat(2001) }, "notes"],
      [{ recommendationId: alice.taskIds[1], notes: 42 }, "notes"],
      [{ recommendationId: alice.taskIds[1], taskId: alice.taskIds[2] }, "taskId"],
    ];
    for (const [input, field] of cases) {
      const res = await agent
        .post("/api/my-home/quote-requests")
        .send(input as object)
        .expect(400);
      expect(Object.keys(res.body.fields), JSON.stringify(input)).toContain(field);
    }
    await agent.post("/api/my-home/quotes/abc/accept").expect(400);
    expect(Number((await ctx.db("quote_requests").count({ n: "*" }).first())!.n)).toBe(before);
  });

  it("a done or cancelled item cannot be quoted (409); another home's item is a 404", async () => {
    const agent = await home(alice.email);
    const taskId = alice.taskIds[2]!;
    await ctx.db("maintenance_tasks").where({ id: taskId }).update({ status: "completed" });
    const res = await agent.post("/api/my-home/quote-requests").send({ recommendationId: taskId }).expect(409);
    expect(res.body.message).toMatch(/done or cancelled/);
    await ctx.db("maintenance_tasks").where({ id: taskId }).update({ status: "pending" });
    await agent.post("/api/my-home/quote-requests").send({ recommendationId: bob.taskIds[0] }).expect(404);
  });

  it("accepts a quoted item in one click: the quote report's rule, its task scheduled; a second answer is a 409", async () => {
    const agent = await home(alice.email);
    const asked = await agent
      .post("/api/my-home/quote-requests")
      .send({ recommendationId: alice.taskIds[1] })
      .expect(201);
    await agent.post(`/api/my-home/quotes/${asked.body.id}/accept`).expect(409); // pending: nothing to accept yet
    await staff
      .patch(`/api/quote-requests/${asked.body.id}`)
      .send({ status: "quoted", quotedAmount: "$450" })
      .expect(200);
    const list = await agent.get("/api/my-home/quotes").expect(200);
    expect(list.body[0]).toMatchObject({
      id: asked.body.id,
      status: "quoted",
      quotedAmount: "$450",
      quotedCents: 45000,
    });
    // Staff also e-mailed a quote report link of it: answered in My Home, the link is spent as if answered there.
    await staff.post(`/api/properties/${alice.propertyId}/generate-quote-report`).expect(201);
    const accepted = await agent.post(`/api/my-home/quotes/${asked.body.id}/accept`).expect(200);
    expect(accepted.body.status).toBe("accepted");
    expect((await ctx.db("maintenance_tasks").where({ id: alice.taskIds[1] }).first()).status).toBe("scheduled");
    const link = await ctx.db("quote_report_links").where({ property_id: alice.propertyId }).first();
    expect(link.quote_request_ids).toEqual([asked.body.id]);
    expect(link.completed_at).not.toBeNull();
    const again = await agent.post(`/api/my-home/quotes/${asked.body.id}/decline`).expect(409);
    expect(again.body.message).toBe("This item has already been answered");
  });

  it("declines from the Quotes page by a plain form post, and shows every status", async () => {
    const agent = await home(alice.email);
    const [quoteId] = (await ctx
      .db("quote_requests")
      .where({ maintenance_task_id: alice.taskIds[0], status: "pending" })
      .pluck("id")) as number[];
    await staff.patch(`/api/quote-requests/${quoteId}`).send({ status: "quoted", quotedAmount: "$1,250" }).expect(200);
    const page = await agent.get("/my-home/quotes").expect(200);
    expect(page.text).toContain(`data-home-quote="${quoteId}" data-status="quoted"`);
    expect(page.text).toContain("$1,250");
    const res = await agent
      .post(`/my-home/quotes/${quoteId}/decision`)
      .type("form")
      .send({ decision: "decline" })
      .expect(303);
    expect(res.headers.location).toBe("/my-home/quotes?done=declined");
    const after = await agent.get("/my-home/quotes?done=declined").expect(200);
    expect(after.text).toContain("Quote declined");
    expect(after.text).toContain(`data-home-quote="${quoteId}" data-status="declined"`);
    // Answered already: back to the page with the problem named, nothing changed.
    const twice = await agent
      .post(`/my-home/quotes/${quoteId}/decision`)
      .type("form")
      .send({ decision: "accept" })
      .expect(303);
    expect(twice.headers.location).toBe("/my-home/quotes?problem=answered");
    expect((await ctx.db("quote_requests").where({ id: quoteId }).first()).status).toBe("declined");
    // The declined item is open again (pending task, no open request): it can be asked for from the page.
    const ask = await agent
      .post("/my-home/quote-requests")
      .type("form")
      .send({ recommendationId: String(alice.taskIds[0]), notes: "", back: "/my-home/reports/1" })
      .expect(303);
    expect(ask.headers.location).toBe("/my-home/reports/1?done=asked");
    const offsite = await agent
      .post("/my-home/quote-requests")
      .type("form")
      .send({ recommendationId: String(alice.taskIds[0]), back: "https://evil.example/" })
      .expect(303);
    expect(offsite.headers.location).toBe("/my-home/quotes?done=asked-again");
  });

  it("every unsafe call passes the CSRF guard", async () => {
    const agent = await home(alice.email);
    await agent
      .post("/api/my-home/quote-requests")
      .set("Origin", "https://evil.example")
      .send({ recommendationId: alice.taskIds[0] })
      .expect(403);
    await agent
      .post("/my-home/quotes/1/decision")
      .set("Origin", "https://evil.example")
      .type("form")
      .send({ decision: "accept" })
      .expect(403);
    await agent.post("/api/my-home/quotes/1/accept").set("Sec-Fetch-Site", "cross-site").expect(403);
  });
});

describe("My Home records: a second customer", () => {
  it("gets 404 on every route for the first customer's records, never data", async () => {
    const agent = await home(bob.email);
    const [aliceQuote] = (await ctx
      .db("quote_requests")
      .where({ property_id: alice.propertyId })
      .pluck("id")) as number[];
    const aliceReport = await ctx.container.reports.get(alice.report.id);
    const aliceText = ["12 Maple Crescent", alice.email];
    const photoId = JSON.stringify(aliceReport.reportData).match(/\/api\/photos\/(\d+)/)![1];
    const gets = [
      `/api/my-home/reports/${alice.report.id}`,
      `/api/my-home/reports/${alice.secondReportId}`,
      `/api/my-home/reports/${alice.report.id}/photos/${photoId}`,
      `/api/my-home/properties/${alice.propertyId}/history`,
      `/my-home/reports/${alice.report.id}`,
      `/my-home/reports/${alice.report.id}/pdf`,
      `/my-home/reports/${alice.report.id}/pdf?format=summary`,
    ];
    for (const path of gets) {
      const res = await agent.get(path);
      expect(res.status, path).toBe(404);
      for (const text of aliceText) expect(res.text, path).not.toContain(text);
    }
    const posts: [string, object][] = [
      [`/api/my-home/quotes/${aliceQuote}/accept`, {}],
      [`/api/my-home/quotes/${aliceQuote}/decline`, {}],
      ["/api/my-home/quote-requests", { recommendationId: alice.taskIds[0] }],
      [`/my-home/quotes/${aliceQuote}/decision`, { decision: "accept" }],
      ["/my-home/quote-requests", { recommendationId: String(alice.taskIds[0]) }],
    ];
    const before = await ctx.db("quote_requests").orderBy("id").select("id", "status", "client_notes", "version");
    for (const [path, input] of posts) {
      const res = await agent
        .post(path)
        .type(path.startsWith("/api") ? "json" : "form")
        .send(input);
      expect([403, 404], path).toContain(res.status);
      for (const text of aliceText) expect(res.text, path).not.toContain(text);
    }
    expect(await ctx.db("quote_requests").orderBy("id").select("id", "status", "client_notes", "version")).toEqual(
      before,
    );
    // Their own lists hold only their own records.
    const lists = await Promise.all(
      ["/api/my-home/properties", "/api/my-home/reports", "/api/my-home/quotes"].map((p) => agent.get(p).expect(200)),
    );
    for (const list of lists) {
      for (const text of aliceText) expect(list.text).not.toContain(text);
      expect(
        list.body.every((row: { propertyId?: number; id: number }) => (row.propertyId ?? row.id) === bob.propertyId),
      ).toBe(true);
    }
    for (const page of ["/my-home", "/my-home/reports", "/my-home/quotes"]) {
      const res = await agent.get(page).expect(200);
      for (const text of aliceText) expect(res.text, page).not.toContain(text);
    }
  });
});

describe("My Home records: OpenAPI", () => {
  it("documents every records call", async () => {
    const doc = (await ctx.agent().get("/api/openapi.json").expect(200)).body;
    for (const [path, method] of [
      ["/api/my-home/properties", "get"],
      ["/api/my-home/properties/{propertyId}/history", "get"],
      ["/api/my-home/reports", "get"],
      ["/api/my-home/reports/{id}", "get"],
      ["/api/my-home/reports/{id}/photos/{photoId}", "get"],
      ["/api/my-home/quotes", "get"],
      ["/api/my-home/quotes/{id}/accept", "post"],
      ["/api/my-home/quotes/{id}/decline", "post"],
      ["/api/my-home/quote-requests", "post"],
    ]) {
      expect(doc.paths[path!]?.[method!], `${method} ${path}`).toBeDefined();
    }
  });
});

// My Home in the address's language (docs/decisions.md#65), the customer's own language on the Account page.
describe("My Home records: in French", () => {
  it("every page's words come from the catalogue (pseudo locale), its data aside", async () => {
    const agent = await signInHome(ctx, alice.email, supertest.agent(pseudoApp(ctx)));
    const quotes = (await agent.get("/api/my-home/quotes").expect(200)).body as {
      taskTitle: string;
      taskDescription: string | null;
      clientNotes: string | null;
    }[];
    const report = (await agent.get(`/api/my-home/reports/${alice.secondReportId}`).expect(200)).body;
    const properties = (await agent.get("/api/my-home/properties").expect(200)).body as {
      addressLine: string;
      openRecommendations: { title: string; description: string | null }[];
    }[];
    const data = [
      alice.email,
      // A recommendation's title and description are written when the report is made: stored data.
      ...properties.flatMap((p) => [
        p.addressLine,
        ...p.openRecommendations.flatMap((r) => (r.description ?? "").split("\n")),
        ...p.openRecommendations.map((r) => r.title),
      ]),
      "12 Maple Crescent",
      // The footer's contact e-mail.
      ctx.env.CONTACT_EMAIL ?? "",
      ...quotes.flatMap((q) => [...`${q.taskDescription ?? ""}\n${q.clientNotes ?? ""}`.split("\n"), q.taskTitle]),
      ...report.report.reportData.recommendations.flatMap(
        (r: { title?: string; subcategory: string; notes?: string }) => [r.subcategory, r.notes ?? ""],
      ),
      // The items that moved: the inspector's item names and notes are data, not copy.
      "Hot Water System",
      "Water Main Shut Off",
      "Flashings",
      "Gutters",
      "Smoke / CO Detectors",
      "Replaced last spring",
      "Loose at the chimney",
      "Detector missing in the hall",
      "Haven",
      // The Account page names each language in itself (lang="en-CA").
      "English",
    ]
      .filter(Boolean)
      // Longest first, so a name inside a longer sentence never leaves the rest of it behind.
      .sort((a, b) => b.length - a.length);
    for (const path of [
      "/my-home",
      "/my-home/reports",
      `/my-home/reports/${alice.secondReportId}`,
      "/my-home/quotes",
      "/my-home/account",
    ]) {
      const page = await agent.get(path).expect(200);
      expectAllTranslated(page.text, path, data);
    }
    const signIn = await supertest(pseudoApp(ctx)).get("/my-home/sign-in").expect(200);
    expectAllTranslated(signIn.text, "/my-home/sign-in", ["Haven", ctx.env.CONTACT_EMAIL ?? ""]);
  });

  it("shows My Home in French at /fr, its links and forms staying in French", async () => {
    const agent = await home(alice.email);
    const page = await agent.get("/fr/my-home").expect(200);
    expect(page.text).toContain('<html lang="fr-CA">');
    expect(page.text).toContain("Se déconnecter");
    expect(page.text).toContain('href="/fr/my-home/quotes"');
    expect(page.text).toContain('action="/fr/my-home/sign-out"');
    const quotes = await agent.get("/fr/my-home/quotes").expect(200);
    expect(quotes.text).toContain("Demander une soumission");
    // The error pages a homeowner can meet speak the address's language, a page with no French twin too.
    const missing = await agent.get("/fr/my-home/nothing-here").expect(404);
    expect(missing.text).toContain('<html lang="fr-CA">');
    expect(missing.text).toContain("404 Page introuvable");
    // Refused before any page renderer (the bare view), still in the address's language.
    expect((await agent.get("/fr/admin").expect(404)).text).toContain("404 Page introuvable");
    const pseudo404 = await supertest(pseudoApp(ctx)).get("/no-such-page").expect(404);
    expectAllTranslated(pseudo404.text, "404", ["Haven", ctx.env.CONTACT_EMAIL ?? ""]);
    expect(quotes.text).toContain('action="/fr/my-home/quote-requests"');
  });

  it("the Account page saves the customer's language and shows the page in it; another language is a 400", async () => {
    const agent = await home(alice.email);
    const localeOf = async () =>
      (await ctx.db("customers").whereRaw("lower(email) = lower(?)", [alice.email]).first("locale")).locale;
    const french = await agent.post("/my-home/account/language").type("form").send({ locale: "fr-CA" }).expect(303);
    expect(french.headers.location).toBe("/fr/my-home/account?done=language");
    expect(await localeOf()).toBe("fr-CA");
    const page = await agent.get("/fr/my-home/account?done=language").expect(200);
    expect(page.text).toContain('<html lang="fr-CA">');
    expect(page.text).toContain("Votre langue est enregistrée");
    expect(page.text).toMatch(/value="fr-CA" checked/);
    // From the French page back to English: the address follows the choice, not the page it was made on.
    const english = await agent.post("/fr/my-home/account/language").type("form").send({ locale: "en-CA" }).expect(303);
    expect(english.headers.location).toBe("/my-home/account?done=language");
    expect(await localeOf()).toBe("en-CA");
    const refused = await agent.post("/fr/my-home/account/language").type("form").send({ locale: "de-DE" }).expect(400);
    expect(refused.text).toContain("Choisissez l&#39;anglais ou le français.");
    expect(await localeOf()).toBe("en-CA");
    // The call: zod-checked, nothing but the locale.
    await agent.put("/api/my-home/language").send({ locale: "fr-CA", extra: 1 }).expect(400);
    await agent.put("/api/my-home/language").send({ locale: "xx" }).expect(400);
    expect(await localeOf()).toBe("en-CA");
    expect((await agent.put("/api/my-home/language").send({ locale: "fr-CA" }).expect(200)).body).toEqual({
      locale: "fr-CA",
    });
    expect(await localeOf()).toBe("fr-CA");
    await agent.put("/api/my-home/language").send({ locale: "en-CA" }).expect(200);
    // A report shared to an e-mail that is no customer's has no language to keep.
    await (await home(AGENT_EMAIL)).put("/api/my-home/language").send({ locale: "fr-CA" }).expect(409);
  });
});

/** Collects a binary response body (supertest only buffers text and JSON by itself). */
function binary(res: unknown, done: (err: Error | null, body: Buffer) => void) {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  stream.on("end", () => done(null, Buffer.concat(chunks)));
}
