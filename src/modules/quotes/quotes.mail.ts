import type { MailMessage } from "../mail/mail.schemas.js";
import { withCustomerFooter } from "../mail/index.js";
import { type ClientQuoteItem, formatCents } from "./quotes.constants.js";
import { escapeHtml } from "../../shared/html.js";
import { NO_FIGURE_TEXT, longDate } from "./quote-document.js";

/** Cents as a homeowner reads a price: always two decimals beside a tax line ("$84.50", "$650.00"). */
export const money = (cents: number) =>
  `$${(cents / 100).toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * One quote as the homeowner reads it (docs/decisions.md#42), as [label, value] rows: what will be done, the price
 * before tax, each tax line with its rate, the total, how long it is valid, and what happens after yes. Never
 * adminNotes: a ClientQuoteItem has none.
 */
export function quoteRows(item: Partial<ClientQuoteItem> & Pick<ClientQuoteItem, "taskTitle">): [string, string][] {
  const rows: [string, string][] = [];
  if (item.scope) rows.push(["What will be done", item.scope]);
  if (item.totals) {
    rows.push(["Price before tax", money(item.totals.subtotalCents)]);
    for (const line of item.totals.taxLines) rows.push([line.label, money(line.amountCents)]);
    rows.push(["Total", money(item.totals.totalCents)]);
  } else {
    rows.push(["Price", item.quotedAmount ?? ""]);
    rows.push(["", NO_FIGURE_TEXT]);
  }
  if (item.validUntil) rows.push(["Valid until", longDate(item.validUntil)]);
  if (item.afterYes) rows.push(["After you accept", item.afterYes]);
  return rows;
}

const textRows = (rows: [string, string][]) => rows.map(([label, value]) => (label ? `${label}: ${value}` : value));
const htmlRows = (rows: [string, string][]) =>
  rows
    .map(
      ([label, value]) =>
        `<tr><th style="text-align:left;vertical-align:top;padding-right:12px">${escapeHtml(label)}</th><td style="white-space:pre-line">${escapeHtml(value)}</td></tr>`,
    )
    .join("");

export interface QuoteReportMailDetails {
  to: string;
  clientName: string;
  propertyAddress: string;
  items: ClientQuoteItem[];
  /** Before tax (the spec's total). */
  totalCents: number | null;
  /** Before tax, tax and with tax over every item; null (or absent) unless every item has one dollar figure. */
  totals?: { subtotalCents: number; taxCents: number; totalCents: number } | null;
  link: string;
  supportEmail: string;
}

/** The quote report e-mail: every quoted item as a quote document (decisions.md#42), the total, the link and the PDF. */
export function quoteReportEmail(d: QuoteReportMailDetails, pdf: Buffer): MailMessage {
  const totals = d.totals ?? null;
  const total = totals ? money(totals.totalCents) : d.totalCents === null ? "See items" : formatCents(d.totalCents);
  const lines = [
    `Hello ${d.clientName},`,
    "",
    `Here are our quotes for ${d.propertyAddress}:`,
    "",
    ...d.items.flatMap((item) => [`- ${item.taskTitle}`, ...textRows(quoteRows(item)).map((l) => `  ${l}`), ""]),
    ...(totals
      ? [
          `Total before tax: ${money(totals.subtotalCents)}`,
          `Tax: ${money(totals.taxCents)}`,
          `Total with tax: ${total}`,
        ]
      : [`Total: ${total}`]),
    "",
    `Accept or decline each item in one click: ${d.link}`,
    "",
    "The quote report is attached as a PDF.",
    "",
    `Questions? Reply to ${d.supportEmail}.`,
    "",
    "Haven",
  ];
  const items = d.items
    .map((item) => `<h3>${escapeHtml(item.taskTitle)}</h3><table>${htmlRows(quoteRows(item))}</table>`)
    .join("");
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p><p>Here are our quotes for ${escapeHtml(d.propertyAddress)}:</p>`,
    items,
    `<p><strong>${totals ? "Total with tax" : "Total"}: ${escapeHtml(total)}</strong></p>`,
    `<p><a href="${escapeHtml(d.link)}">Accept or decline each item in one click</a></p>`,
    `<p>The quote report is attached as a PDF.</p><p>Questions? Reply to ${escapeHtml(d.supportEmail)}.</p><p>Haven</p>`,
  ].join("\n");
  // The link is on PUBLIC_URL: My Home is beside it.
  return withCustomerFooter(
    {
      to: d.to,
      subject: `Your Haven quote for ${d.propertyAddress}`,
      text: lines.join("\n"),
      html,
      attachments: [
        {
          filename: "haven-quote-report.pdf",
          content: pdf.toString("base64"),
          encoding: "base64",
          contentType: "application/pdf",
        },
      ],
    },
    new URL(d.link).origin,
  );
}

export interface QuoteReadyMailDetails {
  to: string;
  clientName: string;
  propertyAddress: string;
  item: ClientQuoteItem;
  /** The quote page of this one item (/quote-report/{token}). */
  link: string;
  supportEmail: string;
}

/**
 * "Your quote is ready" (docs/decisions.md#42): sent when a request is quoted or quoted again, with the quote as
 * a document, its page and My Home's Quotes, where it can be answered too.
 */
export function quoteReadyEmail(d: QuoteReadyMailDetails, pdf: Buffer): MailMessage {
  const origin = new URL(d.link).origin;
  const myHome = `${origin}/my-home/quotes#quote-${d.item.id}`;
  const rows = quoteRows(d.item);
  const lines = [
    `Hello ${d.clientName},`,
    "",
    `Your quote for ${d.item.taskTitle} at ${d.propertyAddress} is ready.`,
    "",
    ...textRows(rows),
    "",
    `See it and accept or decline it: ${d.link}`,
    `Or in My Home: ${myHome}`,
    "",
    "The quote is attached as a PDF.",
    "",
    `Questions? Reply to ${d.supportEmail}.`,
    "",
    "Haven",
  ];
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p>`,
    `<p>Your quote for <strong>${escapeHtml(d.item.taskTitle)}</strong> at ${escapeHtml(d.propertyAddress)} is ready.</p>`,
    `<table>${htmlRows(rows)}</table>`,
    `<p><a href="${escapeHtml(d.link)}">See it and accept or decline it</a></p>`,
    `<p>Or in My Home: <a href="${escapeHtml(myHome)}">${escapeHtml(myHome)}</a></p>`,
    `<p>The quote is attached as a PDF.</p><p>Questions? Reply to ${escapeHtml(d.supportEmail)}.</p><p>Haven</p>`,
  ].join("\n");
  return withCustomerFooter(
    {
      to: d.to,
      subject: `Your Haven quote is ready: ${d.item.taskTitle}`,
      template: "quote-ready",
      text: lines.join("\n"),
      html,
      attachments: [
        {
          filename: "haven-quote.pdf",
          content: pdf.toString("base64"),
          encoding: "base64",
          contentType: "application/pdf",
        },
      ],
    },
    origin,
  );
}
