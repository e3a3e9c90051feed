// The e-mails a booking sends (bookings README): its confirmation, and "rescheduled" when it moves, each with an
// .ics, queued in the caller's transaction so an e-mail exists only if its change does.
import type { Tx } from "../../db/transaction.js";
import { DEFAULT_LOCALE, isLocale } from "../../i18n/index.js";
import { DAY_PARTS, slotWindow, zonedInstant } from "../../shared/business-time.js";
import {
  type MailService,
  bookingConfirmationEmail,
  accessMethodText,
  bookingRescheduledEmail,
  mailText,
  slotText,
} from "../mail/index.js";
import { inspectionMinutes } from "./availability.js";
import type { BookingsRepository } from "./bookings.repository.js";
import type { Booking } from "./bookings.schemas.js";

/** The settings the e-mails read (BookingsService's BookingSettings). */
interface BookingMailSettings {
  timeZone: string;
  supportEmail: string;
  supportPhone: string;
  publicUrl?: string;
}

/** What the booking e-mails use; BookingsService passes its own. */
export interface BookingMailDeps {
  mail: MailService;
  bookings: Pick<BookingsRepository, "propertySize" | "customerLocale">;
  settings: BookingMailSettings;
}

export class BookingMail {
  private readonly mail: MailService;
  private readonly bookings: BookingMailDeps["bookings"];
  private readonly settings: BookingMailSettings;

  constructor(deps: BookingMailDeps) {
    ({ mail: this.mail, bookings: this.bookings, settings: this.settings } = deps);
  }

  /** Queues the booking's confirmation e-mail (with its .ics) in the caller's transaction. */
  async confirmation(tx: Tx, saved: Booking, recipient: { email: string; name: string }): Promise<void> {
    // The .ics and the text follow the time the booking really holds (docs/decisions.md#37): a clock slot lasts
    // the home's inspection length, a part of the day its window.
    const minutes = inspectionMinutes(await this.bookings.propertySize(saved.propertyId, tx));
    const isPart = saved.timeSlot in DAY_PARTS;
    const slot = slotWindow(saved.timeSlot);
    const window = slot ? { start: slot.start, minutes: isPart ? slot.minutes : minutes } : { start: "09:00", minutes };
    const region = [saved.state ?? saved.province, saved.postalCode].filter(Boolean).join(" ");
    // In the customer's language (docs/decisions.md#65), whatever page or staff screen made the booking.
    const { t, f, locale } = await this.language(saved.propertyId, tx);
    await this.mail.enqueue(
      tx,
      bookingConfirmationEmail({
        bookingId: saved.id,
        to: recipient.email,
        name: recipient.name,
        dateLabel: f.longDate(saved.scheduledDate),
        timeLabel: slotText(t, saved.timeSlot),
        location: [saved.address, saved.city, region].filter(Boolean).join(", "),
        accessLabel: saved.accessMethod ? accessMethodText(t, saved.accessMethod) : null,
        accessInstructions: saved.accessInstructions,
        hasAccessCode: Boolean(saved.accessCode),
        specialRequests: saved.specialRequests ?? saved.notes,
        start: zonedInstant(saved.scheduledDate, window.start, this.settings.timeZone),
        minutes: window.minutes,
        inspectionMinutes: minutes,
        supportEmail: this.settings.supportEmail,
        supportPhone: this.settings.supportPhone,
        publicUrl: this.settings.publicUrl,
        locale,
      }),
    );
  }

  /** The customer's language and its formats in the business zone. */
  private async language(propertyId: number, tx: Tx) {
    const stored = await this.bookings.customerLocale(propertyId, tx);
    return mailText(isLocale(stored) ? stored : DEFAULT_LOCALE, this.settings.timeZone);
  }

  /**
   * A moved booking's e-mail: "rescheduled", with the old and the new time and an .ics replacing the first (same
   * UID, later SEQUENCE). The booking's notes stay out: they are the office's ("Rescheduled by the homeowner…").
   */
  async rescheduled(tx: Tx, was: Booking, moved: Booking, now: Date = new Date()): Promise<void> {
    const minutes = inspectionMinutes(await this.bookings.propertySize(moved.propertyId, tx));
    const slot = slotWindow(moved.timeSlot);
    const window = slot ? { start: slot.start, minutes: moved.timeSlot in DAY_PARTS ? slot.minutes : minutes } : null;
    const region = [moved.state ?? moved.province, moved.postalCode].filter(Boolean).join(" ");
    const { t, f, locale } = await this.language(moved.propertyId, tx);
    await this.mail.enqueue(
      tx,
      bookingRescheduledEmail({
        bookingId: moved.id,
        to: moved.clientEmail,
        name: moved.clientName,
        was: { dateLabel: f.longDate(was.scheduledDate), timeLabel: slotText(t, was.timeSlot) },
        dateLabel: f.longDate(moved.scheduledDate),
        timeLabel: slotText(t, moved.timeSlot),
        location: [moved.address, moved.city, region].filter(Boolean).join(", "),
        start: zonedInstant(moved.scheduledDate, window?.start ?? "09:00", this.settings.timeZone),
        minutes: window?.minutes ?? minutes,
        sequence: Math.floor(now.getTime() / 1000),
        supportEmail: this.settings.supportEmail,
        supportPhone: this.settings.supportPhone,
        publicUrl: this.settings.publicUrl,
        locale,
      }),
    );
  }
}
