import { createEvent } from "ics";
import type { MailMessage } from "../mail.schemas.js";
import { withCustomerFooter } from "../customer-footer.js";
import { escapeHtml } from "../../../shared/html.js";
import { visitLengthSentence } from "../../../shared/visit-length.js";

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
}

function calendarFile(d: BookingConfirmationDetails): string {
  const { error, value } = createEvent({
    uid: `booking-${d.bookingId}@havenhomehealth.ca`,
    productId: "haven/bookings",
    start: d.start.getTime(),
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: d.minutes },
    title: "Haven home inspection",
    description: `Your Haven 114-point home inspection. Time: ${d.timeLabel}. ${visitLengthSentence(d.inspectionMinutes ?? d.minutes)} Your inspector will contact you 24 hours before.`,
    location: d.location,
    status: "CONFIRMED",
    busyStatus: "BUSY",
    organizer: { name: "Haven", email: d.supportEmail },
  });
  if (error || !value) throw error ?? new Error("Could not build the calendar file");
  return value;
}

/** The booking confirmation e-mail: date, time, address and access notes, with an .ics invitation. */
export function bookingConfirmationEmail(d: BookingConfirmationDetails): MailMessage {
  const access = [
    d.accessLabel && `Access: ${d.accessLabel}`,
    d.hasAccessCode && "Access code: on file (we never send codes by e-mail)",
    d.accessInstructions && `Access instructions: ${d.accessInstructions}`,
  ].filter(Boolean) as string[];
  const lines = [
    `Hello ${d.name},`,
    "",
    "Your Haven inspection is booked.",
    "",
    `Date: ${d.dateLabel}`,
    `Time: ${d.timeLabel}`,
    `Address: ${d.location}`,
    ...access,
    ...(d.specialRequests ? [`Special requests: ${d.specialRequests}`] : []),
    "",
    `What happens next: your assigned inspector contacts you 24 hours before the visit, and your report arrives within 24 hours.`,
    visitLengthSentence(d.inspectionMinutes ?? d.minutes),
    "",
    `Questions? Reply to ${d.supportEmail} or call ${d.supportPhone}.`,
    "",
    "Haven",
  ];
  const html = `<p>${lines.map((l) => escapeHtml(l)).join("<br>\n")}</p>`;
  return withCustomerFooter(
    {
      template: "booking-confirmation",
      to: d.to,
      subject: `Your Haven inspection is booked for ${d.dateLabel}`,
      text: lines.join("\n"),
      html,
      attachments: [
        {
          filename: "haven-inspection.ics",
          content: calendarFile(d),
          contentType: "text/calendar; charset=utf-8; method=PUBLISH",
        },
      ],
    },
    d.publicUrl,
  );
}
