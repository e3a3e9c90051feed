// Staff move, reassign or cancel a scheduled booking from the maintenance calendar or the bookings desk, and
// My Home's homeowner does the same under its own rules (BookingsService.changeByStaff delegates here).
import type { TransactionRunner } from "../../db/transaction.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { AuditLog } from "../audit/index.js";
import type { Notifications } from "../notifications/index.js";
import type { BookingChangeInput } from "./booking-changes.schemas.js";
import type { BookingMail } from "./booking-mail.js";
import type { BookingPlacement } from "./booking-placement.js";
import type { BookingsRepository } from "./bookings.repository.js";
import type { Booking } from "./bookings.schemas.js";

/** My Home's part: its own rules checked on the locked row, and the note staff see. */
export interface StaffChangeOptions {
  check?: (current: Booking) => void;
  note?: (current: Booking) => string;
}

export interface StaffBookingChangesDeps {
  bookings: BookingsRepository;
  transaction: TransactionRunner;
  audit: Pick<AuditLog, "record">;
  notifications: Pick<Notifications, "raise"> | null;
  placement: BookingPlacement;
  emails: BookingMail;
}

export class StaffBookingChanges {
  constructor(private readonly deps: StaffBookingChangesDeps) {}

  /**
   * Staff move a scheduled booking to another date (and slot), under the wizard's date rule (checked by the
   * schema), or cancel it. Only a scheduled booking changes: a completed or cancelled one is a 409. A move
   * mails the client the confirmation of the new date, in the same transaction; the reminder follows the
   * new date (maintenance_reminders is keyed by date).
   */
  async change(id: number, input: BookingChangeInput, options: StaffChangeOptions = {}): Promise<Booking> {
    return this.deps.transaction(async (tx) => {
      const current = await this.deps.bookings.findForUpdate(id, tx);
      if (!current) throw new NotFoundError("Booking not found");
      if (current.status !== "scheduled")
        throw new ConflictError(
          `This booking is ${current.status}: only a scheduled booking can be ${input.status ? "cancelled" : "rescheduled"}`,
        );
      // My Home: the portal checks its own rules on the locked row and notes the change for staff.
      options.check?.(current);
      const note = options.note?.(current);
      // A change made from My Home (options.check) is the homeowner's, not staff's: it leaves no audit event.
      const audit = (action: string, after: Booking) =>
        options.check
          ? Promise.resolve()
          : this.deps.audit.record(tx, { action, recordType: "booking", recordId: id, before: current, after });
      // ...but the office hears of it (the bell), in the same transaction.
      const homeowner = (kind: "booking-cancelled" | "booking-rescheduled", text: string) =>
        options.check
          ? this.deps.notifications?.raise(tx, {
              kind,
              recordType: "booking",
              recordId: id,
              link: `/admin/properties/${current.propertyId}`,
              text: `${current.clientName} ${text} (${current.address})`,
            })
          : undefined;
      if (input.status === "cancelled") {
        const cancelled = await this.deps.bookings.change(id, { status: "cancelled", note }, tx);
        await audit("booking.cancel", cancelled);
        await homeowner("booking-cancelled", `cancelled the inspection of ${current.scheduledDate}`);
        return cancelled;
      }
      const date = input.scheduledDate ?? current.scheduledDate;
      const slot = input.timeSlot ?? current.timeSlot;
      const change = { scheduledDate: input.scheduledDate, timeSlot: input.timeSlot, note };
      const moved =
        input.inspectorId !== undefined
          ? await this.deps.placement.reassign(tx, current, input.inspectorId, date, slot, change)
          : await this.deps.placement.place(
              tx,
              { date, slot, propertyId: current.propertyId, bookingId: id, keep: current.inspectorId },
              (placement, trx) => this.deps.bookings.change(id, { ...change, ...placement }, trx),
              "No inspector is free at that time",
            );
      if (moved.scheduledDate !== current.scheduledDate || moved.timeSlot !== current.timeSlot)
        await this.deps.emails.rescheduled(tx, current, moved);
      await audit(input.inspectorId !== undefined ? "booking.reassign" : "booking.move", moved);
      await homeowner(
        "booking-rescheduled",
        `moved the inspection of ${current.scheduledDate} to ${moved.scheduledDate}, ${moved.timeSlot}`,
      );
      return moved;
    });
  }
}
