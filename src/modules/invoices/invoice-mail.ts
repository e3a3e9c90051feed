// What the billing e-mails (subscriptions' receipts and refunds, a quote's credit note) say of an invoice.
import type { Invoice } from "./invoices.constants.js";

/** The invoice a receipt or a refund names (docs/decisions.md#33): its number, each tax and its PDF. */
export interface MailInvoice {
  id: number;
  number: string | null;
  subtotalCents: number;
  taxLines: { label: string; amountCents: number }[];
  totalCents: number;
  /** The province it is taxed in: a Quebec invoice's receipt is in French (document-locale.ts). */
  taxProvince?: string | null;
}

/** What a receipt or refund e-mail shows of a stored invoice. */
export const mailInvoice = (invoice: Invoice): MailInvoice => ({
  id: invoice.id,
  number: invoice.number,
  subtotalCents: Math.round(invoice.subtotal * 100),
  taxLines: invoice.taxLines.map((t) => ({ label: t.label, amountCents: t.amountCents })),
  totalCents: Math.round(invoice.amount * 100),
  taxProvince: invoice.taxProvince,
});

/** '$370.00 CAD'. */
export const billingAmount = (dollars: number) => `$${dollars.toFixed(2)} CAD`;
