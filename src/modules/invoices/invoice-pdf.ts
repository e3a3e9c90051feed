// The invoice as a PDF (docs/decisions.md#33, pdfkit with its built-in fonts, the quote report's colours). The CRA's
// guide RC4022 asks less of an invoice under $30, more from $30 to $149.99, and from $150 the full set; every invoice
// here carries the full set, whatever its amount: the business's name and GST/HST number (and its QST number when
// QST is charged, docs/decisions.md#51), the date of issue, the buyer's name, a description of the plan and its
// period, the subtotal, each tax with its rate, the total, and the terms of payment.
import { type Translator, formatters, translator } from "../../i18n/index.js";
import type { Locale, RenderLocale } from "../../i18n/locales.js";
import { documentLocale, documentMoney, taxLineLabel } from "./document-locale.js";
import { GREEN, INK, MUTED, buyerBlock, layout, sellerAndFacts, startPdf } from "./pdf-layout.js";
import type { BusinessIdentity, Invoice } from "./invoices.constants.js";

export interface InvoiceDocument {
  invoice: Invoice;
  business: BusinessIdentity;
  buyer: { name: string | null; email: string | null; address: string | null };
  planName: string;
  /** An accepted quote's invoice (docs/decisions.md#43): its one line names the work, not a plan and period. */
  description?: string;
  timeZone: string;
  /** The document's language (documentLocale: the customer's, French when taxed in Quebec); English unless given. */
  locale?: RenderLocale;
  /** Refunds of the invoice, each with its date and tax part (credit notes), listed under the total. */
  refunds: {
    createdAt: string;
    amountCents: number;
    taxCents: number;
    reason: string | null;
    number?: string | null;
  }[];
}

/** The language an invoice prints in and its formats: the customer's, French when taxed in Quebec (document-locale.ts). */
export function documentFormats(locale: RenderLocale, timeZone: string) {
  const t = translator(locale);
  const dates = formatters(locale, timeZone);
  return {
    t,
    date: (iso: string) => dates.dateTime(iso, { year: "numeric", month: "long", day: "numeric" }),
    cad: documentMoney(locale, timeZone),
  };
}

export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const { invoice, business, buyer } = doc;
  const { t, date, cad } = documentFormats(doc.locale ?? "en-CA", doc.timeZone);
  // Its date is its issue, set once with its number; the payment's date is shown apart (docs/decisions.md#54).
  const issued = invoice.issuedAt ?? invoice.periodStart;
  const chargesQst = invoice.taxLines.some((line) => line.kind === "QST" && line.amountCents !== 0);
  const title = invoice.number
    ? t("documents.invoice.titleNumbered", { number: invoice.number })
    : t("documents.invoice.title");
  const { pdf, bytes } = await startPdf(title, business.legalName);
  const { left, width, row, rule, amountsHeading } = layout(pdf, t);

  // The seller, left; the invoice's number and date, right.
  const status = invoice.status === "paid" ? (invoice.paidAt ? "paid" : "paidUndated") : (invoice.status as string);
  const facts: [string, string][] = [
    [t("documents.invoice.number"), invoice.number ?? t("documents.invoice.notNumbered")],
    [t("documents.invoice.issued"), date(issued)],
    [
      t("documents.invoice.status"),
      t("documents.invoice.statusValue", { status, date: invoice.paidAt ? date(invoice.paidAt) : "" }),
    ],
  ];
  // Numbered after invoices issued later that year (a missed invoice recorded late): both dates, so the order's
  // exception is on the invoice itself (docs/decisions.md#54).
  if (invoice.recordedLateAt) facts.push([t("documents.invoice.recordedLate"), date(invoice.recordedLateAt)]);
  sellerAndFacts(pdf, business, t, { name: t("documents.invoice.heading"), qst: chargesQst, facts });

  buyerBlock(pdf, t, t("documents.invoice.billedTo"), buyer);

  // The one line: the plan and its period.
  amountsHeading();
  const quote = invoice.quoteRequestId !== null && invoice.quoteRequestId !== undefined;
  row(
    quote
      ? t("documents.invoice.quoteLine", {
          description: doc.description ?? t("documents.invoice.quoteWork"),
          date: date(invoice.periodStart),
        })
      : t("documents.invoice.planLine", {
          plan: doc.planName,
          start: date(invoice.periodStart),
          end: date(invoice.periodEnd),
          reason: invoice.billingReason ?? "none",
        }),
    cad(Math.round(invoice.subtotal * 100)),
  );
  pdf.moveDown(0.4);
  rule("#dddddd");
  row(t("documents.invoice.subtotal"), cad(Math.round(invoice.subtotal * 100)));
  if (!invoice.taxLines.length) row(t("documents.tax.none"), cad(0));
  for (const line of invoice.taxLines) row(taxRowLabel(t, line, invoice.taxProvince), cad(line.amountCents));
  rule();
  row(t("documents.invoice.total"), cad(Math.round(invoice.amount * 100)), { bold: true, size: 13, color: GREEN });
  // docs/decisions.md#50: when the customer's balance paid part (or added an earlier debt), what the card paid.
  const balance = Math.round(invoice.balanceApplied * 100);
  if (balance !== 0) {
    row(t(balance > 0 ? "documents.invoice.fromCredit" : "documents.invoice.earlierBalance"), cad(Math.abs(balance)));
    const rest = Math.round(invoice.amount * 100) - balance;
    row(
      t(invoice.status === "paid" ? "documents.invoice.paidByCard" : "documents.invoice.due"),
      cad(invoice.status === "paid" ? Math.round(invoice.amountPaid * 100) : rest),
      { bold: true },
    );
  }

  if (doc.refunds.length) {
    pdf.moveDown(0.6);
    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(t("documents.invoice.refunds"), left);
    pdf.moveDown(0.2);
    for (const refund of doc.refunds)
      row(
        t("documents.invoice.refundLine", {
          numbered: refund.number ? "yes" : "no",
          number: refund.number ?? "",
          date: date(refund.createdAt),
          tax: cad(refund.taxCents),
          reasoned: refund.reason ? "yes" : "no",
          reason: refund.reason ?? "",
        }),
        cad(-refund.amountCents),
      );
    row(t("documents.invoice.net"), cad(Math.round((invoice.amount - invoice.refunded) * 100)), { bold: true });
  }

  pdf.moveDown(1.2);
  pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text(t("documents.invoice.terms"), left);
  const paid = invoice.status === "paid";
  pdf
    .fillColor(INK)
    .font("Helvetica")
    .fontSize(10)
    .text(
      t(
        quote
          ? paid
            ? "documents.invoice.terms.quotePaid"
            : "documents.invoice.terms.quoteDue"
          : paid
            ? "documents.invoice.terms.planPaid"
            : "documents.invoice.terms.planDue",
      ),
      left,
      pdf.y,
      { width },
    );
  pdf.end();
  return bytes;
}

/** A tax row: "HST 13% (ON)" / "TVQ 9,975 % (QC)". */
export function taxRowLabel(
  t: Translator,
  line: { kind?: string | null; label: string; percent?: number | null },
  province: string | null,
): string {
  const label = taxLineLabel(t, line);
  return province ? t("documents.tax.lineInProvince", { label, province }) : label;
}

/** What a quote's invoice names of its quote: the buyer, the work and the customer's language. */
export interface QuoteOnInvoice {
  clientName: string | null;
  clientEmail: string | null;
  propertyAddress: string | null;
  taskTitle: string;
  clientLocale: Locale | null;
}

/** An accepted quote's invoice PDF (docs/decisions.md#43): one line naming the work, in the document's language. */
export function quoteInvoicePdf(business: BusinessIdentity, timeZone: string) {
  return (invoice: Invoice, quote: QuoteOnInvoice) =>
    renderInvoicePdf({
      invoice,
      business,
      buyer: { name: quote.clientName, email: quote.clientEmail, address: quote.propertyAddress },
      planName: "Haven",
      description: quote.taskTitle,
      timeZone,
      locale: documentLocale(quote.clientLocale, invoice.taxProvince),
      refunds: [],
    });
}
