import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import {
  bookingDates,
  earliestInspectionDate,
  isIsoDate,
  latestInspectionDate,
  todayIn,
} from "../../shared/business-time.js";
import type { AuditLog } from "../audit/index.js";
import type { Property } from "../customers/customers.schemas.js";
import type { CustomersService, Viewer } from "../customers/index.js";
import type { Notifications } from "../notifications/index.js";
import { WizardRecords, splitAddress } from "./wizard-records.js";
import type { BookingChangeInput } from "./booking-changes.schemas.js";
import { BookingMail } from "./booking-mail.js";
import { BookingPlacement } from "./booking-placement.js";
import { StaffBookingChanges, type StaffChangeOptions } from "./booking-staff-changes.js";
import { type WizardPrefill, accessCodeLabel } from "./bookings.constants.js";
import type { BookingsFilter } from "./bookings-desk.schemas.js";
import type { BookingsRepository, NewBooking } from "./bookings.repository.js";
import {
  type Booking,
  type BookingCalendar,
  type PageBookingInput,
  type WizardBookingInput,
  adminAccessMethod,
} from "./bookings.schemas.js";
import type { Availability, InspectorsService } from "./inspectors.service.js";

// The service's parts (bookings README): the wizard's records, where a booking goes, the e-mails it sends.
export { splitAddress } from "./wizard-records.js";
export { SLOT_TAKEN_MESSAGE, SlotTakenError } from "./booking-placement.js";

import type { BookingSettings, BookingsDeps } from "./bookings.deps.js";

export type { BookingSettings, BookingsDeps } from "./bookings.deps.js";

/** A booking as staff lists show it: the access method as the admin views name it (staff-side §9). */
const forStaff = (b: Booking): Booking => ({ ...b, accessMethod: adminAccessMethod(b.accessMethod) });

export class BookingsService {
  private readonly customers: CustomersService;
  private readonly transaction: TransactionRunner;
  private readonly settings: BookingSettings;
  private readonly inspectors: InspectorsService;
  private readonly audit: Pick<AuditLog, "record">;
  private readonly notifications: Pick<Notifications, "raise"> | null;
  private readonly onBooked: BookingsDeps["onBooked"];
  private readonly placement: BookingPlacement;
  private readonly emails: BookingMail;
  private readonly records: WizardRecords;
  private readonly staffChanges: StaffBookingChanges;

  constructor(
    private readonly bookings: BookingsRepository,
    deps: BookingsDeps,
  ) {
    ({
      customers: this.customers,
      transaction: this.transaction,
      settings: this.settings,
      inspectors: this.inspectors,
      audit: this.audit,
    } = deps);
    this.notifications = deps.notifications ?? null;
    this.onBooked = deps.onBooked ?? null;
    this.placement = new BookingPlacement({ bookings, inspectors: deps.inspectors, settings: deps.settings });
    this.emails = new BookingMail({ mail: deps.mail, bookings, settings: deps.settings });
    this.records = new WizardRecords({ customers: deps.customers });
    const { transaction, audit, notifications, placement, emails } = this;
    this.staffChanges = new StaffBookingChanges({ bookings, transaction, audit, notifications, placement, emails });
  }

  /** The dates the server accepts right now, in the business zone. */
  calendar(now: Date = new Date()): BookingCalendar {
    const tz = this.settings.timeZone;
    return {
      today: todayIn(tz, now),
      minDate: earliestInspectionDate(tz, now),
      maxDate: latestInspectionDate(tz, now),
      bookingDates: bookingDates(tz, now),
    };
  }

  list(viewer: Viewer): Promise<Booking[]> {
    if (viewer.kind === "staff") return this.bookings.list();
    if (!viewer.customerIds.length) return Promise.resolve([]);
    return this.bookings.list(viewer.customerIds);
  }

  /** Staff lists (staff-side §3, docs/decisions.md#15): a page of the filter's bookings (the desk's, #58). */
  async listForStaff(
    query: BookingsFilter & { limit: number; offset: number },
  ): Promise<{ rows: Booking[]; total: number }> {
    const { rows, total } = await this.bookings.listPage(query);
    return { rows: rows.map(forStaff), total };
  }

  /** The same list as CSV rows, every booking of the filter; door codes stay out of files (docs/decisions.md#58). */
  async *exportForStaff(query: BookingsFilter): AsyncGenerator<Omit<Booking, "accessCode">[]> {
    for await (const batch of this.bookings.exportRows(query))
      yield batch.map((b) => {
        const { accessCode: _code, ...row } = forStaff(b);
        return row;
      });
  }

  /** Staff: the bookings of these properties, latest date first, grouped by propertyId. */
  async byProperty(propertyIds: number[]): Promise<Map<number, Booking[]>> {
    const grouped = new Map<number, Booking[]>();
    for (const booking of await this.bookings.listForProperties(propertyIds)) {
      const list = grouped.get(booking.propertyId) ?? [];
      list.push(forStaff(booking));
      grouped.set(booking.propertyId, list);
    }
    return grouped;
  }

  /** Staff only: bookings dated in [from, to], for the maintenance calendar, its feed and reminders. */
  listBetween(from: string, to: string): Promise<Booking[]> {
    return this.bookings.listBetween(from, to);
  }

  /** The customer's details and latest property, when this browser created that customer. */
  prefillFor(viewer: Viewer, customerId: number): Promise<WizardPrefill | null> {
    return this.records.prefillFor(viewer, customerId);
  }

  /**
   * The wizard: creates the customer, the property and the booking, and queues the e-mail, all in one
   * transaction. This browser's customer is reused with their property when the address matches: the
   * one the wizard was opened for (`customerId`, from intake), or else the one with the same e-mail (any
   * case). A home is booked once per date and slot: a re-submission after success gets the
   * first booking back, with no second e-mail; another date books that date for the same customer and home.
   */
  async bookFromWizard(viewer: Viewer, input: WizardBookingInput, tx?: Tx): Promise<Booking> {
    const work = async (trx: Tx) => {
      const reuse = await this.records.reusable(viewer, input, trx);
      let customerId: number;
      let propertyId: number;
      if (reuse?.property) {
        customerId = reuse.property.customerId;
        propertyId = reuse.property.id;
        await this.bookings.saveAskedDetails(
          propertyId,
          { propertyType: input.propertyType, squareFootage: input.propertySize, yearBuilt: input.yearBuilt ?? null },
          trx,
        );
      } else {
        const created = await this.customers.createWithProperty(
          {
            email: input.email,
            name: `${input.firstName} ${input.lastName}`,
            phone: input.phone,
            subscriptionPlan: reuse?.plan ?? "free-score",
            locale: input.locale,
          },
          {
            ...splitAddress(input.propertyAddress),
            propertyType: input.propertyType,
            squareFootage: input.propertySize,
            yearBuilt: input.yearBuilt ?? null,
          },
          trx,
        );
        customerId = created.customer.id;
        propertyId = created.property.id;
      }
      return this.bookOnce(
        trx,
        {
          propertyId,
          customerId,
          scheduledDate: input.scheduledDate,
          timeSlot: input.timeSlot,
          accessMethod: input.accessMethod,
          accessCode: input.accessCode,
          accessInstructions: input.accessInstructions,
          specialRequests: input.specialRequests,
          source: "wizard",
        },
        { email: input.email, name: `${input.firstName} ${input.lastName}` },
        // A re-submission gets the first booking back, and the trail keeps its one event.
        (made) => (viewer.kind === "staff" ? this.auditCreate(trx, made) : Promise.resolve()),
      );
    };
    return tx ? work(tx) : this.transaction(work);
  }

  /**
   * The newest property this browser owns of a customer with this e-mail that `matches` picks (wizard-records.ts),
   * read on `tx` when given (onboarding's transaction).
   */
  ownProperty(
    viewer: Viewer,
    email: string,
    matches: (property: Property) => boolean,
    tx?: Tx,
  ): Promise<Property | null> {
    return this.records.ownProperty(viewer, email, matches, tx);
  }

  /** The booking page: only for a property this viewer may see; null as if it did not exist otherwise. */
  async bookForProperty(viewer: Viewer, input: PageBookingInput, tx?: Tx): Promise<Booking | null> {
    const work = async (trx: Tx) => {
      // On the transaction's own connection: every read inside a transaction is (docs/decisions.md#46).
      const property = await this.customers.findPropertyFor(viewer, input.propertyId, trx);
      if (!property) return null;
      const booking = await this.book(
        trx,
        {
          propertyId: property.id,
          customerId: property.customerId,
          scheduledDate: input.scheduledDate,
          timeSlot: input.timeSlot,
          notes: input.notes,
          source: "booking-page",
        },
        { email: property.clientEmail, name: property.clientName },
      );
      if (viewer.kind === "staff") await this.auditCreate(trx, booking);
      return booking;
    };
    return tx ? work(tx) : this.transaction(work);
  }

  /** A booking staff made: one audit event (docs/decisions.md#39). */
  private auditCreate(tx: Tx, booking: Booking): Promise<void> {
    return this.audit.record(tx, {
      action: "booking.create",
      recordType: "booking",
      recordId: booking.id,
      after: booking,
    });
  }

  /**
   * Many bookings at once, in the caller's transaction (the demo seed). They are records of the past
   * or demo appointments, so no confirmation e-mail is queued, and they hold their time but no inspector:
   * `assignOpenBookings` places them afterwards. Returns the ids in input order.
   */
  async importMany(
    bookings: (NewBooking & { status: "scheduled" | "completed" | "cancelled"; createdAt: Date })[],
    tx: Tx,
  ): Promise<number[]> {
    return this.bookings.insertMany(await this.placement.withRanges(bookings, tx), tx);
  }

  /**
   * Gives the bookings that have a time but no inspector (the demo's, or those made before any inspector was
   * set up) to an inspector who works then and is free, the one with the fewest bookings that day; those that
   * fit nobody stay unassigned. One transaction, after the calendars' lock, so two runs never collide.
   */
  async assignOpenBookings(options: { from?: string } = {}): Promise<{ assigned: number; left: number }> {
    if (options.from !== undefined && !isIsoDate(options.from))
      throw new ValidationError("From must be a date (YYYY-MM-DD)", { from: "From must be a date (YYYY-MM-DD)" });
    return this.transaction((tx) => this.placement.assignOpen(tx, options.from));
  }

  /** An inspector was deactivated (docs/decisions.md#37): their bookings from today go to others free, else nobody. */
  async releaseInspector(tx: Tx, inspectorId: number, now: Date): Promise<{ released: number; assigned: number }> {
    return this.placement.releaseInspector(tx, inspectorId, todayIn(this.settings.timeZone, now));
  }

  /**
   * `book`, unless the customer has this home booked at this date and slot already (a
   * re-submission): then that booking, with no second e-mail. The property's lock makes a concurrent
   * submission for the same home wait, then find this one's booking.
   */
  async bookOnce(
    tx: Tx,
    booking: NewBooking,
    recipient: { email: string; name: string },
    onNew?: (made: Booking) => Promise<void>,
  ): Promise<Booking> {
    await this.bookings.lockProperty(booking.propertyId, tx);
    const found = await this.bookings.findScheduled(booking, tx);
    if (found) return found;
    const made = await this.book(tx, booking, recipient);
    await onNew?.(made);
    return made;
  }

  /**
   * Inserts a booking and queues its confirmation e-mail in the caller's transaction, so the e-mail
   * exists only if the booking does. Other modules (onboarding) book through here. With inspectors set up,
   * the booking goes at once to the least-loaded free inspector (docs/decisions.md#37); none free is a 409.
   */
  async book(tx: Tx, booking: NewBooking, recipient: { email: string; name: string }): Promise<Booking> {
    const saved = await this.placement.place(
      tx,
      { date: booking.scheduledDate, slot: booking.timeSlot, propertyId: booking.propertyId },
      (placement, trx) => this.bookings.insert({ ...booking, ...placement }, trx),
    );
    await this.emails.confirmation(tx, saved, recipient);
    await this.onBooked?.(tx, saved);
    return saved;
  }

  /** The times of [from, to] at which some inspector is free for a home of this size (GET …/availability). */
  async availability(input: {
    from: string;
    to: string;
    squareFootage?: number | null;
    /** The home to plan for: its size on file sets the length (My Home's reschedule). */
    propertyId?: number;
  }): Promise<Availability> {
    const squareFootage =
      input.propertyId !== undefined ? await this.bookings.propertySize(input.propertyId) : input.squareFootage;
    const answer = await this.inspectors.availability({ from: input.from, to: input.to, squareFootage });
    // Nothing is booked for today or earlier: those days offer no time.
    const today = todayIn(this.settings.timeZone);
    return {
      ...answer,
      days: answer.days.map((d) => (d.date > today ? d : { date: d.date, slots: [], parts: [] })),
    };
  }

  /** One booking as staff read it (the desk's dialog); 404 when there is none. */
  async findForStaff(id: number): Promise<Booking> {
    const booking = await this.bookings.find(id);
    if (!booking) throw new NotFoundError("Booking not found");
    return forStaff(booking);
  }

  /** A door code, asked for at the door, never in a page kept offline (docs/decisions.md#38); roles check whose. */
  async accessCode(id: number): Promise<{ bookingId: number; label: string; accessCode: string | null }> {
    const { accessMethod, accessCode } = await this.findForStaff(id);
    return { bookingId: id, label: accessCodeLabel(accessMethod), accessCode };
  }

  /** Active inspectors, for the booking dialog's choice. */
  inspectorOptions(): Promise<{ id: number; name: string }[]> {
    return this.inspectors.options();
  }

  // --- Staff changes from the maintenance calendar (booking-staff-changes.ts) ---

  /**
   * Staff move a scheduled booking to another date (and slot), under the wizard's date rule (checked by the
   * schema), or cancel it. Only a scheduled booking changes: a completed or cancelled one is a 409. A move
   * mails the client the confirmation of the new date, in the same transaction; the reminder follows the
   * new date (maintenance_reminders is keyed by date).
   */
  changeByStaff(id: number, input: BookingChangeInput, options: StaffChangeOptions = {}): Promise<Booking> {
    return this.staffChanges.change(id, input, options);
  }
}
