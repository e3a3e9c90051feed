// A refund as its credit note, a PDF (docs/decisions.md#52; pdfkit's built-in fonts, the invoice PDF's colours): what
// the CRA and Revenu Québec ask of a credit note that reduces the tax of an invoice already issued: the business's
// name and GST/HST number (and its QST number when QST is refunded, docs/decisions.md#51), the credit note's own
// number and date, the invoice it credits, the buyer, the amount before tax, each tax refunded, the total and the
// reason.
import { cad } from "./invoice-pdf.js";
import type { Refund } from "./refunds.repository.js";
import type { BusinessIdentity, Invoice } from "./subscriptions.constants.js";

export interface CreditNoteDocument {
  refund: Refund;
  /** The invoice it credits. */
  invoice: Invoice;
  business: BusinessIdentity;
  buyer: { name: string | null; email: string | null; address: string | null };
  /** What the invoice billed: the plan and its period, or the quoted work. */
  description: string;
  timeZone: string;
}

const GREEN = "#0f2e24";
const GOLD = "#b08d3c";
const INK = "#333333";
const MUTED = "#666666";

export async function renderCreditNotePdf(doc: CreditNoteDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const { refund, invoice, business, buyer } = doc;
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString("en-CA", {
      timeZone: doc.timeZone,
      year: "numeric",
      month: "long",
      day: "numeric",
    });
  const refundsQst = refund.taxLines.some((l) => l.kind === "QST" && l.amountCents !== 0);
  const title = refund.number ? `Credit note ${refund.number}` : "Credit note";
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: title, Author: business.legalName } });
    const chunks: Buffer[] = [];
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
    const left = pdf.page.margins.left;
    const width = pdf.page.width - left - pdf.page.margins.right;
    const half = width / 2;

    // The seller, left; the credit note's number and date and the invoice it credits, right.
    const top = pdf.y;
    pdf
      .fillColor(GREEN)
      .font("Helvetica-Bold")
      .fontSize(20)
      .text(business.legalName, left, top, { width: half + 40 });
    pdf
      .font("Helvetica")
      .fontSize(10)
      .fillColor(INK)
      .text(business.address, { width: half + 20 });
    pdf.text(
      business.gstHstNumber ? `GST/HST registration no. ${business.gstHstNumber}` : "Not registered for GST/HST",
      { width: half + 20 },
    );
    if (refundsQst && business.qstNumber) pdf.text(`QST registration no. ${business.qstNumber}`, { width: half + 20 });
    const afterSeller = pdf.y;
    pdf
      .fillColor(GOLD)
      .font("Helvetica-Bold")
      .fontSize(16)
      .text("CREDIT NOTE", left + half, top, {
        width: half,
        align: "right",
      });
    pdf.fillColor(INK).font("Helvetica").fontSize(10);
    const facts: [string, string][] = [
      ["Credit note no.", refund.number ?? "Not numbered"],
      ["Date", date(refund.createdAt)],
      ["Credits invoice no.", invoice.number ?? `#${invoice.id}`],
      ["Invoice paid", invoice.paidAt ? date(invoice.paidAt) : "not paid"],
    ];
    for (const [label, value] of facts)
      pdf.text(`${label}: ${value}`, left + half, pdf.y, { width: half, align: "right" });
    pdf.y = Math.max(afterSeller, pdf.y) + 18;

    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("CREDITED TO", left);
    pdf
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(11)
      .text(buyer.name ?? buyer.email ?? "Customer", left);
    pdf.fontSize(10);
    if (buyer.name && buyer.email) pdf.text(buyer.email, left);
    if (buyer.address) pdf.text(`Home served: ${buyer.address}`, left);
    pdf.moveDown(1.2);

    const row = (label: string, value: string, options: { bold?: boolean; size?: number; color?: string } = {}) => {
      const y = pdf.y;
      pdf
        .fillColor(options.color ?? INK)
        .font(options.bold ? "Helvetica-Bold" : "Helvetica")
        .fontSize(options.size ?? 10)
        .text(label, left, y, { width: width - 130 });
      const after = pdf.y;
      pdf.text(value, left + width - 120, y, { width: 120, align: "right" });
      pdf.x = left;
      pdf.y = Math.max(after, pdf.y) + 4;
    };
    const rule = (color = GOLD) => {
      pdf
        .moveTo(left, pdf.y)
        .lineTo(left + width, pdf.y)
        .strokeColor(color)
        .lineWidth(0.8)
        .stroke();
      pdf.y += 6;
    };
    pdf
      .fillColor(MUTED)
      .font("Helvetica-Bold")
      .fontSize(9)
      .text("DESCRIPTION", left, pdf.y, { width: width - 130 });
    pdf.moveUp().text("AMOUNT (CAD)", left + width - 120, pdf.y, { width: 120, align: "right" });
    pdf.x = left;
    rule();
    const taxCents = refund.taxLines.reduce((sum, l) => sum + l.amountCents, 0);
    row(
      `Refund of invoice ${invoice.number ?? `#${invoice.id}`}: ${doc.description}`,
      cad(refund.amountCents - taxCents),
    );
    pdf.moveDown(0.4);
    rule("#dddddd");
    row("Amount before tax", cad(refund.amountCents - taxCents));
    if (!refund.taxLines.length) row("Tax", cad(0));
    for (const line of refund.taxLines)
      row(`${line.label}${invoice.taxProvince ? ` (${invoice.taxProvince})` : ""} refunded`, cad(line.amountCents));
    rule();
    row("Total refunded", cad(refund.amountCents), { bold: true, size: 13, color: GREEN });

    pdf.moveDown(1.2);
    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("REASON", left);
    pdf
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(refund.reason ?? "Refunded", left, pdf.y, { width });
    pdf.moveDown(1);
    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("TERMS", left);
    pdf
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(
        `This credit note reduces invoice ${invoice.number ?? `#${invoice.id}`} by ${cad(refund.amountCents)}, of which ${cad(taxCents)} is tax, refunded to the card that paid it. Prices in Canadian dollars.`,
        left,
        pdf.y,
        { width },
      );
    pdf.end();
  });
}
