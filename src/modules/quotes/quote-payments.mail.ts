// The e-mails of an accepted quote (docs/decisions.md#43): the acceptance with its pay link, and the receipt.
import { escapeHtml } from "../../shared/html.js";
import { withCustomerFooter } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { TaxLine } from "../tax/index.js";
import { formatCents } from "./quotes.constants.js";

export interface QuoteFigures {
  number: string | null;
  subtotalCents: number;
  taxLines: TaxLine[];
  totalCents: number;
}

interface Common {
  to: string;
  clientName: string;
  taskTitle: string;
  propertyAddress: string;
  figures: QuoteFigures;
  /** PUBLIC_URL: the links' origin. */
  origin: string;
}

const figureLines = (f: QuoteFigures) => [
  `Price before tax: ${formatCents(f.subtotalCents)}`,
  ...f.taxLines.map((l) => `${l.label}: ${formatCents(l.amountCents)}`),
  `Total: ${formatCents(f.totalCents)}`,
];

const figureTable = (f: QuoteFigures) =>
  `<table>${[
    ["Price before tax", formatCents(f.subtotalCents)],
    ...f.taxLines.map((l) => [l.label, formatCents(l.amountCents)]),
  ]
    .map(([k, v]) => `<tr><td>${escapeHtml(k!)}</td><td style="text-align:right">${escapeHtml(v!)}</td></tr>`)
    .join(
      "",
    )}<tr><th style="text-align:left">Total</th><th style="text-align:right">${escapeHtml(formatCents(f.totalCents))}</th></tr></table>`;

/** Sent once when a quote is accepted: what happens next, the figures, and a link that pays it by card. */
export function quoteAcceptedEmail(d: Common & { payLink: string; bookWithinDays: number }): MailMessage {
  const text = [
    `Hello ${d.clientName},`,
    "",
    `Thank you: you accepted our quote for ${d.taskTitle} at ${d.propertyAddress}.`,
    `Our office books the work with you within ${d.bookWithinDays} business days and e-mails you the date.`,
    "",
    ...(d.figures.number ? [`Invoice ${d.figures.number}`] : []),
    ...figureLines(d.figures),
    "",
    `Pay by card: ${d.payLink}`,
    `Or pay from My Home: ${d.origin}/my-home/quotes`,
    "",
    "Questions? Reply to this e-mail.",
    "",
    "Haven",
  ].join("\n");
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p>`,
    `<p>Thank you: you accepted our quote for ${escapeHtml(d.taskTitle)} at ${escapeHtml(d.propertyAddress)}.</p>`,
    `<p>Our office books the work with you within ${d.bookWithinDays} business days and e-mails you the date.</p>`,
    d.figures.number ? `<p>Invoice ${escapeHtml(d.figures.number)}</p>` : "",
    figureTable(d.figures),
    `<p><a href="${escapeHtml(d.payLink)}">Pay ${escapeHtml(formatCents(d.figures.totalCents))} by card</a></p>`,
    "<p>Questions? Reply to this e-mail.</p><p>Haven</p>",
  ].join("\n");
  return withCustomerFooter({ to: d.to, subject: `Quote accepted: ${d.taskTitle}`, text, html }, d.origin);
}

/** The receipt of a paid quote: the invoice's number, its figures, the business's registration and the PDF's link. */
export function quoteReceiptEmail(
  d: Common & { paidOn: string; registration: string | null; legalName: string; pdfLink: string },
): MailMessage {
  const reg = d.registration ? `GST/HST registration: ${d.registration}` : null;
  const text = [
    `Hello ${d.clientName},`,
    "",
    `We received your payment of ${formatCents(d.figures.totalCents)} for ${d.taskTitle} at ${d.propertyAddress} on ${d.paidOn}.`,
    "",
    `Receipt for invoice ${d.figures.number ?? ""}`,
    ...figureLines(d.figures),
    "",
    d.legalName,
    ...(reg ? [reg] : []),
    "",
    `Your invoice as a PDF: ${d.pdfLink}`,
    "",
    "Haven",
  ].join("\n");
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p>`,
    `<p>We received your payment of ${escapeHtml(formatCents(d.figures.totalCents))} for ${escapeHtml(d.taskTitle)} at ${escapeHtml(d.propertyAddress)} on ${escapeHtml(d.paidOn)}.</p>`,
    `<p>Receipt for invoice ${escapeHtml(d.figures.number ?? "")}</p>`,
    figureTable(d.figures),
    `<p>${escapeHtml(d.legalName)}${reg ? `<br>${escapeHtml(reg)}` : ""}</p>`,
    `<p><a href="${escapeHtml(d.pdfLink)}">Download your invoice (PDF)</a></p>`,
    "<p>Haven</p>",
  ].join("\n");
  return withCustomerFooter(
    { to: d.to, subject: `Receipt ${d.figures.number ?? ""}: ${d.taskTitle}`.trim(), text, html },
    d.origin,
  );
}

/** Sent when the office books an accepted quote's work: the date and time, and who comes. */
export function quoteBookedEmail(
  d: Omit<Common, "figures"> & { date: string; time: string | null; who: string },
): MailMessage {
  const when = `${d.date}${d.time ? `, ${d.time}` : ""}`;
  const text = [
    `Hello ${d.clientName},`,
    "",
    `The work you accepted, ${d.taskTitle} at ${d.propertyAddress}, is booked for ${when}.`,
    `${d.who} comes at that time.`,
    "",
    `See it in My Home: ${d.origin}/my-home/quotes`,
    "",
    "To change it, reply to this e-mail.",
    "",
    "Haven",
  ].join("\n");
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p>`,
    `<p>The work you accepted, ${escapeHtml(d.taskTitle)} at ${escapeHtml(d.propertyAddress)}, is booked for <strong>${escapeHtml(when)}</strong>.</p>`,
    `<p>${escapeHtml(d.who)} comes at that time.</p>`,
    `<p><a href="${escapeHtml(d.origin)}/my-home/quotes">See it in My Home</a></p>`,
    "<p>To change it, reply to this e-mail.</p><p>Haven</p>",
  ].join("\n");
  return withCustomerFooter({ to: d.to, subject: `Booked: ${d.taskTitle} on ${when}`, text, html }, d.origin);
}
