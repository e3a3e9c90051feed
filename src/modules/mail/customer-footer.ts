import { DEFAULT_LOCALE, localePath, translator } from "../../i18n/index.js";
import { type RenderLocale, intlLocale } from "../../i18n/locales.js";
import { escapeHtml } from "../../shared/html.js";
import type { MailMessage } from "./mail.schemas.js";

/** My Home's address in the customer's language: /my-home, /fr/my-home (docs/decisions.md#65). */
const myHomeUrl = (publicUrl: string, locale: RenderLocale) =>
  `${publicUrl.replace(/\/+$/, "")}${localePath("/my-home", intlLocale(locale))}`;

/** The line every e-mail to a customer carries: My Home's address, a way in from every message (docs/decisions.md#30). */
export const myHomeLine = (publicUrl: string, locale: RenderLocale = DEFAULT_LOCALE) =>
  translator(locale)("mail.footer.myHome", { url: myHomeUrl(publicUrl, locale) });

/**
 * Adds the customer footer (the My Home line) to an e-mail, text and HTML, from the site's public URL, in the
 * customer's language. Without a public URL the message is left as it is.
 */
export function withCustomerFooter(
  message: MailMessage,
  publicUrl: string | undefined,
  locale: RenderLocale = DEFAULT_LOCALE,
): MailMessage {
  if (!publicUrl) return message;
  const url = myHomeUrl(publicUrl, locale);
  const slot = "\u0000url\u0000";
  const line = translator(locale).html("mail.footer.myHome", { url: slot });
  return {
    ...message,
    text: `${message.text}\n\n${myHomeLine(publicUrl, locale)}`,
    ...(message.html === undefined
      ? {}
      : {
          html: `${message.html}\n<p>${line.replace(slot, `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`)}</p>`,
        }),
  };
}
