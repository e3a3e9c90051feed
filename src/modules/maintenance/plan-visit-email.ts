// The homeowner's confirmation of a plan visit they moved, skipped or restored in My Home (docs/decisions.md#44).
// A move carries the visit as an .ics with the task's UID, so a calendar app moves the event rather than add one.
import { withCustomerFooter } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { escapeHtml } from "../../shared/html.js";

export interface PlanVisitChangeDetails {
  to: string;
  name: string;
  action: "move" | "skip" | "unskip";
  /** 'Lawn maintenance' */
  what: string;
  location: string;
  /** 'Tuesday, June 9, 2026' */
  dateLabel: string;
  /** The date it had before a move. */
  previousDateLabel?: string;
  /** '8 AM–5 PM' */
  timeLabel: string;
  /** The visit's calendar file (move and restore). */
  ics?: string;
  supportEmail: string;
  supportPhone: string;
  publicUrl?: string;
}

export function planVisitChangeEmail(d: PlanVisitChangeDetails): MailMessage {
  const subject =
    d.action === "move"
      ? `${d.what} moved to ${d.dateLabel}`
      : d.action === "skip"
        ? `${d.what} on ${d.dateLabel} is skipped`
        : `${d.what} on ${d.dateLabel} is back on`;
  const what =
    d.action === "move"
      ? [
          `You moved your ${d.what.toLowerCase()} visit.`,
          "",
          `Was: ${d.previousDateLabel}`,
          `Now: ${d.dateLabel}, ${d.timeLabel}`,
        ]
      : d.action === "skip"
        ? [
            `You skipped your ${d.what.toLowerCase()} visit of ${d.dateLabel}: nobody comes that day.`,
            "You can restore it in My Home, Visits, until the day before.",
          ]
        : [`Your ${d.what.toLowerCase()} visit is back on: ${d.dateLabel}, ${d.timeLabel}.`];
  const lines = [
    `Hello ${d.name},`,
    "",
    ...what,
    `Address: ${d.location}`,
    "",
    ...(d.ics ? ["The attached calendar file updates the visit in your calendar.", ""] : []),
    `Questions? Reply to ${d.supportEmail} or call ${d.supportPhone}.`,
    "",
    "Haven",
  ];
  return withCustomerFooter(
    {
      to: d.to,
      subject,
      template: `plan-visit-${d.action}`,
      text: lines.join("\n"),
      html: `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`,
      attachments: d.ics
        ? [{ filename: "haven-visit.ics", content: d.ics, contentType: "text/calendar; charset=utf-8; method=PUBLISH" }]
        : [],
    },
    d.publicUrl,
  );
}
