import { createEvent } from "ics";
import { escapeHtml } from "../../../shared/html.js";
import { withCustomerFooter } from "../customer-footer.js";
import type { MailMessage } from "../mail.schemas.js";
import { type Translator, phoneText } from "../../../i18n/index.js";
import type { RenderLocale } from "../../../i18n/locales.js";
import { mailText } from "../mail-text.js";

export interface BookingRescheduledDetails {
  bookingId: number;
  to: string;
  name: string;
  /** The date and time it had, and the ones it has now ('Monday, January 12, 2026', 'Afternoon (12:00 PM - 5:00 PM)'). */
  was: { dateLabel: string; timeLabel: string };
  dateLabel: string;
  timeLabel: string;
  location: string;
  /** The new visit (or arrival window): its start and length, for the .ics. */
  start: Date;
  minutes: number;
  /** The .ics SEQUENCE: above the confirmation's 0 and every earlier move's (the move's instant in seconds). */
  sequence: number;
  supportEmail: string;
  supportPhone: string;
  publicUrl?: string;
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

/**
 * The same event as the confirmation's (same UID) with a later SEQUENCE, so a calendar app moves the visit it
 * already holds instead of adding a second one (RFC 5545 §3.8.7.4).
 */
function movedEvent(d: BookingRescheduledDetails, t: Translator): string {
  const { error, value } = createEvent({
    uid: `booking-${d.bookingId}@havenhomehealth.ca`,
    productId: "haven/bookings",
    sequence: d.sequence,
    start: d.start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: d.minutes },
    title: t("mail.rescheduled.ics.title"),
    description: t("mail.rescheduled.ics.description", { date: d.dateLabel, time: d.timeLabel }),
    location: d.location,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    organizer: { name: "Haven", email: d.supportEmail },
  });
  if (error || !value) throw error ?? new Error("Could not build the calendar file");
  return value;
}

/**
 * A moved inspection (staff or the homeowner moved it): what it was and what it is now, in the customer's language.
 * It carries no notes: the booking's notes are the office's (who moved it, from where), not the customer's.
 */
export function bookingRescheduledEmail(d: BookingRescheduledDetails): MailMessage {
  const { t } = mailText(d.locale);
  const lines = [
    t("mail.greeting", { name: d.name }),
    "",
    t("mail.rescheduled.lead"),
    "",
    t("mail.rescheduled.newDate", { date: d.dateLabel }),
    t("mail.rescheduled.newTime", { time: d.timeLabel }),
    t("mail.rescheduled.was", { date: d.was.dateLabel, time: d.was.timeLabel }),
    t("mail.booking.address", { address: d.location }),
    "",
    t("mail.rescheduled.replaces"),
    "",
    t("mail.rescheduled.questions", { phone: phoneText(t.locale, d.supportPhone) }),
    "",
    t("mail.signature"),
  ];
  return withCustomerFooter(
    {
      template: "booking-rescheduled",
      to: d.to,
      subject: t("mail.rescheduled.subject", { date: d.dateLabel }),
      text: lines.join("\n"),
      html: `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`,
      attachments: [
        {
          filename: "haven-inspection.ics",
          content: movedEvent(d, t),
          contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        },
      ],
    },
    d.publicUrl,
    d.locale,
  );
}
