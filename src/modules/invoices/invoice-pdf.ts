// The invoice as a PDF (docs/decisions.md#33, pdfkit with its built-in fonts, the quote report's colours). The CRA's
// guide RC4022 asks less of an invoice under $30, more from $30 to $149.99, and from $150 the full set; every invoice
// here carries the full set, whatever its amount: the business's name and GST/HST number (and its QST number when
// QST is charged, docs/decisions.md#51), the date of issue, the buyer's name, a description of the plan and its
// period, the subtotal, each tax with its rate, the total, and the terms of payment.
import { GREEN, INK, MUTED, buyerBlock, layout, sellerAndFacts } from "./pdf-layout.js";
import type { BusinessIdentity, Invoice } from "./invoices.constants.js";

export interface InvoiceDocument {
  invoice: Invoice;
  business: BusinessIdentity;
  buyer: { name: string | null; email: string | null; address: string | null };
  planName: string;
  /** An accepted quote's invoice (docs/decisions.md#43): its one line names the work, not a plan and period. */
  description?: string;
  timeZone: string;
  /** Refunds of the invoice, each with its date and tax part (credit notes), listed under the total. */
  refunds: {
    createdAt: string;
    amountCents: number;
    taxCents: number;
    reason: string | null;
    number?: string | null;
  }[];
}

const REASONS: Record<string, string> = {
  subscription_create: "first month",
  subscription_cycle: "monthly renewal",
  subscription_update: "plan change, prorated for the rest of the period",
};

export const cad = (cents: number) =>
  `${cents < 0 ? "-" : ""}$${(Math.abs(cents) / 100).toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const { invoice, business, buyer } = doc;
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString("en-CA", {
      timeZone: doc.timeZone,
      year: "numeric",
      month: "long",
      day: "numeric",
    });
  // Its date is its issue, set once with its number; the payment's date is shown apart (docs/decisions.md#54).
  const issued = invoice.issuedAt ?? invoice.periodStart;
  const chargesQst = invoice.taxLines.some((line) => line.kind === "QST" && line.amountCents !== 0);
  const title = invoice.number ? `Invoice ${invoice.number}` : "Invoice";
  return new Promise((resolve, reject) => {
    const pdf = new PDFDocument({ size: "LETTER", margin: 54, info: { Title: title, Author: business.legalName } });
    const chunks: Buffer[] = [];
    pdf.on("data", (c: Buffer) => chunks.push(c));
    pdf.on("end", () => resolve(Buffer.concat(chunks)));
    pdf.on("error", reject);

    const { left, width, row, rule, amountsHeading } = layout(pdf);

    // The seller, left; the invoice's number and date, right.
    const facts: [string, string][] = [
      ["Invoice no.", invoice.number ?? "Not numbered (draft)"],
      ["Date of issue", date(issued)],
      [
        "Status",
        invoice.status === "paid" ? `Paid ${invoice.paidAt ? date(invoice.paidAt) : ""}`.trim() : invoice.status,
      ],
    ];
    // Numbered after invoices issued later that year (a missed invoice recorded late): both dates, so the order's
    // exception is on the invoice itself (docs/decisions.md#54).
    if (invoice.recordedLateAt) facts.push(["Recorded late", date(invoice.recordedLateAt)]);
    sellerAndFacts(pdf, business, { name: "INVOICE", qst: chargesQst, facts });

    buyerBlock(pdf, "BILLED TO", buyer);

    // The one line: the plan and its period.
    amountsHeading();
    const reason = invoice.billingReason ? REASONS[invoice.billingReason] : null;
    const quote = invoice.quoteRequestId !== null && invoice.quoteRequestId !== undefined;
    row(
      quote
        ? `${doc.description ?? "Work quoted by Haven"} (accepted quote, ${date(invoice.periodStart)})`
        : `Haven ${doc.planName} plan: home maintenance services, ${date(invoice.periodStart)} to ${date(invoice.periodEnd)}${reason ? ` (${reason})` : ""}`,
      cad(Math.round(invoice.subtotal * 100)),
    );
    pdf.moveDown(0.4);
    rule("#dddddd");
    row("Subtotal", cad(Math.round(invoice.subtotal * 100)));
    if (!invoice.taxLines.length) row("Tax", cad(0));
    for (const line of invoice.taxLines)
      row(`${line.label}${invoice.taxProvince ? ` (${invoice.taxProvince})` : ""}`, cad(line.amountCents));
    rule();
    row("Total", cad(Math.round(invoice.amount * 100)), { bold: true, size: 13, color: GREEN });
    // docs/decisions.md#50: when the customer's balance paid part (or added an earlier debt), what the card paid.
    const balance = Math.round(invoice.balanceApplied * 100);
    if (balance !== 0) {
      row(balance > 0 ? "Paid from account credit" : "Earlier balance owed, added", cad(Math.abs(balance)));
      const rest = Math.round(invoice.amount * 100) - balance;
      row(
        invoice.status === "paid" ? "Paid by card" : "Due",
        cad(invoice.status === "paid" ? Math.round(invoice.amountPaid * 100) : rest),
        {
          bold: true,
        },
      );
    }

    if (doc.refunds.length) {
      pdf.moveDown(0.6);
      pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("REFUNDS (CREDIT NOTES)", left);
      pdf.moveDown(0.2);
      for (const refund of doc.refunds)
        row(
          `${refund.number ? `Credit note ${refund.number}, ` : ""}${date(refund.createdAt)}: refunded, of which tax ${cad(refund.taxCents)}${refund.reason ? `. ${refund.reason}` : ""}`,
          cad(-refund.amountCents),
        );
      row("Net after refunds", cad(Math.round((invoice.amount - invoice.refunded) * 100)), { bold: true });
    }

    pdf.moveDown(1.2);
    pdf.fillColor(MUTED).font("Helvetica-Bold").fontSize(9).text("TERMS", left);
    pdf
      .fillColor(INK)
      .font("Helvetica")
      .fontSize(10)
      .text(
        quote
          ? invoice.status === "paid"
            ? "Paid by card on the date above. One-time work as quoted; prices in Canadian dollars before tax."
            : "Due on receipt, payable by card from My Home or the link we e-mailed. One-time work as quoted; prices in Canadian dollars before tax."
          : invoice.status === "paid"
            ? "Paid by card on the date above. Monthly subscription, billed in advance for the period shown; prices in Canadian dollars before tax."
            : "Due on receipt, charged to the card on file. Monthly subscription, billed in advance for the period shown; prices in Canadian dollars before tax.",
        left,
        pdf.y,
        { width },
      );
    pdf.end();
  });
}
