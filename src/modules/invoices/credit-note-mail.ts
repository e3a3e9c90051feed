// The e-mail of a refund of an accepted quote's invoice (docs/decisions.md#52): an invoice with no subscription, so
// no plan, no billing link; its credit note's number, what goes back and each tax, the reason, and the business's
// registration numbers (the QST number when QST was refunded, docs/decisions.md#51).
import { escapeHtml } from "../../shared/html.js";
import { withCustomerFooter } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { billingAmount } from "./invoice-mail.js";

export interface QuoteRefundMail {
  to: string;
  name: string | null;
  /** What the work was (the quote's task), when known. */
  work: string | null;
  invoiceNumber: string | null;
  creditNote: string | null;
  amountCents: number;
  taxLines: { kind?: string; label: string; amountCents: number }[];
  reason: string | null;
  legalName: string;
  gstHstNumber: string | null;
  qstNumber: string | null;
  /** PUBLIC_URL: the footer's links. */
  origin: string;
}

export function quoteRefundEmail(d: QuoteRefundMail): MailMessage {
  const money = (cents: number) => billingAmount(cents / 100);
  const refundsQst = d.taxLines.some((t) => (t.kind === "QST" || t.label.startsWith("QST")) && t.amountCents !== 0);
  const lines = [
    d.creditNote && `Credit note: ${d.creditNote}`,
    d.invoiceNumber && `Credits invoice: ${d.invoiceNumber}`,
    `Refunded: ${money(d.amountCents)}`,
    ...d.taxLines.map((t) => `of which ${t.label}: ${money(t.amountCents)}`),
    d.reason && `Reason: ${d.reason}`,
    d.legalName,
    d.gstHstNumber && `GST/HST registration: ${d.gstHstNumber}`,
    refundsQst && d.qstNumber && `QST registration: ${d.qstNumber}`,
  ].filter((l): l is string => Boolean(l));
  const opening = `We have refunded ${money(d.amountCents)} to your card${d.work ? ` for ${d.work}` : ""}. It can take 5 to 10 business days to appear on your statement.`;
  const text = [`Hello ${d.name ?? "there"},`, "", opening, "", ...lines, "", "Haven"].join("\n");
  const html = [
    `<p>Hello ${escapeHtml(d.name ?? "there")},</p>`,
    `<p>${escapeHtml(opening)}</p>`,
    `<p>${lines.map(escapeHtml).join("<br>")}</p>`,
    "<p>Haven</p>",
  ].join("\n");
  return withCustomerFooter({ to: d.to, subject: `Your Haven refund: ${money(d.amountCents)}`, text, html }, d.origin);
}
