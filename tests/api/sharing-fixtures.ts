// Shared set-up of the sharing and quotes tests: a local SMTP server, the worker's jobs, a real report.
import type { AddressInfo } from "node:net";
import { Logger, runOnce } from "graphile-worker";
import { type ParsedMail, simpleParser } from "mailparser";
import { PDFParse } from "pdf-parse";
import { SMTPServer } from "smtp-server";
import type supertest from "supertest";
import { taskList } from "../../src/jobs.js";
import type { EntryInput } from "../../src/modules/inspections/inspections.schemas.js";
import type { TestContext } from "../support/context.js";
import { completedInspection, photo } from "./reports-fixtures.js";

export interface Smtp {
  url: string;
  received: Buffer[];
  mails(): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A local SMTP server that keeps every message it receives. */
export async function startSmtp(): Promise<Smtp> {
  const received: Buffer[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mails: () => Promise.all(received.map((raw) => simpleParser(raw))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const silent = new Logger(() => () => undefined);

/** Runs every queued job once with the app's real task list, as the worker would. */
export const runJobs = (ctx: TestContext) => runOnce({ connectionString: ctx.url, taskList: taskList(ctx.container), logger: silent });

export const jobCount = async (ctx: TestContext, task: string) =>
  Number((await ctx.db.raw("select count(*)::int as n from graphile_worker.jobs where task_identifier = ?", [task])).rows[0].n);

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
    { categoryName: "Plumbing", subcategoryName: "Hot Water System", score: 1, notes: "Tank leaking at the base", photoIds: photos },
    { categoryName: "Roof", subcategoryName: "Gutters", score: 4, notes: "Gutters clogged on the north side" },
    { categoryName: "Electrical", subcategoryName: "Smoke / CO Detectors", score: 7, notes: "No CO detector upstairs", urgent: true },
  ];
  const { propertyId, inspectionId } = await completedInspection(ctx.container, entries, { address });
  const report = await ctx.container.reports.generate(inspectionId);
  const taskIds = (report.reportData.recommendations as { id: number }[]).map((r) => r.id);
  return { report, propertyId, inspectionId, taskIds, photos };
}

/** Shares a report as staff; returns the link and its token. */
export async function shareReport(staff: ReturnType<typeof supertest.agent>, reportId: number, clientEmail = "client@example.com") {
  const res = await staff.post(`/api/reports/${reportId}/share`).send({ clientEmail }).expect(201);
  const link = res.body.reportLink as string;
  return { link, token: link.split("/client-report/")[1]!, body: res.body };
}
