import type { MailMessage } from "../mail/mail.schemas.js";
import { withCustomerFooter } from "../mail/index.js";
import { escapeHtml } from "../../shared/html.js";

export interface ReminderDetails {
  to: string;
  name: string;
  /** 'Tuesday, November 24, 2026' */
  dateLabel: string;
  /** '10:00 AM' or 'Morning (8:00 AM - 12:00 PM)' */
  timeLabel: string;
  /** 'Gutter cleaning' or 'Your Haven home inspection' */
  what: string;
  location: string;
  durationLabel: string | null;
  ics: string;
  supportEmail: string;
  supportPhone: string;
  /** PUBLIC_URL, for the My Home line. */
  publicUrl?: string;
}

/** The day-before reminder of a booking or a maintenance task, with the visit as an .ics. */
export function reminderEmail(d: ReminderDetails): MailMessage {
  const lines = [
    `Hello ${d.name},`,
    "",
    `A reminder from Haven: ${d.what} is tomorrow.`,
    "",
    `Date: ${d.dateLabel}`,
    `Time: ${d.timeLabel}`,
    `Address: ${d.location}`,
    ...(d.durationLabel ? [`Expected duration: ${d.durationLabel}`] : []),
    "",
    "The attached calendar file adds the visit to your calendar.",
    `Need to change it? Reply to ${d.supportEmail} or call ${d.supportPhone}.`,
    "",
    "Haven",
  ];
  return withCustomerFooter(
    {
      to: d.to,
      subject: `Reminder: ${d.what} tomorrow, ${d.dateLabel}`,
      text: lines.join("\n"),
      html: `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`,
      attachments: [
        { filename: "haven-reminder.ics", content: d.ics, contentType: "text/calendar; charset=utf-8; method=PUBLISH" },
      ],
    },
    d.publicUrl,
  );
}
