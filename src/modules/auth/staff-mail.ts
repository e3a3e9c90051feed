import { escapeHtml } from "../../shared/html.js";

/**
 * A message as the mail module queues it (its MailMessage): auth sits beside mail in the lowest layer, so it
 * builds the plain JSON and src/container.ts passes MailService.enqueue as the port.
 */
export interface StaffMail {
  template: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The invitation (48 hours) or the password-reset link, both to /staff/set-password (docs/decisions.md#38). */
export function staffLinkEmail(d: {
  purpose: "invite" | "reset";
  to: string;
  firstName: string;
  url: string;
  hours: number;
  sentBy: string;
}): StaffMail {
  const invite = d.purpose === "invite";
  const intro = invite
    ? `${d.sentBy} invited you to Haven's staff portal. Choose a password to open your account:`
    : `${d.sentBy} sent you a link to choose a new password for Haven's staff portal:`;
  const validity = `The link works once, within ${d.hours} hours.`;
  const ignore = invite
    ? "If you did not expect this invitation, you can ignore this e-mail."
    : "If you did not ask for this, you can ignore this e-mail: your password stays as it is.";
  return {
    template: invite ? "staff-invite" : "staff-password-reset",
    to: d.to,
    subject: invite ? "You are invited to Haven's staff portal" : "Choose a new Haven password",
    text: [`Hello ${d.firstName},`, "", intro, d.url, "", validity, ignore].join("\n"),
    html: [
      `<p>Hello ${escapeHtml(d.firstName)},</p>`,
      `<p>${escapeHtml(intro)}</p>`,
      `<p><a href="${escapeHtml(d.url)}">${invite ? "Choose your password" : "Choose a new password"}</a></p>`,
      `<p>${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`,
    ].join("\n"),
  };
}
