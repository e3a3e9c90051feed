// The homeowner's other documents in the customer's language (docs/decisions.md#65): the report PDFs (full and
// summary) and the quote PDF, in French (their text extracted as billing-documents-fr.test.ts does), in English
// unchanged, and once in the pseudo locale, where every word printed must come from the catalogue.
import { writeFileSync } from "node:fs";
import { PDFParse } from "pdf-parse";
import { describe, expect, it, vi } from "vitest";
import type { RenderLocale } from "../../src/i18n/locales.js";
import { renderQuoteReportPdf } from "../../src/modules/quotes/quote-report.pdf.js";
import type { ClientQuoteItem } from "../../src/modules/quotes/quotes.constants.js";
import { renderReportPdf } from "../../src/modules/reports/pdf.js";
import { type SourceInspection, buildReportData } from "../../src/modules/reports/report-data.js";
import { SAMPLE_ENTRIES } from "../../seeds/sample-report.js";
import { expectAllMarked } from "../support/pseudo-documents.js";

/** A Gatineau home scored as the sample report is. */
function inspection(): SourceInspection {
  const byCategory = new Map<string, SourceInspection["categories"][number]>();
  SAMPLE_ENTRIES.forEach((entry, i) => {
    const category = byCategory.get(entry.categoryName) ?? { categoryName: entry.categoryName, entries: [] };
    category.entries.push({
      id: i + 1,
      categoryName: entry.categoryName,
      subcategoryName: entry.subcategoryName,
      score: entry.score,
      notes: entry.notes ?? null,
      urgent: entry.urgent ?? false,
      photoIds: [],
      photos: [],
      updatedAt: "2026-12-01T15:00:00.000Z",
    });
    byCategory.set(entry.categoryName, category);
  });
  return {
    id: 3,
    propertyId: 5,
    inspectorId: 1,
    inspectionDate: "2026-12-01",
    status: "completed",
    overallScore: null,
    notes: "A well-kept home overall.",
    completedAt: "2026-12-01T20:00:00.000Z",
    createdAt: "2026-11-20T15:00:00.000Z",
    property: {
      id: 5,
      address: "12 rue Laurier",
      city: "Gatineau",
      province: "QC",
      postalCode: "J8X 3V7",
      clientName: "Camille Tremblay",
      clientEmail: "camille@example.com",
    },
    categories: [...byCategory.values()],
  };
}

const data = buildReportData(inspection(), {
  reportId: 1042,
  generatedAt: "2026-12-01T21:00:00.000Z",
  inspectorName: "Morgan Ellis",
});
const reportPdf = (format: "full" | "summary", locale: RenderLocale) =>
  renderReportPdf(data, format, async () => null, locale);

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text.replace(/\s+/g, " ");
  } finally {
    await parser.destroy();
  }
}

/** Every string a document hands pdfkit's text(), while `render` runs. */
async function printedBy(render: () => Promise<unknown>): Promise<string[]> {
  const { default: PDFDocument } = await import("pdfkit");
  const printed: string[] = [];
  const text = vi.spyOn(PDFDocument.prototype, "text").mockImplementation(function (this: PDFKit.PDFDocument, ...args) {
    if (typeof args[0] === "string") printed.push(args[0]);
    return this;
  });
  try {
    await render();
  } finally {
    text.mockRestore();
  }
  return printed;
}

/** Writes a PDF for a look (pdftoppm) when SHOTS_DIR is set; nothing otherwise. */
const keep = (name: string, pdf: Buffer) => {
  if (process.env.SHOTS_DIR) writeFileSync(`${process.env.SHOTS_DIR}/${name}.pdf`, pdf);
};

describe("the report PDFs in French", () => {
  it("the full report: title, facts, band, priorities, categories, dates and pages in French", async () => {
    const pdf = await reportPdf("full", "fr-CA");
    keep("s41-report-full-fr", pdf);
    const text = await textOf(pdf);
    for (const phrase of [
      "Rapport santé de la propriété",
      "DATE D’INSPECTION",
      "1er décembre 2026",
      "nº 1042 · 1er décembre 2026",
      "SUR 100",
      "ÉTAT GÉNÉRAL",
      "points demandent des travaux : 2 Critique · Urgent",
      "Notes par catégorie",
      "Sous-sol, fondations, vide sanitaire et structure",
      "Recommandations prioritaires",
      "du plus grave au moins grave",
      "Détails de l’inspection",
      "pondération",
      "Table des matières",
      "Page 1 de",
      "Rapport nº 1042 · Haven",
      "RAPPORT SANTÉ HAVEN",
      "Intervention immédiate requise (1)",
      "Gouttières",
      "Détecteurs de fumée et de CO",
      "Toilettes (salle de bain 2)",
    ])
      expect(text).toContain(phrase);
    expect(text).not.toMatch(/Category scores|Priority recommendations|OUT OF 100|weight \d|Page \d+ of/);
  });

  it("the summary: its title and sections in French, a generated description said again in French", async () => {
    const pdf = await reportPdf("summary", "fr-CA");
    keep("s41-report-summary-fr", pdf);
    const text = await textOf(pdf);
    for (const phrase of ["Sommaire santé de la propriété", "Recommandations prioritaires", "Toiture · note 10/100"])
      expect(text).toContain(phrase);
    expect(text).not.toContain("Property Health Summary");
    // A recommendation without the inspector's notes shows its description, stored in English, said in French.
    const [first, ...rest] = data.recommendations;
    const bare = { ...data, recommendations: [{ ...first!, notes: "" }, ...rest] };
    const described = await textOf(await renderReportPdf(bare, "summary", async () => null, "fr-CA"));
    expect(described).toContain("Gouttières (Toiture) a obtenu 10/100 et demande une intervention immédiate.");
  });

  it("in English the report keeps its words", async () => {
    const text = await textOf(await reportPdf("full", "en-CA"));
    for (const phrase of [
      "Property Health Report",
      "December 1, 2026",
      "#1042 · December 1, 2026",
      "OVERALL CONDITION",
      "items need work: 2 Critical · Urgent",
      "Category scores",
      "Basement, Foundation, Crawlspace & Structure",
      "Immediate Action Required (1)",
      "Page 1 of",
      "Report #1042 · Haven",
    ])
      expect(text).toContain(phrase);
  });

  it("pseudo-locale: every word both report PDFs print comes from the catalogue, or is the inspection's own", async () => {
    const printed = await printedBy(async () => {
      await reportPdf("full", "en-XA");
      await reportPdf("summary", "en-XA");
    });
    const own = [
      "12 rue Laurier",
      "Gatineau",
      "QC",
      "J8X 3V7",
      "Camille Tremblay",
      "Morgan Ellis",
      "HAVEN",
      "A well-kept home overall.",
      ...SAMPLE_ENTRIES.flatMap((e) => [e.subcategoryName, e.notes ?? ""]).filter(Boolean),
    ];
    expect(printed.length).toBeGreaterThan(100);
    for (const line of printed) expectAllMarked(line.replace(/12 RUE LAURIER/g, ""), own, line);
  });
});

const quoteItem: ClientQuoteItem = {
  id: 4,
  taskTitle: "Replace the water heater",
  taskDescription: "Tank leaking at the base",
  priority: "immediate",
  quotedAmount: "$650",
  quotedCents: 65000,
  status: "quoted",
  scope: "Remove the old tank, install a 40-gallon one",
  validUntil: "2027-01-01",
  expired: false,
  totals: {
    subtotalCents: 65000,
    taxLines: [
      { kind: "GST", label: "GST 5%", percent: 5, amountCents: 3250 },
      { kind: "QST", label: "QST 9.975%", percent: 9.975, amountCents: 6484 },
    ],
    taxCents: 9734,
    totalCents: 74734,
  },
  afterYes:
    "When you accept, our office books the work with you within 2 business days; one of our technicians comes at the time you agree.",
};
const quotePdf = (locale: RenderLocale) =>
  renderQuoteReportPdf({
    propertyAddress: "12 rue Laurier, Gatineau",
    clientName: "Camille Tremblay",
    createdAt: "2026-12-01T15:00:00.000Z",
    items: [quoteItem],
    totalCents: 65000,
    totals: { subtotalCents: 65000, taxCents: 9734, totalCents: 74734 },
    link: "https://haven.example.com/quote-report/tok7",
    locale,
  });

describe("the quote PDF in French", () => {
  it("its title, rows, taxes, dates, priority and link in French", async () => {
    const pdf = await quotePdf("fr-CA");
    keep("s41-quote-fr", pdf);
    const text = await textOf(pdf);
    for (const phrase of [
      "Rapport de soumission Haven",
      "Préparée pour Camille Tremblay le 1er décembre 2026",
      "Priorité : immédiate",
      "Travaux prévus",
      "Prix avant taxes",
      "TPS 5 %",
      "TVQ 9,975 %",
      "747,34 $",
      "Valide jusqu’au",
      "1er janvier 2027",
      "un de nos techniciens viendra au moment convenu",
      "Total taxes comprises",
      "650,00 $ avant taxes + 97,34 $ de taxes",
      "https://haven.example.com/fr/quote-report/tok7",
    ])
      expect(text).toContain(phrase);
  });

  it("in English it keeps its words", async () => {
    const text = await textOf(await quotePdf("en-CA"));
    for (const phrase of [
      "Haven Quote Report",
      "Prepared for Camille Tremblay on December 1, 2026",
      "Priority: Immediate",
      "$650.00 before tax + $97.34 tax",
      "https://haven.example.com/quote-report/tok7",
    ])
      expect(text).toContain(phrase);
  });

  it("pseudo-locale: every word the quote PDF prints comes from the catalogue, or is the quote's own", async () => {
    const printed = await printedBy(() => quotePdf("en-XA"));
    const own = [
      "12 rue Laurier, Gatineau",
      "Camille Tremblay",
      "Replace the water heater",
      "Tank leaking at the base",
      "Remove the old tank, install a 40-gallon one",
      "https://haven.example.com/quote-report/tok7",
      "$650",
    ];
    expect(printed.length).toBeGreaterThan(10);
    for (const line of printed) expectAllMarked(line, own, line);
  });
});
