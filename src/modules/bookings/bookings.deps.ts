// What BookingsService (bookings.service.ts) is built with: its settings and the services it uses.
import type { Tx, TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import type { CustomersService } from "../customers/index.js";
import type { MailService } from "../mail/index.js";
import type { Notifications } from "../notifications/index.js";
import type { Booking } from "./bookings.schemas.js";
import type { InspectorsService } from "./inspectors.service.js";

export interface BookingSettings {
  timeZone: string;
  supportEmail: string;
  supportPhone: string;
  /** PUBLIC_URL, for the My Home line of the confirmation e-mail. */
  publicUrl?: string;
}

/** What the bookings service uses besides its repository; src/container.ts builds them first. */
export interface BookingsDeps {
  customers: CustomersService;
  mail: MailService;
  transaction: TransactionRunner;
  settings: BookingSettings;
  /** Inspectors' calendars (docs/decisions.md#37): who is free when. */
  inspectors: InspectorsService;
  /** The audit trail: staff bookings, moves, cancellations and reassignments (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  /** The staff bell: a homeowner's reschedule or cancellation in My Home (notifications README). */
  notifications?: Pick<Notifications, "raise"> | null;
  /**
   * A port: a booking was made, in its transaction (container.ts passes the plan's annual inspection, which a
   * booked inspection moves to a year after it: docs/decisions.md#26).
   */
  onBooked?: ((tx: Tx, booking: Booking) => Promise<void>) | null;
}
