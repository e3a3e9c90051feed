import { DEFAULT_LOCALE, localePath } from "../../i18n/index.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import { mailText, myHomeLine } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { escapeHtml } from "../../shared/html.js";

/**
 * The sign-in e-mail: a link (15 minutes, once) and the same sign-in as a 6-digit code, in the customer's language;
 * the link opens the sign-in page in it.
 */
export function signInEmail(d: {
  to: string;
  url: string;
  code: string | null;
  publicUrl: string;
  supportEmail: string;
  locale?: RenderLocale;
}): MailMessage {
  const locale = d.locale ?? DEFAULT_LOCALE;
  const { t } = mailText(locale);
  const link = new URL(d.url);
  const url = `${link.origin}${localePath(`${link.pathname}${link.search}`, intlLocale(locale))}`;
  const lines = [
    t("mail.greetingNoName"),
    "",
    t("mail.signIn.lead"),
    url,
    "",
    ...(d.code ? [t("mail.signIn.code", { code: d.code }), ""] : []),
    t("mail.signIn.ignore"),
    "",
    myHomeLine(d.publicUrl, locale),
    t("mail.signIn.questions", { email: d.supportEmail }),
  ];
  const html = [
    `<p>${t.html("mail.greetingNoName")}</p>`,
    `<p>${t.html("mail.signIn.lead")}</p>`,
    `<p><a href="${escapeHtml(url)}">${t.html("mail.signIn.link")}</a></p>`,
    d.code
      ? `<p>${t.html(
          "mail.signIn.codeHtml",
          { code: d.code },
          { big: (inner) => `<strong style="font-size:1.25em;letter-spacing:0.15em">${inner}</strong>` },
        )}</p>`
      : "",
    `<p>${t.html("mail.signIn.ignore")}</p>`,
    `<p>${escapeHtml(myHomeLine(d.publicUrl, locale))}<br>${t.html("mail.signIn.questions", { email: d.supportEmail })}</p>`,
  ].join("\n");
  return {
    template: "home-sign-in",
    to: d.to,
    subject: t("mail.signIn.subject", { withCode: d.code ? "yes" : "no" }),
    text: lines.join("\n"),
    html,
  };
}
