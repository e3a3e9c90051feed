// Shared set-up of the sharing and quotes tests: the worker's jobs and a real report (SMTP: tests/support/smtp.ts).
import { PDFParse } from "pdf-parse";
import type supertest from "supertest";
import type { EntryInput } from "../../src/modules/inspections/inspections.schemas.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { type Smtp, startSmtp } from "../support/smtp.js";

export { type Smtp, startSmtp };
import { completedInspection, photo } from "./reports-fixtures.js";

export { runJobs } from "../support/jobs.js";

export const jobCount = async (ctx: TestContext, task: string) =>
  Number(
    (await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = ?", [task])).rows[0]
      .n,
  );

export async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

let photoSeed = 200;

/** A completed inspection with three findings (one with five photos) and its generated report. */
export async function sharedReportFixture(ctx: TestContext, address?: string) {
  const photos = [];
  for (let i = 0; i < 5; i++) photos.push(await photo(ctx.container, photoSeed++));
  const entries: EntryInput[] = [
    { categoryName: "Plumbing", subcategoryName: "Water Main Shut Off", score: 10 },
    {
      categoryName: "Plumbing",
      subcategoryName: "Hot Water System",
      score: 1,
      notes: "Tank leaking at the base",
      photoIds: photos,
    },
    { categoryName: "Roof", subcategoryName: "Gutters", score: 4, notes: "Gutters clogged on the north side" },
    {
      categoryName: "Electrical",
      subcategoryName: "Smoke / CO Detectors",
      score: 7,
      notes: "No CO detector upstairs",
      urgent: true,
    },
  ];
  const { propertyId, inspectionId } = await completedInspection(ctx.container, entries, { address });
  const report = await ctx.container.reports.generate(inspectionId);
  const taskIds = (report.reportData.recommendations as { id: number }[]).map((r) => r.id);
  return { report, propertyId, inspectionId, taskIds, photos };
}

/** Shares a report as staff; returns the link and its token. */
export async function shareReport(
  staff: ReturnType<typeof supertest.agent>,
  reportId: number,
  clientEmail = "client@example.com",
) {
  const res = await staff.post(`/api/reports/${reportId}/share`).send({ clientEmail }).expect(201);
  const link = res.body.reportLink as string;
  return { link, token: link.split("/client-report/")[1]!, body: res.body };
}

/** The sharing and quotes tests' app: a local SMTP server for its mail, and a signed-in staff agent. */
export async function sharingTestApp(): Promise<{
  ctx: TestContext;
  smtp: Smtp;
  staff: Awaited<ReturnType<typeof signInStaff>>["agent"];
}> {
  const smtp = await startSmtp();
  const ctx = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_URL: "https://haven.example" });
  return { ctx, smtp, staff: (await signInStaff(ctx)).agent };
}
