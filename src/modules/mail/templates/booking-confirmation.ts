import { createEvent } from "ics";
import type { MailMessage } from "../mail.schemas.js";
import { withCustomerFooter } from "../customer-footer.js";
import { escapeHtml } from "../../../shared/html.js";
import { type Translator, phoneText } from "../../../i18n/index.js";
import type { RenderLocale } from "../../../i18n/locales.js";
import { mailText, visitSentence } from "../mail-text.js";

export interface BookingConfirmationDetails {
  bookingId: number;
  to: string;
  name: string;
  /** 'Monday, January 12, 2026' */
  dateLabel: string;
  /** '9:30 AM' or 'Morning (8:00 AM - 12:00 PM)' */
  timeLabel: string;
  /** One line: street, city, region postal code. */
  location: string;
  accessLabel: string | null;
  accessInstructions: string | null;
  hasAccessCode: boolean;
  specialRequests: string | null;
  /** When the visit (or its arrival window) starts, and for how long. */
  start: Date;
  minutes: number;
  /** How long the calendar holds the visit for this home (docs/decisions.md#37: 2 to 4 hours by size; #59). */
  inspectionMinutes?: number;
  supportEmail: string;
  supportPhone: string;
  /** PUBLIC_URL, for the My Home line. */
  publicUrl?: string;
  /** The customer's language (customers.locale); English unless given. */
  locale?: RenderLocale;
}

function calendarFile(d: BookingConfirmationDetails, t: Translator): string {
  const { error, value } = createEvent({
    uid: `booking-${d.bookingId}@havenhomehealth.ca`,
    productId: "haven/bookings",
    start: d.start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: d.minutes },
    title: t("mail.booking.ics.title"),
    description: t("mail.booking.ics.description", {
      time: d.timeLabel,
      visitLength: visitSentence(t, d.inspectionMinutes ?? d.minutes),
    }),
    location: d.location,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    organizer: { name: "Haven", email: d.supportEmail },
  });
  if (error || !value) throw error ?? new Error("Could not build the calendar file");
  return value;
}

/**
 * The booking confirmation e-mail: date, time, address and access notes, with an .ics invitation, in the
 * customer's language (the labels arrive in it: bookings' booking-mail.ts).
 */
export function bookingConfirmationEmail(d: BookingConfirmationDetails): MailMessage {
  const { t } = mailText(d.locale);
  const access = [
    d.accessLabel && t("mail.booking.access", { access: d.accessLabel }),
    d.hasAccessCode && t("mail.booking.accessCode"),
    d.accessInstructions && t("mail.booking.accessInstructions", { instructions: d.accessInstructions }),
  ].filter(Boolean) as string[];
  const lines = [
    t("mail.greeting", { name: d.name }),
    "",
    t("mail.booking.booked"),
    "",
    t("mail.booking.date", { date: d.dateLabel }),
    t("mail.booking.time", { time: d.timeLabel }),
    t("mail.booking.address", { address: d.location }),
    ...access,
    ...(d.specialRequests ? [t("mail.booking.specialRequests", { requests: d.specialRequests })] : []),
    "",
    t("mail.booking.next"),
    visitSentence(t, d.inspectionMinutes ?? d.minutes),
    "",
    t("mail.booking.questions", { email: d.supportEmail, phone: phoneText(t.locale, d.supportPhone) }),
    "",
    t("mail.signature"),
  ];
  const html = `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`;
  return withCustomerFooter(
    {
      template: "booking-confirmation",
      to: d.to,
      subject: t("mail.booking.subject", { date: d.dateLabel }),
      text: lines.join("\n"),
      html,
      attachments: [
        {
          filename: "haven-inspection.ics",
          content: calendarFile(d, t),
          contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        },
      ],
    },
    d.publicUrl,
    d.locale,
  );
}
