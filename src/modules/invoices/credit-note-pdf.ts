// A refund as its credit note, a PDF (docs/decisions.md#52; pdfkit's built-in fonts, the invoice PDF's colours): what
// the CRA and Revenu Québec ask of a credit note that reduces the tax of an invoice already issued: the business's
// name and GST/HST number (and its QST number when QST is refunded, docs/decisions.md#51), the credit note's own
// number and date, the invoice it credits, the buyer, the amount before tax, each tax refunded, the total and the
// reason.
import { cad } from "./invoice-pdf.js";
import { GREEN, INK, MUTED, buyerBlock, layout, sellerAndFacts, startPdf } from "./pdf-layout.js";
import type { Refund } from "./refunds.repository.js";
import type { BusinessIdentity, Invoice } from "./invoices.constants.js";

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

export async function renderCreditNotePdf(doc: CreditNoteDocument): Promise<Buffer> {
  const { refund, invoice, business, buyer } = doc;
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString("en-CA", {
      timeZone: doc.timeZone,
      year: "numeric",
      month: "long",
      day: "numeric",
    });
  const credited = invoice.number ?? `#${invoice.id}`;
  const { pdf, bytes } = await startPdf(
    refund.number ? `Credit note ${refund.number}` : "Credit note",
    business.legalName,
  );
  const { left, width, row, rule, amountsHeading } = layout(pdf);

  sellerAndFacts(pdf, business, {
    name: "CREDIT NOTE",
    qst: refund.taxLines.some((l) => l.kind === "QST" && l.amountCents !== 0),
    facts: [
      ["Credit note no.", refund.number ?? "Not numbered"],
      ["Date", date(refund.createdAt)],
      ["Credits invoice no.", credited],
      ["Invoice paid", invoice.paidAt ? date(invoice.paidAt) : "not paid"],
    ],
  });
  buyerBlock(pdf, "CREDITED TO", buyer);

  amountsHeading();
  const taxCents = refund.taxLines.reduce((sum, l) => sum + l.amountCents, 0);
  row(`Refund of invoice ${credited}: ${doc.description}`, cad(refund.amountCents - taxCents));
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
      `This credit note reduces invoice ${credited} by ${cad(refund.amountCents)}, of which ${cad(taxCents)} is tax, refunded to the card that paid it. Prices in Canadian dollars.`,
      left,
      pdf.y,
      { width },
    );
  pdf.end();
  return bytes;
}
