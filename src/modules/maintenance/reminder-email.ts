import type { MailMessage } from "../mail/mail.schemas.js";
import type { RenderLocale } from "../../i18n/locales.js";
import { phoneText } from "../../i18n/index.js";
import { mailText, withCustomerFooter } from "../mail/index.js";
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
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

/** The day-before reminder of a booking or a maintenance task, with the visit as an .ics, in the customer's language. */
export function reminderEmail(d: ReminderDetails): MailMessage {
  const { t } = mailText(d.locale);
  const lines = [
    t("mail.greeting", { name: d.name }),
    "",
    t("mail.reminder.lead", { what: d.what }),
    "",
    t("mail.booking.date", { date: d.dateLabel }),
    t("mail.booking.time", { time: d.timeLabel }),
    t("mail.booking.address", { address: d.location }),
    ...(d.durationLabel ? [t("mail.reminder.duration", { duration: d.durationLabel })] : []),
    "",
    t("mail.reminder.calendar"),
    t("mail.reminder.change", { email: d.supportEmail, phone: phoneText(t.locale, d.supportPhone) }),
    "",
    t("mail.signature"),
  ];
  return withCustomerFooter(
    {
      to: d.to,
      subject: t("mail.reminder.subject", { what: d.what, date: d.dateLabel }),
      text: lines.join("\n"),
      html: `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`,
      attachments: [
        { filename: "haven-reminder.ics", content: d.ics, contentType: "text/calendar; charset=utf-8; method=PUBLISH" },
      ],
    },
    d.publicUrl,
    d.locale,
  );
}
