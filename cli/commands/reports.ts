import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import cliProgress from "cli-progress";
import { type Command, InvalidArgumentError } from "commander";
import { ValidationError } from "../../src/http/errors.js";
import { addressLine } from "../../src/shared/address.js";
import { PDF_FORMATS, type PdfFormat } from "../../src/modules/reports/reports.schemas.js";
import { printJson, withContainer } from "../context.js";

const MAX_ID = 2_147_483_647;

const positiveId = (label: string) => (value: string) => {
  const id = Number(value);
  if (!/^\d+$/.test(value.trim()) || id < 1 || id > MAX_ID)
    throw new InvalidArgumentError(`${label} must be a positive whole number`);
  return id;
};

const pdfFormat = (value: string): PdfFormat => {
  if (!(PDF_FORMATS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Format must be one of ${PDF_FORMATS.join(", ")}`);
  return value as PdfFormat;
};

/** A bar on stderr (shown only on a terminal): --json output and pipes stay clean. */
const progressBar = (what: string) =>
  new cliProgress.SingleBar(
    { format: `${what} {bar} {value}/{total}`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );

export function registerReports(program: Command) {
  const reports = program
    .command("reports")
    .description("Health reports: list, generate from completed inspections, export PDFs");

  reports
    .command("list")
    .description("List reports, newest first")
    .option(
      "--limit <n>",
      "how many (1 to 500)",
      (v) => {
        const n = Number(v);
        if (!/^\d+$/.test(v.trim()) || n < 1 || n > 500)
          throw new InvalidArgumentError("Limit must be a whole number from 1 to 500");
        return n;
      },
      100,
    )
    .option("--search <text>", "only reports whose address, city or client matches")
    .option("--json", "print the reports as JSON (with their snapshots)")
    .addHelpText("after", "\nExamples:\n  haven reports list\n  haven reports list --search Elm --json")
    .action((options: { limit: number; search?: string; json?: boolean }) =>
      withContainer(async (container) => {
        if (options.json) {
          const { rows } = await container.reports.list({ limit: options.limit, offset: 0, q: options.search });
          return printJson(rows);
        }
        const { rows, total } = await container.reports.listItems({
          limit: options.limit,
          offset: 0,
          q: options.search,
        });
        if (!rows.length) return console.log("No reports.");
        for (const r of rows) {
          const score = r.overallScore === null ? "  —" : String(r.overallScore).padStart(3);
          console.log(
            `  #${String(r.id).padEnd(6)} ${r.createdAt.slice(0, 10)}  score ${score}  ${String(r.totalIssues).padStart(3)} issue(s)  ${r.address}${r.city ? `, ${r.city}` : ""}`,
          );
        }
        console.log(`${rows.length} of ${total} report(s).`);
      }),
    );

  reports
    .command("generate")
    .description("Generate the report of a completed inspection, or of every completed inspection without one")
    .option("--inspection <id>", "the inspection's id", positiveId("Inspection"))
    .option("--all-missing", "every completed inspection that has no report yet")
    .option("--json", "print the result as JSON")
    .addHelpText(
      "after",
      "\nExamples:\n  haven reports generate --inspection 42\n  haven reports generate --all-missing",
    )
    .action((options: { inspection?: number; allMissing?: boolean; json?: boolean }) => {
      if ((options.inspection === undefined) === !options.allMissing)
        throw new ValidationError("Give either --inspection <id> or --all-missing");
      return withContainer(async (container) => {
        if (options.inspection !== undefined) {
          const report = await container.reports.generate(options.inspection);
          if (options.json) return printJson(report);
          const d = report.reportData;
          return console.log(
            `Generated report #${report.id} for inspection #${report.inspectionId} (${addressLine(d.property)}): score ${d.overallScore ?? "—"}, ${d.summary.totalIssues} recommendation(s).`,
          );
        }
        const ids = await container.reports.inspectionsWithoutReport();
        const bar = progressBar("Generating");
        bar.start(ids.length, 0);
        const made: { inspectionId: number; reportId: number }[] = [];
        const failed: { inspectionId: number; message: string }[] = [];
        for (const inspectionId of ids) {
          try {
            made.push({ inspectionId, reportId: (await container.reports.generate(inspectionId)).id });
          } catch (error) {
            // Another process may have generated it meanwhile: report it and go on.
            failed.push({ inspectionId, message: (error as Error).message });
          }
          bar.increment();
        }
        bar.stop();
        if (options.json) return printJson({ generated: made, failed });
        for (const f of failed) console.log(`  inspection #${f.inspectionId}: ${f.message}`);
        console.log(
          ids.length
            ? `Generated ${made.length} report(s)${failed.length ? `; ${failed.length} failed` : ""}.`
            : "Nothing to generate: every completed inspection has a report.",
        );
        if (failed.length) process.exitCode = 1;
      });
    });

  reports
    .command("pdf")
    .description("Write a report's PDF (full or summary), or every report's into a folder")
    .option("--report <id>", "the report's id", positiveId("Report"))
    .option("--out <file>", "the PDF file to write (with --report)")
    .option("--all", "every report")
    .option("--out-dir <dir>", "the folder to write into (with --all)")
    .option("--format <format>", "full or summary", pdfFormat, "full" as PdfFormat)
    .addHelpText(
      "after",
      "\nExamples:\n  haven reports pdf --report 7 --out report-7.pdf\n  haven reports pdf --report 7 --out summary.pdf --format summary\n  haven reports pdf --all --out-dir ./pdfs",
    )
    .action((options: { report?: number; out?: string; all?: boolean; outDir?: string; format: PdfFormat }) => {
      if ((options.report === undefined) === !options.all)
        throw new ValidationError("Give either --report <id> --out <file> or --all --out-dir <dir>");
      if (options.report !== undefined && !options.out)
        throw new ValidationError("--out <file> is required with --report");
      if (options.all && !options.outDir) throw new ValidationError("--out-dir <dir> is required with --all");
      if (options.report !== undefined && options.outDir)
        throw new ValidationError("--out-dir goes with --all; use --out with --report");
      if (options.all && options.out) throw new ValidationError("--out goes with --report; use --out-dir with --all");
      return withContainer(async (container) => {
        if (options.report !== undefined) {
          const pdf = await container.reports.pdf(options.report, options.format);
          await writeFile(options.out!, pdf);
          return console.log(`Wrote ${options.out} (${options.format}, ${(pdf.length / 1024).toFixed(0)} KB).`);
        }
        await mkdir(options.outDir!, { recursive: true });
        const ids = await container.reports.allIds();
        const bar = progressBar("Rendering");
        bar.start(ids.length, 0);
        for (const id of ids) {
          const pdf = await container.reports.pdf(id, options.format);
          await writeFile(
            path.join(options.outDir!, `report-${id}${options.format === "summary" ? "-summary" : ""}.pdf`),
            pdf,
          );
          bar.increment();
        }
        bar.stop();
        console.log(`Wrote ${ids.length} PDF(s) (${options.format}) to ${options.outDir}.`);
      });
    });
}
