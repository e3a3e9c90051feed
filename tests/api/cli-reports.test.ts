import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestContext, createTestContext } from "../support/context.js";
import { completedInspection, quickEntries } from "./reports-fixtures.js";
import { type CliResult, runHavenHere } from "../support/cli.js";

let ctx: TestContext;
let dir: string;
// Each run starts a real Node process on a shared, busy machine.
const SLOW = 180_000;
beforeAll(async () => {
  ctx = await createTestContext();
  dir = mkdtempSync(path.join(os.tmpdir(), "haven-cli-reports-"));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ctx.close();
});

/** Runs the real `haven` bin against this test's database. */
const haven = (args: string[]) => runHavenHere(ctx.url, args);

const noStack = (r: CliResult) => expect(r.stderr + r.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);

const pages = async (file: string) => {
  const parser = new PDFParse({ data: new Uint8Array(readFileSync(file)) });
  try {
    const result = await parser.getText();
    return { pages: result.total, text: result.text };
  } finally {
    await parser.destroy();
  }
};

describe("haven reports", () => {
  it(
    "--help works on every command",
    async () => {
      for (const args of [["reports"], ["reports", "list"], ["reports", "generate"], ["reports", "pdf"]]) {
        const r = await haven([...args, "--help"]);
        expect(r.code, args.join(" ")).toBe(0);
        expect(r.stdout).toContain("Usage: haven reports");
      }
    },
    SLOW,
  );

  it(
    "generate --inspection, then --all-missing, then list and list --json",
    async () => {
      const one = await completedInspection(ctx.container, quickEntries(), { address: "1 Cli Crescent" });
      const two = await completedInspection(ctx.container, quickEntries(4), { address: "2 Cli Crescent" });
      const three = await completedInspection(ctx.container, quickEntries(7), { address: "3 Cli Crescent" });

      const single = await haven(["reports", "generate", "--inspection", String(one.inspectionId)]);
      expect(single.code, single.stderr).toBe(0);
      expect(single.stdout).toMatch(
        new RegExp(
          `Generated report #\\d+ for inspection #${one.inspectionId} \\(1 Cli Crescent, Québec, QC G1R 4P5\\)`,
        ),
      );

      const again = await haven(["reports", "generate", "--inspection", String(one.inspectionId)]);
      expect(again.code).toBe(1);
      expect(again.stderr.trim()).toBe(
        "haven: This inspection already has a report: delete it first to generate it again",
      );

      const missing = await haven(["reports", "generate", "--all-missing"]);
      expect(missing.code, missing.stderr).toBe(0);
      expect(missing.stdout).toContain("Generated 2 report(s).");
      for (const { inspectionId } of [two, three])
        expect(await ctx.container.reports.findByInspection(inspectionId)).not.toBeNull();
      expect((await haven(["reports", "generate", "--all-missing"])).stdout).toContain("Nothing to generate");

      const list = await haven(["reports", "list"]);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain("3 Cli Crescent, Québec");
      expect(list.stdout).toContain("3 of 3 report(s).");
      const json = JSON.parse((await haven(["reports", "list", "--json"])).stdout);
      expect(json.map((r: { reportData: { property: { address: string } } }) => r.reportData.property.address)).toEqual(
        ["3 Cli Crescent", "2 Cli Crescent", "1 Cli Crescent"],
      );
      expect(json[0].reportData.issues).toEqual(json[0].reportData.recommendations);
    },
    SLOW,
  );

  it(
    "pdf --report writes the full or the summary PDF; --all --out-dir writes every one",
    async () => {
      const [report] = (await ctx.container.reports.list({ limit: 1, offset: 0 })).rows;
      const full = path.join(dir, "full.pdf");
      const summary = path.join(dir, "summary.pdf");
      const r1 = await haven(["reports", "pdf", "--report", String(report!.id), "--out", full]);
      expect(r1.code, r1.stderr).toBe(0);
      expect(r1.stdout).toContain(`Wrote ${full} (full,`);
      const r2 = await haven([
        "reports",
        "pdf",
        "--report",
        String(report!.id),
        "--out",
        summary,
        "--format",
        "summary",
      ]);
      expect(r2.code, r2.stderr).toBe(0);
      const fullPdf = await pages(full);
      const summaryPdf = await pages(summary);
      expect(fullPdf.pages).toBeGreaterThan(summaryPdf.pages);
      expect(summaryPdf.pages).toBeLessThanOrEqual(2);
      expect(summaryPdf.text).toContain(report!.reportData.property.address);

      const out = path.join(dir, "all");
      const all = await haven(["reports", "pdf", "--all", "--out-dir", out, "--format", "summary"]);
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toContain("Wrote 3 PDF(s) (summary)");
      expect(readdirSync(out).sort()).toHaveLength(3);
      expect(readdirSync(out).every((f) => /^report-\d+-summary\.pdf$/.test(f))).toBe(true);
    },
    SLOW,
  );

  it(
    "bad arguments: one clear line and a non-zero exit, never a stack",
    async () => {
      const cases: [string[], RegExp][] = [
        [["reports", "generate"], /^haven: Give either --inspection <id> or --all-missing$/],
        [
          ["reports", "generate", "--inspection", "5", "--all-missing"],
          /^haven: Give either --inspection <id> or --all-missing$/,
        ],
        [["reports", "generate", "--inspection", "abc"], /Inspection must be a positive whole number/],
        [["reports", "generate", "--inspection", "999999"], /^haven: Inspection not found$/],
        [["reports", "pdf", "--report", "1"], /^haven: --out <file> is required with --report$/],
        [["reports", "pdf", "--all"], /^haven: --out-dir <dir> is required with --all$/],
        [["reports", "pdf"], /^haven: Give either --report <id> --out <file> or --all --out-dir <dir>$/],
        [
          ["reports", "pdf", "--report", "1", "--out", "x.pdf", "--format", "poster"],
          /Format must be one of full, summary/,
        ],
        [["reports", "pdf", "--report", "999999", "--out", path.join(dir, "none.pdf")], /^haven: Report not found$/],
        [["reports", "list", "--limit", "0"], /Limit must be a whole number from 1 to 500/],
      ];
      for (const [args, message] of cases) {
        const r = await haven(args);
        expect(r.code, args.join(" ")).not.toBe(0);
        expect(r.stderr.trim().split("\n")[0], args.join(" ")).toMatch(message);
        noStack(r);
      }
    },
    SLOW,
  );
});
