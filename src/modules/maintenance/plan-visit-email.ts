// The homeowner's confirmation of a plan visit they moved, skipped or restored in My Home (docs/decisions.md#44).
// A move carries the visit as an .ics with the task's UID, so a calendar app moves the event rather than add one.
import { withCustomerFooter } from "../mail/index.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import { escapeHtml } from "../../shared/html.js";
import { DEFAULT_LOCALE, translator, phoneText } from "../../i18n/index.js";
import type { RenderLocale } from "../../i18n/locales.js";

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
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

export function planVisitChangeEmail(d: PlanVisitChangeDetails): MailMessage {
  const t = translator(d.locale ?? DEFAULT_LOCALE);
  // English says the title inside its sentence in lower case ("your lawn maintenance visit"); French as named.
  const inSentence = t.locale === DEFAULT_LOCALE ? d.what.toLowerCase() : d.what;
  const subject = t("maintenance-mail.planVisit.subject", { action: d.action, what: d.what, date: d.dateLabel });
  const what =
    d.action === "move"
      ? [
          t("maintenance-mail.planVisit.moved", { what: inSentence }),
          "",
          t("maintenance-mail.planVisit.was", { date: d.previousDateLabel ?? "" }),
          t("maintenance-mail.planVisit.now", { date: d.dateLabel, time: d.timeLabel }),
        ]
      : d.action === "skip"
        ? [
            t("maintenance-mail.planVisit.skipped", { what: inSentence, date: d.dateLabel }),
            t("maintenance-mail.planVisit.restoreHint"),
          ]
        : [t("maintenance-mail.planVisit.restored", { what: inSentence, date: d.dateLabel, time: d.timeLabel })];
  const lines = [
    t("mail.greeting", { name: d.name }),
    "",
    ...what,
    t("maintenance-mail.planVisit.address", { address: d.location }),
    "",
    ...(d.ics ? [t("maintenance-mail.planVisit.calendar"), ""] : []),
    t("mail.booking.questions", { email: d.supportEmail, phone: phoneText(t.locale, d.supportPhone) }),
    "",
    t("mail.signature"),
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
    d.locale,
  );
}
