import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReportData } from "../../src/modules/reports/report-data.js";
import { DELETE_CONFIRM } from "../../src/modules/reports/reports.routes.js";
import { ALREADY_REPORTED_MESSAGE, NOT_COMPLETED_MESSAGE } from "../../src/modules/reports/reports.service.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { completedInspection, newProperty, quickEntries, smallEntries } from "./reports-fixtures.js";

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signInStaff>>;

beforeAll(async () => {
  ctx = await createTestContext();
  staff = await signInStaff(ctx);
});
afterAll(() => ctx.close());

const pdfText = async (bytes: Buffer) => {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText();
    return { pages: result.total, text: result.text };
  } finally {
    await parser.destroy();
  }
};

/** Collects a binary response body (supertest only buffers text and JSON by itself). */
const binary = (res: unknown, done: (err: Error | null, body: Buffer) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on("data", (c: Buffer) => chunks.push(c));
  stream.on("end", () => done(null, Buffer.concat(chunks)));
};

describe("access", () => {
  it("every reports call refuses a request without a staff session", async () => {
    const anon = ctx.agent();
    await anon.post("/api/inspections/1/generate-report").expect(401);
    await anon.get("/api/reports").expect(401);
    await anon.get("/api/reports/1").expect(401);
    await anon.delete("/api/reports/1").expect(401);
    await anon.get("/api/reports/1/pdf").expect(401);
    await anon.get("/api/property-history/1").expect(401);
    expect((await anon.get("/admin/reports")).headers.location).toMatch(/^\/login/);
    expect((await anon.get("/admin/property-history/1")).headers.location).toMatch(/^\/login/);
  });
});

describe("generation", () => {
  let report: { id: number; propertyId: number; inspectionId: number; overallScore: number; reportData: ReportData };
  let inspectionId: number;

  it("is refused for an inspection that is not completed, an unknown one, and a bad id", async () => {
    const property = await newProperty(ctx.container);
    const open = await ctx.container.inspections.create(
      { propertyId: property.id, inspectionDate: "2026-02-03" },
      staff.user.id,
    );
    const refused = await staff.agent.post(`/api/inspections/${open.id}/generate-report`).expect(409);
    expect(refused.body.message).toBe(NOT_COMPLETED_MESSAGE);
    await staff.agent.post("/api/inspections/999999/generate-report").expect(404);
    const bad = await staff.agent.post("/api/inspections/abc/generate-report").expect(400);
    expect(bad.body.fields.id).toBeDefined();
    expect(Number((await ctx.db("reports").count({ n: "*" }).first())!.n)).toBe(0);
  });

  it("freezes the snapshot of a hand-computed inspection, with both aliases", async () => {
    ({ inspectionId } = await completedInspection(ctx.container, await smallEntries(ctx.container), {
      inspectorId: staff.user.id,
    }));
    const res = await staff.agent.post(`/api/inspections/${inspectionId}/generate-report`).expect(201);
    report = res.body;
    const data = report.reportData;
    expect(report.inspectionId).toBe(inspectionId);
    // Plumbing (100×10 + 40×20 + 10×15)/45 = 43.3; Roof (70×20 + 100×15)/35 = 82.9; overall (13×43.3 + 7×82.9)/20 = 57.2.
    expect(report.overallScore).toBe(57);
    expect(data.overallScore).toBe(57);
    expect(data.inspection.overallScore).toBe(57);
    expect(data.label).toBe("Poor");
    expect(data.summary).toEqual({
      highPriority: 2,
      mediumPriority: 0,
      lowPriority: 1,
      totalIssues: 3,
      overallScore: 57,
      itemCounts: { Excellent: 2, Marginal: 1, Defective: 1, Critical: 1 },
    });
    expect(data.metadata).toMatchObject({ reportId: report.id, totalCategoriesInspected: 2, totalItemsInspected: 5 });
    expect(data.property).toMatchObject({
      address: report.reportData.property.address,
      city: "Québec",
      clientName: "Łucja O’Brien",
      inspector: "Sam Inspector",
    });
    expect(typeof data.property.reportGeneratedAt).toBe("string");
    expect(
      data.allCategories.map((c: { categoryName: string; score: number | null; band: string | null }) => [
        c.categoryName,
        c.score,
        c.band,
      ]),
    ).toEqual([
      ["Plumbing", 43, "Fair"],
      ["Exterior Envelope", null, null],
      ["Roof", 83, "Excellent"],
    ]);
    expect(data.allCategories[0]).toMatchObject({
      subcategoryCount: 3,
      averageScore: 50,
      notes: "2 of 3 scored items need attention.",
    });
    const hotWater = data.allCategories[0]!.subcategories[2]!;
    expect(hotWater).toMatchObject({
      subcategoryName: "Hot Water System",
      score: 1,
      scoreOutOf100: 10,
      notes: "Tank leaking at the base",
      isNA: false,
    });
    expect(hotWater.photos).toHaveLength(2);
    expect(hotWater.photos[0]).toMatch(/^\/api\/photos\/\d+$/);
    expect(data.recommendations.map((r) => [r.subcategory, r.score, r.priority, r.urgency])).toEqual([
      ["Hot Water System", 10, "high", "Urgent"],
      ["Flashings", 100, "high", "Urgent"],
      ["Pressure and Flow", 40, "low", "60 Days"],
    ]);
    expect(data.recommendations[0]).toMatchObject({
      category: "Plumbing",
      notes: "Tank leaking at the base",
      subcategories: ["Hot Water System"],
      photos: hotWater.photos,
    });
    expect(data.issues).toEqual(data.recommendations);
    expect(data.categories).toEqual(data.allCategories);
    // GET returns the same snapshot.
    expect((await staff.agent.get(`/api/reports/${report.id}`).expect(200)).body).toEqual(report);
  });

  it("stores each recommendation as a pending task of the property whose id is the recommendation's", async () => {
    const tasks = await ctx.db("maintenance_tasks").where({ report_id: report.id }).orderBy("id");
    expect(tasks.map((t) => t.id)).toEqual(report.reportData.recommendations.map((r: { id: number }) => r.id));
    expect(tasks.map((t) => [t.property_id, t.status, t.priority, t.category, t.title])).toEqual([
      [report.propertyId, "pending", "high", "plumbing", "Hot Water System (Plumbing)"],
      [report.propertyId, "pending", "high", "roofing", "Flashings (Roof)"],
      [report.propertyId, "pending", "low", "plumbing", "Pressure and Flow (Plumbing)"],
    ]);
  });

  it("refuses a second report for the same inspection, also when two race", async () => {
    const again = await staff.agent.post(`/api/inspections/${inspectionId}/generate-report`).expect(409);
    expect(again.body.message).toBe(ALREADY_REPORTED_MESSAGE);
    const { inspectionId: other } = await completedInspection(ctx.container, quickEntries());
    const statuses = await Promise.all(
      [1, 2, 3].map(() => staff.agent.post(`/api/inspections/${other}/generate-report`).then((r) => r.status)),
    );
    expect(statuses.sort()).toEqual([201, 409, 409]);
    expect(Number((await ctx.db("reports").where({ inspection_id: other }).count({ n: "*" }).first())!.n)).toBe(1);
    // The refused ones left no task behind.
    const reportId = (await ctx.db("reports").where({ inspection_id: other }).first()).id;
    expect(Number((await ctx.db("maintenance_tasks").whereNull("report_id").count({ n: "*" }).first())!.n)).toBe(0);
    expect(
      Number((await ctx.db("maintenance_tasks").where({ report_id: reportId }).count({ n: "*" }).first())!.n),
    ).toBe(1);
  });

  it("keeps the snapshot unchanged when the inspection and the property change later", async () => {
    const before = (await staff.agent.get(`/api/reports/${report.id}`).expect(200)).body;
    await ctx
      .db("inspection_entries")
      .where({ inspection_id: inspectionId })
      .update({ score: 10, notes: "Edited later", urgent: false });
    await ctx.db("inspections").where({ id: inspectionId }).update({ overall_score: 100, notes: "Edited" });
    await ctx.db("properties").where({ id: report.propertyId }).update({ address: "99 Somewhere Else" });
    const after = (await staff.agent.get(`/api/reports/${report.id}`).expect(200)).body;
    expect(after).toEqual(before);
  });

  it("renders both PDFs with the property address as text, the full one with more pages", async () => {
    const address = report.reportData.property.address as string;
    const full = await staff.agent.get(`/api/reports/${report.id}/pdf`).buffer(true).parse(binary).expect(200);
    expect(full.headers["content-type"]).toBe("application/pdf");
    expect(full.headers["content-disposition"]).toMatch(/attachment; filename="haven-report-\d+-.*\.pdf"/);
    const summary = await staff.agent
      .get(`/api/reports/${report.id}/pdf?format=summary`)
      .buffer(true)
      .parse(binary)
      .expect(200);
    const fullText = await pdfText(full.body);
    const summaryText = await pdfText(summary.body);
    expect(summaryText.pages).toBeGreaterThanOrEqual(1);
    expect(summaryText.pages).toBeLessThanOrEqual(2);
    expect(fullText.pages).toBeGreaterThanOrEqual(3);
    for (const { text } of [fullText, summaryText]) {
      expect(text).toContain(address);
      expect(text).toContain("Łucja O’Brien");
      // The homeowner's document: the client band of 57, never the admin one ("Poor"), and one priority spelling.
      expect(text).toContain("Beyond the Pale");
      expect(text).not.toMatch(/\bPoor\b/);
      expect(text).toContain("Critical · Urgent");
      expect(text).not.toMatch(/URGENT|Marginal/);
    }
    expect(fullText.text).toContain("Contents");
    expect(fullText.text).toContain(`Page 1 of ${fullText.pages}`);
    expect(fullText.text).toContain("Tank leaking at the base");
    await staff.agent.get(`/api/reports/${report.id}/pdf?format=poster`).expect(400);
    await staff.agent.get("/api/reports/999999/pdf").expect(404);
  });

  it("prints the PDF in its customer's language, whoever downloads it", async () => {
    const propertyId = report.reportData.property.id as number;
    await staff.agent.patch(`/api/properties/${propertyId}`).send({ locale: "fr-CA" }).expect(200);
    try {
      const pdf = await staff.agent
        .get(`/api/reports/${report.id}/pdf?format=summary`)
        .buffer(true)
        .parse(binary)
        .expect(200);
      const { text } = await pdfText(pdf.body);
      expect(text).toContain("Sommaire santé de la propriété");
      expect(text).toContain("État critique");
      expect(text).toContain("Critique · Urgent");
      expect(text).not.toContain("Beyond the Pale");
    } finally {
      await staff.agent.patch(`/api/properties/${propertyId}`).send({ locale: "en-CA" }).expect(200);
    }
  });
});

describe("list, pages and delete", () => {
  let ids: number[] = [];

  beforeAll(async () => {
    // A clean slate: no completed inspection is left without a report.
    await ctx.db("inspections").delete();
    ids = [];
    for (let i = 0; i < 12; i++) {
      const { inspectionId } = await completedInspection(ctx.container, quickEntries(), {
        address: `${i + 1} Pagination Lane`,
      });
      ids.push((await ctx.container.reports.generate(inspectionId)).id);
    }
  });

  it("lists newest first with X-Total-Count, limit, offset and q, and names bad parameters", async () => {
    const all = await staff.agent.get("/api/reports").expect(200);
    expect(all.headers["x-total-count"]).toBe("12");
    expect(all.body.map((r: { id: number }) => r.id)).toEqual([...ids].reverse());
    expect(all.body[0].reportData.recommendations).toBeDefined();
    const page = await staff.agent.get("/api/reports?limit=5&offset=10").expect(200);
    expect(page.body.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[0]]);
    expect(page.headers["x-total-count"]).toBe("12");
    expect((await staff.agent.get("/api/reports?offset=12").expect(200)).body).toEqual([]);
    const search = await staff.agent.get("/api/reports?q=7%20Pagination").expect(200);
    expect(search.headers["x-total-count"]).toBe("1");
    expect(search.body[0].reportData.property.address).toBe("7 Pagination Lane");
    expect((await staff.agent.get("/api/reports?q=%25").expect(200)).headers["x-total-count"]).toBe("0");
    const bad = await staff.agent.get("/api/reports?limit=0&offset=-1").expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(["limit", "offset"]);
    await staff.agent.get("/api/reports?limit=501").expect(400);
  });

  it("pages the list 10 at a time with the spec's texts", async () => {
    const first = await staff.agent.get("/admin/reports").expect(200);
    expect(first.text).toContain("Showing 1-10 of 12 reports");
    expect(first.text).toContain("Page 1 of 2");
    expect(first.text.match(/data-testid="report-row"/g)).toHaveLength(10);
    expect(first.text).toContain(`data-share-report="${ids[11]}"`);
    expect(first.text).toContain('id="share-dialog-slot"');
    expect(first.text).toContain(`hx-confirm="${DELETE_CONFIRM}"`);
    const second = await staff.agent.get("/admin/reports?page=2").set("HX-Request", "true").expect(200);
    expect(second.text).not.toContain("<html");
    expect(second.text).toContain("Showing 11-12 of 12 reports");
    expect(second.text).toContain("Page 2 of 2");
    expect(second.text.match(/data-testid="report-row"/g)).toHaveLength(2);
    // Past the end: the last page; a nonsense page number: the first.
    expect((await staff.agent.get("/admin/reports?page=9").expect(200)).text).toContain("Page 2 of 2");
    expect((await staff.agent.get("/admin/reports?page=abc").expect(200)).text).toContain("Page 1 of 2");
  });

  it("Generate Report on the list uses the first completed inspection without a report, or says there is none", async () => {
    const none = await staff.agent.post("/admin/reports/generate").set("HX-Request", "true").expect(200);
    expect(none.text).toContain("No Available Inspections");
    expect(none.text).toContain("No completed inspections found that don&#39;t already have reports.");
    const { inspectionId } = await completedInspection(ctx.container, quickEntries(4), { address: "1 Waiting Road" });
    const made = await staff.agent.post("/admin/reports/generate").set("HX-Request", "true").expect(200);
    expect(made.text).toContain("Report generated successfully");
    expect(made.text).toContain("1 Waiting Road");
    const report = await ctx.container.reports.findByInspection(inspectionId);
    expect(report).not.toBeNull();
    ids.push(report!.id);
    // Without htmx: a redirect back to the list with the outcome.
    const redirect = await staff.agent.post("/admin/reports/generate").expect(303);
    expect(redirect.headers.location).toBe("/admin/reports?outcome=none");
  });

  it("deletes a report (API and page action) with its untouched tasks; a task staff acted on stays, unlinked; generating again makes no duplicates", async () => {
    const victim = ids.pop()!;
    const { inspection_id: inspectionId } = await ctx.db("reports").where({ id: victim }).first();
    const taskIds = (await ctx.db("maintenance_tasks").where({ report_id: victim }).orderBy("id")).map((t) => t.id);
    expect(taskIds.length).toBeGreaterThan(1);
    const [acted, ...untouched] = taskIds;
    await ctx.container.maintenance.setTaskStatus(acted!, "scheduled");

    await staff.agent.delete(`/api/reports/${victim}`).expect(204);
    await staff.agent.get(`/api/reports/${victim}`).expect(404);
    await staff.agent.delete(`/api/reports/${victim}`).expect(404);
    const left = await ctx.db("maintenance_tasks").whereIn("id", taskIds);
    expect(left.map((t) => [t.id, t.report_id, t.status])).toEqual([[acted, null, "scheduled"]]);
    expect(await ctx.db("maintenance_tasks").whereIn("id", untouched)).toEqual([]);

    // Generated again: one new task per recommendation, beside the one staff kept.
    const again = await ctx.container.reports.generate(inspectionId);
    expect(await ctx.db("maintenance_tasks").where({ report_id: again.id }).count({ n: "*" }).first()).toEqual({
      n: taskIds.length,
    });
    ids.push(again.id);

    const next = ids.pop()!;
    const page = await staff.agent.post(`/admin/reports/${next}/delete?page=2`).set("HX-Request", "true").expect(200);
    expect(page.text).toContain("Report deleted successfully");
    // 13 reports, less two deleted, plus the one generated again: page 2 holds the eleventh and twelfth.
    expect(page.text).toContain("Showing 11-12 of 12 reports");
    const failed = await staff.agent.post(`/admin/reports/${next}/delete`).set("HX-Request", "true").expect(200);
    expect(failed.text).toContain("Failed to delete report");
  });

  it("shows the viewer page with the report for the island", async () => {
    const page = await staff.agent.get(`/admin/reports/${ids[0]}?page=2`).expect(200);
    expect(page.text).toContain('data-island="reports/ReportViewer"');
    expect(page.text).toContain("&#34;backHref&#34;:&#34;/admin/reports?page=2&#34;");
    await staff.agent.get("/admin/reports/999999").expect(404);
  });
});

describe("property history", () => {
  it("gives the scores, the rounded average, the trend and what changed between the latest two", async () => {
    const property = await newProperty(ctx.container, "5 History Row");
    const first = await completedInspection(ctx.container, await smallEntries(ctx.container), {
      propertyId: property.id,
      inspectionDate: "2025-02-01",
    });
    await ctx.container.reports.generate(first.inspectionId);
    const better = [
      { categoryName: "Plumbing", subcategoryName: "Water Main Shut Off", score: 10 as const },
      {
        categoryName: "Plumbing",
        subcategoryName: "Pressure and Flow",
        score: 7 as const,
        notes: "Regulator replaced",
      },
      { categoryName: "Plumbing", subcategoryName: "Hot Water System", score: 10 as const, notes: "New tank" },
      { categoryName: "Roof", subcategoryName: "Gutters", score: 7 as const },
      { categoryName: "Roof", subcategoryName: "Flashings", score: 10 as const },
    ];
    await completedInspection(ctx.container, better, { propertyId: property.id, inspectionDate: "2026-02-01" });
    const { body } = await staff.agent.get(`/api/property-history/${property.id}`).expect(200);
    // Second: Plumbing (1000 + 1400 + 1500)/45 = 86.7, Roof 82.9 → (13×86.67 + 7×82.86)/20 = 85.3 → 85.
    expect(body.points).toEqual([
      { date: "2025-02-01", score: 57 },
      { date: "2026-02-01", score: 85 },
    ]);
    expect(body).toMatchObject({
      currentScore: 85,
      currentLabel: "Good",
      averageScore: 71,
      averageLabel: "Fair",
      trend: 28,
    });
    expect(body.changes.categories).toEqual([
      { categoryName: "Plumbing", previous: 43, latest: 87, change: 44 },
      { categoryName: "Exterior Envelope", previous: null, latest: null, change: null },
      { categoryName: "Roof", previous: 83, latest: 83, change: 0 },
    ]);
    expect(
      body.changes.items.map((i: { subcategoryName: string; previous: number | null; latest: number | null }) => [
        i.subcategoryName,
        i.previous,
        i.latest,
      ]),
    ).toEqual([
      ["Hot Water System", 1, 10],
      ["Pressure and Flow", 4, 7],
    ]);
    expect(body.inspections[0].inspectionDate).toBe("2026-02-01");
    expect(body.inspections[1].reportId).not.toBeNull();

    const page = await staff.agent.get(`/admin/property-history/${property.id}`).expect(200);
    expect(page.text).toContain("5 History Row");
    expect(page.text).toContain('data-testid="history-trend">+28<');
    expect(page.text).toContain('data-testid="history-average">71<');
    expect(page.text).toContain("What changed");
    expect(page.text).toContain('role="img" aria-label="Score over time: 2025-02-01: 57, 2026-02-01: 85"');
    await staff.agent.get("/admin/property-history/999999").expect(404);
    await staff.agent.get("/api/property-history/abc").expect(400);
  });
});
