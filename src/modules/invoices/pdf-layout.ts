// What the invoice and credit-note PDFs share (docs/decisions.md#33, #52; pdfkit's built-in fonts, the quote report's
// colours): the document collected into a Buffer, the seller's block with its registration numbers, the buyer, the
// amount rows and their rules.
import type { Translator } from "../../i18n/index.js";
import type { BusinessIdentity } from "./invoices.constants.js";

export const GREEN = "#0f2e24";
export const GOLD = "#b08d3c";
export const INK = "#333333";
export const MUTED = "#666666";

export type Pdf = PDFKit.PDFDocument;

/** A LETTER page document, and its bytes once `pdf.end()` is called. */
export async function startPdf(title: string, author: string): Promise<{ pdf: Pdf; bytes: Promise<Buffer> }> {
  const { default: PDFDocument } = await import("pdfkit");
  const pdf = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: title, Author: author } });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);
  });
  return { pdf, bytes };
}

/** The page's columns, and a row (label left, amount right) and a rule across it, headed in `t`'s language. */
export function layout(pdf: Pdf, t: Translator) {
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
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
  /** The amounts' heading: DESCRIPTION and AMOUNT (CAD), ruled. */
  const amountsHeading = () => {
    pdf
      .fillColor(MUTED)
      .font("Helvetica-Bold")
      .fontSize(9)
      .text(t("documents.amounts.description"), left, pdf.y, { width: width - 130 });
    pdf.moveUp().text(t("documents.amounts.amount"), left + width - 120, pdf.y, { width: 120, align: "right" });
    pdf.x = left;
    rule();
  };
  return { left, width, half: width / 2, row, rule, amountsHeading };
}

/**
 * The seller, left (name, address, GST/HST number, and the QST number when `qst`, docs/decisions.md#51), the
 * document's name in gold and its facts, right; the page goes on below the taller of the two.
 */
export function sellerAndFacts(
  pdf: Pdf,
  business: BusinessIdentity,
  t: Translator,
  heading: { name: string; facts: [string, string][]; qst: boolean },
) {
  const { left, half } = layout(pdf, t);
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
    business.gstHstNumber
      ? t("documents.seller.gstHst", { number: business.gstHstNumber })
      : t("documents.seller.notRegistered"),
    {
      width: half + 20,
    },
  );
  // Unset, haven doctor fails while Quebec homes are billed (docs/decisions.md#51).
  if (heading.qst && business.qstNumber)
    pdf.text(t("documents.seller.qst", { number: business.qstNumber }), { width: half + 20 });
  const afterSeller = pdf.y;
  pdf
    .fillColor(GOLD)
    .font("Helvetica-Bold")
    .fontSize(16)
    .text(heading.name, left + half, top, { width: half, align: "right" });
  pdf.fillColor(INK).font("Helvetica").fontSize(10);
  for (const [label, value] of heading.facts)
    pdf.text(t("documents.fact", { label, value }), left + half, pdf.y, { width: half, align: "right" });
  pdf.y = Math.max(afterSeller, pdf.y) + 18;
}

/** The buyer: a small heading, the name (else the e-mail), the e-mail, the home served. */
export function buyerBlock(
  pdf: Pdf,
  t: Translator,
  heading: string,
  buyer: { name: string | null; email: string | null; address: string | null },
) {
  const { left } = layout(pdf, t);
  pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(heading, left);
  pdf
    .fillColor(INK)
    .font("Helvetica")
    .fontSize(11)
    .text(buyer.name ?? buyer.email ?? t("documents.buyer.fallback"), left);
  pdf.fontSize(10);
  if (buyer.name && buyer.email) pdf.text(buyer.email, left);
  if (buyer.address) pdf.text(t("documents.buyer.home", { address: buyer.address }), left);
  pdf.moveDown(1.2);
}
