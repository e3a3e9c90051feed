// One word for one thing (docs/decisions.md#41), read from the source as text: a recommendation's priority has one
// spelling ('Critical · Urgent'), never upper-cased or spelled with the staff enumeration; a reader never sees the
// summary panel's 'Marginal'; the report PDF names the overall band with the client's labels.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PDFParse } from "pdf-parse";
import { describe, expect, it } from "vitest";
import { renderQuoteReportPdf } from "../../src/modules/quotes/quote-report.pdf.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Every source and view file a reader's text can come from; tests excluded. */
function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|tsx|ejs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [rel] : [];
  });
}

const files = ["src", "views", "islands"].flatMap(sources).map((file) => ({
  file,
  text: readFileSync(path.join(ROOT, file), "utf8"),
}));

const hits = (pattern: RegExp, except: string[] = []) =>
  files.filter((f) => !except.includes(f.file) && pattern.test(f.text)).map((f) => f.file);

describe("one spelling for priorities", () => {
  it("never spells urgency in capitals", () => {
    expect(hits(/\bURGENT\b|\bCRITICAL\b|\b30 DAYS\b|\b60 DAYS\b/)).toEqual([]);
  });

  it("never pairs the staff enumeration with the urgency ('High · Urgent')", () => {
    expect(hits(/\b(High|Medium|Low) · (Urgent|30 Days|60 Days)/)).toEqual([]);
  });

  it("never upper-cases a priority or an urgency in code", () => {
    expect(hits(/(priority|urgency|PriorityLabel\([^)]*\))\.toUpperCase\(\)/i)).toEqual([]);
  });

  it("never upper-cases the priority chips with a class", () => {
    const chips = files.filter((f) => /clientPriorityLabel\(/.test(f.text));
    expect(chips.length).toBeGreaterThan(0);
    for (const { file, text } of chips)
      for (const line of text.split("\n").filter((l) => /clientPriorityLabel\(r\.priority\)/.test(l)))
        expect(`${file}: ${line}`).not.toMatch(/\buppercase\b/);
  });
});

describe("one word for a score", () => {
  it("shows 'Marginal' nowhere: it only keys the snapshot's counts", () => {
    const keysOnly = [
      "src/modules/inspections/bands.ts",
      "src/modules/reports/report-data.ts",
      "src/modules/reports/reports.openapi.ts",
      "src/modules/reports/pdf.ts",
    ];
    expect(hits(/Marginal/, keysOnly)).toEqual([]);
    expect(readFileSync(path.join(ROOT, "src/modules/reports/pdf.ts"), "utf8")).not.toMatch(/`[^`]*\$\{name\}/);
  });

  it("the report PDF names the overall band for the homeowner, never with the admin labels", () => {
    const pdf = files.filter((f) => /^src\/modules\/(reports\/pdf|quotes\/quote-report)/.test(f.file));
    expect(pdf.length).toBeGreaterThan(1);
    for (const { file, text } of pdf) expect(`${file}: ${/adminLabel/.test(text)}`).toBe(`${file}: false`);
  });
});

describe("one count of the booking's steps", () => {
  it("no page counts the booking's steps: the stepper shows them (three, or the rest after payment)", () => {
    const booking = files.filter((f) => /^(views\/bookings|src\/modules\/bookings|views\/pages)\//.test(f.file));
    expect(booking.length).toBeGreaterThan(2);
    const counted = booking.filter((f) => /booking in \w+ steps|\w+ short steps/i.test(f.text)).map((f) => f.file);
    expect(counted).toEqual([]);
  });
});

describe("the quote PDF sent to the homeowner", () => {
  it("spells a quote's priority as the staff list does, not the raw value", async () => {
    const pdf = await renderQuoteReportPdf({
      propertyAddress: "12 Elgin Street",
      clientName: "Avery Tremblay",
      createdAt: "2026-02-03T10:00:00.000Z",
      totalCents: 12300,
      link: "https://haven.test/quote-report/abc",
      items: [
        { taskTitle: "Clean gutters", taskDescription: "Sagging", quotedAmount: "$123.00", priority: "immediate" },
      ] as never,
    });
    const parser = new PDFParse({ data: new Uint8Array(pdf) });
    try {
      const { text } = await parser.getText();
      expect(text).toContain("Priority: Immediate");
      expect(text).not.toContain("Priority: immediate");
    } finally {
      await parser.destroy();
    }
  });
});
