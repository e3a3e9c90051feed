import { escapeHtml } from "../../shared/html.js";
import type { MailMessage } from "./mail.schemas.js";

/** The line every e-mail to a customer carries: My Home's address, a way in from every message (docs/decisions.md#30). */
export const myHomeLine = (publicUrl: string) => `My Home: ${publicUrl.replace(/\/+$/, "")}/my-home`;

/**
 * Adds the customer footer (the My Home line) to an e-mail, text and HTML, from the site's public URL.
 * Without a public URL the message is left as it is.
 */
export function withCustomerFooter(message: MailMessage, publicUrl: string | undefined): MailMessage {
  if (!publicUrl) return message;
  const url = `${publicUrl.replace(/\/+$/, "")}/my-home`;
  return {
    ...message,
    text: `${message.text}\n\n${myHomeLine(publicUrl)}`,
    ...(message.html === undefined
      ? {}
      : { html: `${message.html}\n<p>My Home: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>` }),
  };
}
