import { createRequire } from "node:module";
import type { RenderLocale } from "../../i18n/locales.js";
import { loadPdfLibraries } from "../reports/index.js";
import type { ClientQuoteItem } from "./quotes.constants.js";
import { quoteRows, quoteWords } from "./quotes.mail.js";

export interface QuoteReportDocument {
  propertyAddress: string;
  clientName: string;
  createdAt: string;
  items: ClientQuoteItem[];
  /** Before tax (the spec's total). */
  totalCents: number | null;
  /** With tax over every item (decisions.md#42); null or absent unless every item has one dollar figure. */
  totals?: { subtotalCents: number; taxCents: number; totalCents: number } | null;
  link: string;
  /** "Haven Quote Report" for a property's report; "Haven Quote" for one quote just made. */
  kind?: "report" | "one";
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

// Inter, embedded: pdfkit's built-in Helvetica writes only WinAnsi, so a name like "Łucja O’Brien" came out garbled.
const require = createRequire(import.meta.url);
const INTER = require.resolve("@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf");
const INTER_BOLD = require.resolve("@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf");

const GREEN = "#0f2e24";
const GOLD = "#b08d3c";

/**
 * The quote report as a PDF (pdfkit, built-in fonts): each quoted item as a quote document (what will be done, the
 * price before tax, each tax line, the total, validity and what happens after yes; docs/decisions.md#42), and the total.
 */
export async function renderQuoteReportPdf(doc: QuoteReportDocument): Promise<Buffer> {
  const { PDFDocument } = await loadPdfLibraries();
  const words = quoteWords(doc.locale);
  const { t, money } = words;
  const title = t(doc.kind === "one" ? "quote-mail.pdf.title.one" : "quote-mail.pdf.title.report");
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({
      size: "LETTER",
      margin: 54,
      info: { Title: title, Author: "Haven" },
    });
    const chunks: Buffer[] = [];
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    pdf.registerFont("Inter", INTER);
    pdf.registerFont("Inter-Bold", INTER_BOLD);

    pdf.fillColor(GREEN).font("Inter-Bold").fontSize(22).text(title);
    pdf.moveDown(0.3).font("Inter").fontSize(11).fillColor("#333333");
    pdf.text(doc.propertyAddress);
    pdf.text(t("quote-mail.pdf.preparedFor", { name: doc.clientName, date: words.date(doc.createdAt) }));
    pdf.moveDown(1);

    const left = pdf.page.margins.left;
    const width = pdf.page.width - left - pdf.page.margins.right;
    doc.items.forEach((item, index) => {
      if (pdf.y > pdf.page.height - 140) pdf.addPage();
      const top = pdf.y;
      pdf
        .fillColor(GREEN)
        .font("Inter-Bold")
        .fontSize(12)
        .text(`${index + 1}. ${item.taskTitle}`, left, top, { width: width - 130 });
      pdf
        .fillColor(GOLD)
        .font("Inter-Bold")
        .fontSize(12)
        .text(item.totals ? money(item.totals.totalCents) : (item.quotedAmount ?? ""), left + width - 120, top, {
          width: 120,
          align: "right",
        });
      pdf.x = left;
      if (item.taskDescription)
        pdf
          .fillColor("#333333")
          .font("Inter")
          .fontSize(10)
          .text(item.taskDescription, left, pdf.y, { width: width - 130 });
      pdf
        .fillColor("#666666")
        .font("Inter")
        .fontSize(9)
        .text(t("quote-mail.pdf.priority", { priority: item.priority }), left);
      pdf.moveDown(0.3);
      for (const [label, value] of quoteRows(item, words)) {
        if (pdf.y > pdf.page.height - 90) pdf.addPage();
        const y = pdf.y;
        pdf.fillColor(GREEN).font("Inter-Bold").fontSize(10).text(label, left, y, { width: 130 });
        const labelBottom = pdf.y;
        pdf
          .fillColor("#333333")
          .font("Inter")
          .fontSize(10)
          .text(value, left + 140, y, { width: width - 140 });
        pdf.y = Math.max(pdf.y, labelBottom);
        pdf.x = left;
      }
      pdf.moveDown(0.8);
    });

    pdf
      .moveTo(left, pdf.y)
      .lineTo(left + width, pdf.y)
      .strokeColor(GOLD)
      .stroke();
    pdf.moveDown(0.5);
    const totalY = pdf.y;
    const totals = doc.totals ?? null;
    pdf
      .fillColor(GREEN)
      .font("Inter-Bold")
      .fontSize(14)
      .text(t(totals ? "quotes.report.totalWithTax" : "quotes.total"), left, totalY);
    pdf.text(
      totals
        ? money(totals.totalCents)
        : doc.totalCents === null
          ? t("quotes.report.seeItems")
          : words.figure(doc.totalCents),
      left + width - 160,
      totalY,
      { width: 160, align: "right" },
    );
    if (totals) {
      pdf.x = left;
      pdf
        .fillColor("#333333")
        .font("Inter")
        .fontSize(10)
        .text(t("quote-mail.pdf.split", { subtotal: money(totals.subtotalCents), tax: money(totals.taxCents) }), left);
    }
    pdf.x = left;
    pdf.moveDown(1.5);
    pdf.fillColor("#333333").font("Inter").fontSize(10).text(t("quote-mail.pdf.answer"), left);
    const url = new URL(doc.link);
    const link = words.page(url.origin, `${url.pathname}${url.search}`);
    pdf.fillColor(GREEN).text(link, { link, underline: true });
    pdf.end();
  });
}
