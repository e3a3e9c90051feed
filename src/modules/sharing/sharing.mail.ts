import type { MailMessage } from "../mail/mail.schemas.js";
import { withCustomerFooter } from "../mail/index.js";
import { escapeHtml } from "../../shared/html.js";

export interface ReportSharedDetails {
  to: string;
  link: string;
  propertyAddress: string;
  /** Set when the report goes to the home's own client; anyone else is greeted without a name. */
  recipientName?: string | null;
  expiresAt: string;
  supportEmail: string;
}

/** 'Your Haven Health Report': the one-time link and the summary PDF (attached by the job). */
export function reportSharedEmail(d: ReportSharedDetails, pdf: Buffer | null): MailMessage {
  const expires = new Date(d.expiresAt).toLocaleDateString("en-CA", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  const greeting = d.recipientName ? `Hello ${d.recipientName},` : "Hello,";
  const lines = [
    greeting,
    "",
    `Your Haven Health Report for ${d.propertyAddress} is ready.`,
    "",
    `View your report and request quotes: ${d.link}`,
    "",
    `For your privacy the link opens in one browser only, the first one you open it in, until ${expires}.`,
    pdf ? "A one-page summary is attached as a PDF." : "",
    "",
    `Questions? Reply to ${d.supportEmail}.`,
    "",
    "Haven",
  ];
  const html = [
    `<p>${escapeHtml(greeting)}</p><p>Your Haven Health Report for ${escapeHtml(d.propertyAddress)} is ready.</p>`,
    `<p><a href="${escapeHtml(d.link)}">View your report and request quotes</a></p>`,
    `<p>For your privacy the link opens in one browser only, the first one you open it in, until ${escapeHtml(expires)}.</p>`,
    pdf ? "<p>A one-page summary is attached as a PDF.</p>" : "",
    `<p>Questions? Reply to ${escapeHtml(d.supportEmail)}.</p><p>Haven</p>`,
  ].join("\n");
  // The link is on PUBLIC_URL: My Home is beside it.
  return withCustomerFooter(
    {
      to: d.to,
      subject: "Your Haven Health Report is ready",
      text: lines.join("\n"),
      html,
      attachments: pdf
        ? [
            {
              filename: "haven-health-report-summary.pdf",
              content: pdf.toString("base64"),
              encoding: "base64",
              contentType: "application/pdf",
            },
          ]
        : undefined,
    },
    new URL(d.link).origin,
  );
}
