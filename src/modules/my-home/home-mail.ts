import { myHomeLine } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { escapeHtml } from "../../shared/html.js";

/** The sign-in e-mail: a link (15 minutes, once) and the same sign-in as a 6-digit code. */
export function signInEmail(d: {
  to: string;
  url: string;
  code: string | null;
  publicUrl: string;
  supportEmail: string;
}): MailMessage {
  const lines = [
    "Hello,",
    "",
    "Use this link to sign in to My Home, Haven's homeowner portal. It works once, within 15 minutes:",
    d.url,
    "",
    ...(d.code ? [`Or type this code on the sign-in page: ${d.code}`, ""] : []),
    "If you did not ask to sign in, you can ignore this e-mail; nobody can sign in without it.",
    "",
    myHomeLine(d.publicUrl),
    `Questions? ${d.supportEmail}`,
  ];
  const html = [
    "<p>Hello,</p>",
    "<p>Use this link to sign in to My Home, Haven's homeowner portal. It works once, within 15 minutes:</p>",
    `<p><a href="${escapeHtml(d.url)}">Sign in to My Home</a></p>`,
    d.code
      ? `<p>Or type this code on the sign-in page: <strong style="font-size:1.25em;letter-spacing:0.15em">${escapeHtml(d.code)}</strong></p>`
      : "",
    "<p>If you did not ask to sign in, you can ignore this e-mail; nobody can sign in without it.</p>",
    `<p>${escapeHtml(myHomeLine(d.publicUrl))}<br>Questions? ${escapeHtml(d.supportEmail)}</p>`,
  ].join("\n");
  return {
    template: "home-sign-in",
    to: d.to,
    subject: d.code ? "Your Haven sign-in link and code" : "Your Haven sign-in link",
    text: lines.join("\n"),
    html,
  };
}
