import { DEFAULT_LOCALE, localePath } from "../../i18n/index.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { mailText, withCustomerFooter } from "../mail/index.js";
import { escapeHtml } from "../../shared/html.js";

export interface ReportSharedDetails {
  to: string;
  link: string;
  propertyAddress: string;
  /** Set when the report goes to the home's own client; anyone else is greeted without a name. */
  recipientName?: string | null;
  expiresAt: string;
  supportEmail: string;
  /** The home's customer's language (customers.locale): the e-mail and the page its link opens. */
  locale?: RenderLocale;
}

/** 'Your Haven Health Report': the one-time link and the summary PDF (attached by the job). */
export function reportSharedEmail(d: ReportSharedDetails, pdf: Buffer | null): MailMessage {
  const locale = d.locale ?? DEFAULT_LOCALE;
  const { t, f } = mailText(locale);
  const expires = f.dateTime(d.expiresAt, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  const page = new URL(d.link);
  const link = `${page.origin}${localePath(`${page.pathname}${page.search}`, intlLocale(locale))}`;
  const greeting = d.recipientName ? t("mail.greeting", { name: d.recipientName }) : t("mail.greetingNoName");
  const lines = [
    greeting,
    "",
    t("mail.shared.ready", { address: d.propertyAddress }),
    "",
    t("mail.shared.view", { link }),
    "",
    t("mail.shared.privacy", { date: expires }),
    pdf ? t("mail.shared.pdf") : "",
    "",
    t("mail.shared.questions", { email: d.supportEmail }),
    "",
    t("mail.signature"),
  ];
  const html = [
    `<p>${escapeHtml(greeting)}</p><p>${t.html("mail.shared.ready", { address: d.propertyAddress })}</p>`,
    `<p><a href="${escapeHtml(link)}">${t.html("mail.shared.viewLink")}</a></p>`,
    `<p>${t.html("mail.shared.privacy", { date: expires })}</p>`,
    pdf ? `<p>${t.html("mail.shared.pdf")}</p>` : "",
    `<p>${t.html("mail.shared.questions", { email: d.supportEmail })}</p><p>${t.html("mail.signature")}</p>`,
  ].join("\n");
  // The link is on PUBLIC_URL: My Home is beside it.
  return withCustomerFooter(
    {
      to: d.to,
      subject: t("mail.shared.subject"),
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
    page.origin,
    locale,
  );
}
