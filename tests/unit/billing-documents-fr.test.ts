// Invoices and credit notes in the customer's language, French for a Quebec home (docs/decisions.md#68).
import { PDFParse } from "pdf-parse";
import { describe, expect, it, vi } from "vitest";
import { renderCreditNotePdf } from "../../src/modules/invoices/credit-note-pdf.js";
import { documentLocale } from "../../src/modules/invoices/document-locale.js";
import { renderInvoicePdf } from "../../src/modules/invoices/invoice-pdf.js";
import type { Invoice } from "../../src/modules/invoices/invoices.constants.js";
import type { Refund } from "../../src/modules/invoices/refunds.repository.js";
import { expectAllMarked } from "../support/pseudo-documents.js";

const business = {
  legalName: "Haven Home Health Inc.",
  address: "1 Elgin Street, Ottawa, ON K1P 5W1",
  gstHstNumber: "123456789 RT0001",
  qstNumber: "1234567890 TQ0001",
};
const buyer = {
  name: "Camille Tremblay",
  email: "camille@example.com",
  address: "12 rue Laurier, Gatineau, QC J8X 3V7",
};
const invoice: Invoice = {
  id: 7,
  subscriptionId: 3,
  quoteRequestId: null,
  providerInvoiceId: "in_1",
  number: "HAV-2026-000042",
  issuedAt: "2026-12-01T15:00:00.000Z",
  recordedLateAt: null,
  amount: 425.43,
  amountPaid: 425.43,
  balanceApplied: 0,
  subtotal: 370,
  tax: 55.43,
  taxLines: [
    { kind: "GST", label: "GST 5%", percent: 5, amountCents: 1850 },
    { kind: "QST", label: "QST 9.975%", percent: 9.975, amountCents: 3693 },
  ],
  taxProvince: "QC",
  refunded: 100,
  hostedInvoiceUrl: null,
  currency: "cad",
  periodStart: "2026-12-01T05:00:00.000Z",
  periodEnd: "2027-01-01T05:00:00.000Z",
  status: "paid",
  billingReason: "subscription_cycle",
  paidAt: "2026-12-01T15:00:00.000Z",
  failureReason: null,
};
const refund: Refund = {
  id: 1,
  invoiceId: 7,
  provider: "stripe",
  providerRefundId: "re_1",
  amountCents: 10000,
  taxCents: 1304,
  taxLines: [
    { kind: "GST", label: "GST 5%", percent: 5, amountCents: 435 },
    { kind: "QST", label: "QST 9.975%", percent: 9.975, amountCents: 869 },
  ],
  reason: "Visite annulée",
  actor: "staff",
  creditNoteId: null,
  requestKey: null,
  number: "HAV-CN-2026-000003",
  createdAt: "2026-12-05T15:00:00.000Z",
};
const refunds = [
  { createdAt: refund.createdAt, amountCents: 10000, taxCents: 1304, reason: refund.reason, number: refund.number },
];

const invoicePdf = (locale: "en-CA" | "fr-CA" | "en-XA") =>
  renderInvoicePdf({ invoice, business, buyer, planName: "Standard", timeZone: "America/Toronto", locale, refunds });
const creditNotePdf = (locale: "en-CA" | "fr-CA" | "en-XA") =>
  renderCreditNotePdf({
    refund,
    invoice,
    business,
    buyer,
    description: "Forfait Haven Standard, du 1 décembre 2026 au 1 janvier 2027",
    timeZone: "America/Toronto",
    locale,
  });

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe("billing documents' language", () => {
  it("a Quebec home's documents are French whatever the customer's locale; others follow the customer's", () => {
    expect(documentLocale("en-CA", "QC")).toBe("fr-CA");
    expect(documentLocale("fr-CA", "QC")).toBe("fr-CA");
    expect(documentLocale("fr-CA", "ON")).toBe("fr-CA");
    expect(documentLocale("en-CA", "ON")).toBe("en-CA");
    expect(documentLocale("en-CA", null)).toBe("en-CA");
  });

  it("a Gatineau invoice in French: TPS and TVQ with their rates, both registration numbers, French amounts", async () => {
    const text = (await textOf(await invoicePdf("fr-CA"))).replace(/\s+/g, " ");
    for (const phrase of [
      "FACTURE",
      "Nº de facture : HAV-2026-000042",
      "Date d'émission : 1er décembre 2026",
      "FACTURÉ À",
      "Forfait Haven Standard : services d'entretien de la propriété, du 1er décembre 2026 au 1er janvier 2027 (renouvellement mensuel)",
      "Sous-total",
      "TPS 5 % (QC)",
      "TVQ 9,975 % (QC)",
      "425,43 $",
      "Nº d'inscription à la TPS/TVH : 123456789 RT0001",
      "Nº d'inscription à la TVQ : 1234567890 TQ0001",
      "REMBOURSEMENTS (NOTES DE CRÉDIT)",
      "Payée par carte à la date indiquée ci-dessus.",
    ])
      expect(text).toContain(phrase);
    expect(text).not.toMatch(/\bGST\b|\bQST\b|Invoice|Subtotal/);
  });

  it("a Gatineau credit note in French, with TPS, TVQ and both numbers", async () => {
    const text = (await textOf(await creditNotePdf("fr-CA"))).replace(/\s+/g, " ");
    for (const phrase of [
      "NOTE DE CRÉDIT",
      "Nº de note de crédit : HAV-CN-2026-000003",
      "Crédite la facture nº : HAV-2026-000042",
      "CRÉDITÉ À",
      "Montant avant taxes",
      "TPS 5 % (QC) remboursée",
      "TVQ 9,975 % (QC) remboursée",
      "Total remboursé",
      "100,00 $",
      "Nº d'inscription à la TPS/TVH : 123456789 RT0001",
      "Nº d'inscription à la TVQ : 1234567890 TQ0001",
      "Cette note de crédit réduit la facture HAV-2026-000042 de 100,00 $, dont 13,04 $ de taxes",
    ])
      expect(text).toContain(phrase);
  });

  it("in English the invoice keeps its words: GST 5% (QC), QST 9.975% (QC)", async () => {
    const text = (await textOf(await invoicePdf("en-CA"))).replace(/\s+/g, " ");
    expect(text).toContain("GST 5% (QC)");
    expect(text).toContain("QST 9.975% (QC)");
    expect(text).toContain("GST/HST registration no. 123456789 RT0001");
    expect(text).toContain(
      "Haven Standard plan: home maintenance services, December 1, 2026 to January 1, 2027 (monthly renewal)",
    );
  });

  it("pseudo-locale: every word the invoice and the credit note print comes from the catalogue", async () => {
    const { default: PDFDocument } = await import("pdfkit");
    const printed: string[] = [];
    const text = vi.spyOn(PDFDocument.prototype, "text").mockImplementation(function (
      this: PDFKit.PDFDocument,
      ...args
    ) {
      if (typeof args[0] === "string") printed.push(args[0]);
      return this;
    });
    try {
      await invoicePdf("en-XA");
      await creditNotePdf("en-XA");
    } finally {
      text.mockRestore();
    }
    const data = [
      business.legalName,
      business.address,
      buyer.name,
      buyer.email,
      buyer.address,
      "Standard",
      refund.reason!,
      "Forfait Haven Standard, du 1 décembre 2026 au 1 janvier 2027",
    ];
    expect(printed.length).toBeGreaterThan(30);
    for (const line of printed) expectAllMarked(line, data, line);
  });
});
