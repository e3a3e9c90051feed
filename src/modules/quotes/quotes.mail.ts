import type { MailMessage } from "../mail/mail.schemas.js";
import { withCustomerFooter } from "../mail/index.js";
import { type ClientQuoteItem, formatCents } from "./quotes.constants.js";
import { escapeHtml } from "../../shared/html.js";

export interface QuoteReportMailDetails {
  to: string;
  clientName: string;
  propertyAddress: string;
  items: ClientQuoteItem[];
  totalCents: number | null;
  link: string;
  supportEmail: string;
}

/** The quote report e-mail: every quoted item with its amount, the total, the page link and the PDF. */
export function quoteReportEmail(d: QuoteReportMailDetails, pdf: Buffer): MailMessage {
  const total = d.totalCents === null ? "See items" : formatCents(d.totalCents);
  const lines = [
    `Hello ${d.clientName},`,
    "",
    `Here are our quotes for ${d.propertyAddress}:`,
    "",
    ...d.items.map((item) => `- ${item.taskTitle}: ${item.quotedAmount ?? ""}`),
    "",
    `Total: ${total}`,
    "",
    `Accept or decline each item in one click: ${d.link}`,
    "",
    "The quote report is attached as a PDF.",
    "",
    `Questions? Reply to ${d.supportEmail}.`,
    "",
    "Haven",
  ];
  const rows = d.items
    .map(
      (item) =>
        `<tr><td>${escapeHtml(item.taskTitle)}</td><td style="text-align:right">${escapeHtml(item.quotedAmount ?? "")}</td></tr>`,
    )
    .join("");
  const html = [
    `<p>Hello ${escapeHtml(d.clientName)},</p><p>Here are our quotes for ${escapeHtml(d.propertyAddress)}:</p>`,
    `<table>${rows}<tr><th style="text-align:left">Total</th><th style="text-align:right">${escapeHtml(total)}</th></tr></table>`,
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
