// A refund as its credit note, a PDF (docs/decisions.md#52; pdfkit's built-in fonts, the invoice PDF's colours): what
// the CRA and Revenu Québec ask of a credit note that reduces the tax of an invoice already issued: the business's
// name and GST/HST number (and its QST number when QST is refunded, docs/decisions.md#51), the credit note's own
// number and date, the invoice it credits, the buyer, the amount before tax, each tax refunded, the total and the
// reason.
import type { RenderLocale } from "../../i18n/locales.js";
import { documentFormats, taxRowLabel } from "./invoice-pdf.js";
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
  /** The document's language (documentLocale); English unless given. */
  locale?: RenderLocale;
}

export async function renderCreditNotePdf(doc: CreditNoteDocument): Promise<Buffer> {
  const { refund, invoice, business, buyer } = doc;
  const { t, date, cad } = documentFormats(doc.locale ?? "en-CA", doc.timeZone);
  const credited = invoice.number ?? `#${invoice.id}`;
  const { pdf, bytes } = await startPdf(
    refund.number
      ? t("documents.creditNote.titleNumbered", { number: refund.number })
      : t("documents.creditNote.title"),
    business.legalName,
  );
  const { left, width, row, rule, amountsHeading } = layout(pdf, t);

  sellerAndFacts(pdf, business, t, {
    name: t("documents.creditNote.heading"),
    qst: refund.taxLines.some((l) => l.kind === "QST" && l.amountCents !== 0),
    facts: [
      [t("documents.creditNote.number"), refund.number ?? t("documents.creditNote.notNumbered")],
      [t("documents.creditNote.date"), date(refund.createdAt)],
      [t("documents.creditNote.credits"), credited],
      [
        t("documents.creditNote.invoicePaid"),
        invoice.paidAt ? date(invoice.paidAt) : t("documents.creditNote.notPaid"),
      ],
    ],
  });
  buyerBlock(pdf, t, t("documents.creditNote.creditedTo"), buyer);

  amountsHeading();
  const taxCents = refund.taxLines.reduce((sum, l) => sum + l.amountCents, 0);
  row(
    t("documents.creditNote.line", { invoice: credited, description: doc.description }),
    cad(refund.amountCents - taxCents),
  );
  pdf.moveDown(0.4);
  rule("#dddddd");
  row(t("documents.creditNote.beforeTax"), cad(refund.amountCents - taxCents));
  if (!refund.taxLines.length) row(t("documents.tax.none"), cad(0));
  for (const line of refund.taxLines)
    row(
      t("documents.creditNote.taxRefunded", { label: taxRowLabel(t, line, invoice.taxProvince) }),
      cad(line.amountCents),
    );
  rule();
  row(t("documents.creditNote.total"), cad(refund.amountCents), { bold: true, size: 13, color: GREEN });

  pdf.moveDown(1.2);
  pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(t("documents.creditNote.reason"), left);
  pdf
    .fillColor(INK)
    .font("Helvetica")
    .fontSize(10)
    .text(refund.reason ?? t("documents.creditNote.reasonNone"), left, pdf.y, { width });
  pdf.moveDown(1);
  pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(t("documents.creditNote.terms"), left);
  pdf
    .fillColor(INK)
    .font("Helvetica")
    .fontSize(10)
    .text(
      t("documents.creditNote.termsText", { invoice: credited, amount: cad(refund.amountCents), tax: cad(taxCents) }),
      left,
      pdf.y,
      { width },
    );
  pdf.end();
  return bytes;
}
