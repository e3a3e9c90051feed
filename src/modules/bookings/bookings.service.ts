import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import type { Notifications } from "../notifications/index.js";
import {
  PROVINCES,
  type NewProperty,
  type Property,
  type SubscriptionPlan,
  US_STATES,
  formatAddress,
  normalizePostalCode,
  sameEmail,
} from "../customers/customers.schemas.js";
import type { CustomersService, Viewer } from "../customers/index.js";
import { type MailService, bookingConfirmationEmail, bookingRescheduledEmail } from "../mail/index.js";
import type { BookingsRepository, NewBooking } from "./bookings.repository.js";
import {
  ACCESS_METHOD_LABELS,
  type Booking,
  adminAccessMethod,
  type BookingCalendar,
  type PageBookingInput,
  type WizardBookingInput,
} from "./bookings.schemas.js";
import {
  DAY_PARTS,
  bookingDates,
  earliestInspectionDate,
  latestInspectionDate,
  longDate,
  slotLabel,
  slotWindow,
  addDays,
  isIsoDate,
  todayIn,
  zonedInstant,
} from "../../shared/business-time.js";
import type { WizardPrefill } from "./bookings.constants.js";
import type { BookingChangeInput } from "./booking-changes.schemas.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { type Range, bookingRange, freeInspectors, inspectionMinutes } from "./availability.js";
import type { Availability, InspectorsService } from "./inspectors.service.js";

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

/** The answer to a booking that lost its time (docs/decisions.md#37): a 409 with fresh times to choose from. */
export const SLOT_TAKEN_MESSAGE = "That time was just taken";
export class SlotTakenError extends ConflictError {
  constructor(
    message: string,
    readonly availability: Availability,
  ) {
    super(message, { timeSlot: message });
  }
}

/** Postgres' exclusion_violation: the no-overlap constraint of one inspector's bookings refused a row. */
const isOverlap = (error: unknown) => (error as { code?: string } | null)?.code === "23P01";

const sameAddress = (a: string, b: string) =>
  a.trim().toLowerCase().replace(/\s+/g, " ") === b.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The wizard's address line names this property: the same street, and the same city and postal code
 * when the line has them (a prefilled wizard sends the street alone).
 */
function namesProperty(property: Property, line: string): boolean {
  const split = splitAddress(line);
  return (
    sameAddress(property.address, split.address) &&
    (!split.city || sameAddress(property.city, split.city)) &&
    (!split.postalCode || sameAddress(property.postalCode ?? "", split.postalCode))
  );
}

/**
 * The wizard asks for one address line. 'street, city, ON K1S 2B4' is split into its parts; anything
 * else is kept whole as the street with an empty city, never guessed.
 */
export function splitAddress(
  line: string,
): Pick<NewProperty, "address" | "city" | "postalCode" | "province" | "state"> {
  const parts = line
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const region = /^([A-Za-z]{2})\b\s*(.*)$/.exec(parts[2] ?? "");
  const code = region?.[1]?.toUpperCase() ?? "";
  const isProvince = (PROVINCES as readonly string[]).includes(code);
  const isState = (US_STATES as readonly string[]).includes(code);
  if (parts.length < 3 || !region || !(isProvince || isState))
    return { address: line.trim(), city: "", postalCode: "" };
  return {
    address: parts[0]!,
    city: parts[1]!,
    // 'k1s2b4' is stored as 'K1S 2B4' (docs/decisions.md#31); anything else as typed, in upper case.
    postalCode: normalizePostalCode(region[2]!) ?? region[2]!.trim().toUpperCase(),
    ...(isProvince ? { province: code } : { state: code }),
  };
}

export class BookingsService {
  private readonly customers: CustomersService;
  private readonly mail: MailService;
  private readonly transaction: TransactionRunner;
  private readonly settings: BookingSettings;
  private readonly inspectors: InspectorsService;
  private readonly audit: Pick<AuditLog, "record">;
  private readonly notifications: Pick<Notifications, "raise"> | null;
  private readonly onBooked: BookingsDeps["onBooked"];

  constructor(
    private readonly bookings: BookingsRepository,
    deps: BookingsDeps,
  ) {
    ({
      customers: this.customers,
      mail: this.mail,
      transaction: this.transaction,
      settings: this.settings,
      inspectors: this.inspectors,
      audit: this.audit,
    } = deps);
    this.notifications = deps.notifications ?? null;
    this.onBooked = deps.onBooked ?? null;
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

  /**
   * Staff lists (staff-side §3, docs/decisions.md#15): a page of every booking, newest first, with
   * the client fields joined and the access method as the admin views name it.
   */
  async listForStaff(query: {
    q?: string;
    limit: number;
    offset: number;
    inspectorId?: number;
  }): Promise<{ rows: Booking[]; total: number }> {
    const { rows, total } = await this.bookings.listPage(query);
    return { rows: rows.map((b) => ({ ...b, accessMethod: adminAccessMethod(b.accessMethod) })), total };
  }

  /** Staff: the bookings of these properties, latest date first, grouped by propertyId. */
  async byProperty(propertyIds: number[]): Promise<Map<number, Booking[]>> {
    const grouped = new Map<number, Booking[]>();
    for (const booking of await this.bookings.listForProperties(propertyIds)) {
      const list = grouped.get(booking.propertyId) ?? [];
      list.push({ ...booking, accessMethod: adminAccessMethod(booking.accessMethod) });
      grouped.set(booking.propertyId, list);
    }
    return grouped;
  }

  /** Staff only: bookings dated in [from, to], for the maintenance calendar, its feed and reminders. */
  listBetween(from: string, to: string): Promise<Booking[]> {
    return this.bookings.listBetween(from, to);
  }

  /** The customer's details and latest property, when this browser created that customer. */
  async prefillFor(viewer: Viewer, customerId: number): Promise<WizardPrefill | null> {
    if (viewer.kind !== "customer" || !viewer.customerIds.includes(customerId)) return null;
    const customer = await this.customers.findCustomer(customerId);
    if (!customer) return null;
    const property = (await this.customers.listProperties({ kind: "customer", customerIds: [customerId] })).at(-1);
    const [firstName = "", ...rest] = customer.name.trim().split(/\s+/);
    return {
      customerId,
      firstName,
      lastName: rest.join(" "),
      email: customer.email,
      phone: customer.phone ?? "",
      propertyAddress: property?.address ?? "",
      propertyLine: property ? formatAddress(property) : "",
      propertyType: property?.propertyType ?? "",
      propertySize: property?.squareFootage ? String(property.squareFootage) : "",
      yearBuilt: property?.yearBuilt ? String(property.yearBuilt) : "",
      subscriptionPlan: customer.subscriptionPlan,
    };
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
      const reuse = await this.reusable(viewer, input);
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
   * What the wizard may reuse of this browser's records: the property the address line names of the
   * customer the wizard was opened for, or else of a customer with the same e-mail; and the plan a new
   * record keeps when the customer was named but the address is another one.
   */
  private async reusable(
    viewer: Viewer,
    input: WizardBookingInput,
  ): Promise<{ property: Property | null; plan: SubscriptionPlan } | null> {
    if (!input.customerId) {
      const property = await this.ownProperty(viewer, input.email, (p) => namesProperty(p, input.propertyAddress));
      return property ? { property, plan: property.subscriptionPlan as SubscriptionPlan } : null;
    }
    if (viewer.kind !== "customer" || !viewer.customerIds.includes(input.customerId)) return null;
    const customer = await this.customers.findCustomer(input.customerId);
    if (!customer) return null;
    const properties = await this.customers.listProperties({ kind: "customer", customerIds: [customer.id] });
    return {
      property: properties.findLast((p) => namesProperty(p, input.propertyAddress)) ?? null,
      plan: customer.subscriptionPlan as SubscriptionPlan,
    };
  }

  /**
   * The newest property this browser owns, of a customer with this e-mail (any case), that `matches`
   * picks: what a re-submission, or another date for the same home, reuses (the wizard, onboarding).
   */
  async ownProperty(viewer: Viewer, email: string, matches: (property: Property) => boolean): Promise<Property | null> {
    if (viewer.kind !== "customer" || !viewer.customerIds.length) return null;
    const mine = await this.customers.listProperties(viewer);
    return mine.findLast((p) => sameEmail(p.clientEmail, email) && matches(p)) ?? null;
  }

  /** The booking page: only for a property this viewer may see; null as if it did not exist otherwise. */
  async bookForProperty(viewer: Viewer, input: PageBookingInput, tx?: Tx): Promise<Booking | null> {
    const property = await this.customers.findPropertyFor(viewer, input.propertyId);
    if (!property) return null;
    const work = async (trx: Tx) => {
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
    const sizes = await this.bookings.propertySizes([...new Set(bookings.map((b) => b.propertyId))], tx);
    const tz = this.settings.timeZone;
    return this.bookings.insertMany(
      bookings.map((b) => ({
        ...b,
        during: bookingRange(b.scheduledDate, b.timeSlot, inspectionMinutes(sizes.get(b.propertyId)), tz),
      })),
      tx,
    );
  }

  /**
   * Gives the bookings that have a time but no inspector (the demo's, or those made before any inspector was
   * set up) to an inspector who works then and is free, the one with the fewest bookings that day; those that
   * fit nobody stay unassigned. One transaction, after the calendars' lock, so two runs never collide.
   */
  async assignOpenBookings(options: { from?: string } = {}): Promise<{ assigned: number; left: number }> {
    if (options.from !== undefined && !isIsoDate(options.from))
      throw new ValidationError("From must be a date (YYYY-MM-DD)", { from: "From must be a date (YYYY-MM-DD)" });
    return this.transaction((tx) => this.assignOpen(tx, options.from));
  }

  /**
   * An inspector was deactivated (the staff accounts' port, docs/decisions.md#37): in the caller's transaction,
   * their scheduled bookings from today on lose them and go to the other inspectors free then (least loaded);
   * those nobody can take stay unassigned, where the office's calendar lists them.
   */
  async releaseInspector(tx: Tx, inspectorId: number, now: Date): Promise<{ released: number; assigned: number }> {
    const today = todayIn(this.settings.timeZone, now);
    await this.bookings.lockCalendars(tx);
    const released = await this.bookings.release(inspectorId, today, tx);
    if (!released.length) return { released: 0, assigned: 0 };
    const { assigned } = await this.assignOpen(tx, today, false);
    return { released: released.length, assigned };
  }

  private async assignOpen(tx: Tx, from?: string, lock = true): Promise<{ assigned: number; left: number }> {
    const tz = this.settings.timeZone;
    if (lock) await this.bookings.lockCalendars(tx);
    const open = await this.bookings.unassigned(from ?? "0001-01-01", tx);
    if (!open.length) return { assigned: 0, left: 0 };
    const calendars = await this.inspectors.calendars(open[0]!.scheduledDate, open.at(-1)!.scheduledDate, tx);
    // Each inspector's busy ranges by date, so each check reads one day.
    const dayOf = (t: number) => todayIn(tz, new Date(t));
    const busy = new Map<string, Range[]>();
    // Time off may span days: it counts on each.
    for (const c of calendars)
      for (const b of c.busy)
        for (let day = dayOf(b.start); day <= dayOf(b.end - 1); day = addDays(day, 1)) {
          const key = `${c.id}:${day}`;
          busy.set(key, [...(busy.get(key) ?? []), b]);
        }
    const assignments: { id: number; inspectorId: number }[] = [];
    for (const booking of open) {
      const fits = calendars
        .filter((c) => {
          const hours = c.hours.get(new Date(`${booking.scheduledDate}T00:00:00Z`).getUTCDay());
          if (!hours) return false;
          const opens = zonedInstant(booking.scheduledDate, hours.starts, tz).getTime();
          const closes = zonedInstant(booking.scheduledDate, hours.ends, tz).getTime();
          if (booking.start < opens || booking.end > closes) return false;
          const taken = busy.get(`${c.id}:${booking.scheduledDate}`) ?? [];
          return !taken.some((r) => r.start < booking.end && booking.start < r.end);
        })
        .sort(
          (a, b) =>
            (busy.get(`${a.id}:${booking.scheduledDate}`)?.length ?? 0) -
              (busy.get(`${b.id}:${booking.scheduledDate}`)?.length ?? 0) || a.id - b.id,
        );
      const chosen = fits[0];
      if (!chosen) continue;
      const key = `${chosen.id}:${booking.scheduledDate}`;
      busy.set(key, [...(busy.get(key) ?? []), booking]);
      assignments.push({ id: booking.id, inspectorId: chosen.id });
    }
    await this.bookings.assign(assignments, tx);
    return { assigned: assignments.length, left: open.length - assignments.length };
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
    const saved = await this.place(
      tx,
      { date: booking.scheduledDate, slot: booking.timeSlot, propertyId: booking.propertyId },
      (placement, trx) => this.bookings.insert({ ...booking, ...placement }, trx),
    );
    await this.queueConfirmation(tx, saved, recipient);
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

  /** Active inspectors, for the booking dialog's choice. */
  inspectorOptions(): Promise<{ id: number; name: string }[]> {
    return this.inspectors.options();
  }

  /**
   * Runs `write` with the inspector and the instants a booking at that date and slot holds. With the calendars
   * on, the inspector is `keep` when free, else the least-loaded free one. Each try runs in a savepoint: when the
   * no-overlap constraint refuses it (another transaction took that inspector then), the calendars are read
   * again and the next free inspector tried; when none is left, a 409 with fresh times.
   */
  private async place(
    tx: Tx,
    at: { date: string; slot: string; propertyId: number; bookingId?: number; keep?: number | null },
    write: (placement: { inspectorId: number | null; during: Range | null }, trx: Tx) => Promise<Booking>,
    message = SLOT_TAKEN_MESSAGE,
  ): Promise<Booking> {
    const tz = this.settings.timeZone;
    const size = await this.bookings.propertySize(at.propertyId, tx);
    const during = bookingRange(at.date, at.slot, inspectionMinutes(size), tz);
    if (!during || !(await this.inspectors.calendarsOn(tx))) {
      // No inspector set up: booking works as before; a booking that still has one keeps them if they are free.
      try {
        return await tx.transaction((sp) => write({ inspectorId: during ? (at.keep ?? null) : null, during }, sp));
      } catch (error) {
        if (isOverlap(error)) throw await this.slotTaken(message, at.date, size);
        throw error;
      }
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const calendars = await this.inspectors.calendars(at.date, at.date, tx);
      const free = freeInspectors(calendars, at.date, during, tz, at.bookingId);
      const chosen = free.find((i) => i.id === at.keep) ?? free[0];
      if (!chosen) break;
      try {
        return await tx.transaction((sp) => write({ inspectorId: chosen.id, during }, sp));
      } catch (error) {
        if (!isOverlap(error)) throw error;
      }
    }
    throw await this.slotTaken(message, at.date, size);
  }

  /** The 409 of a lost time, with the free times of that date and the six after it. */
  private async slotTaken(message: string, date: string, squareFootage: number | null): Promise<SlotTakenError> {
    const tomorrow = addDays(todayIn(this.settings.timeZone), 1);
    const from = date < tomorrow ? tomorrow : date;
    return new SlotTakenError(
      message,
      await this.inspectors.availability({ from, to: addDays(from, 6), squareFootage }),
    );
  }

  /** Queues the booking's confirmation e-mail (with its .ics) in the caller's transaction. */
  private async queueConfirmation(tx: Tx, saved: Booking, recipient: { email: string; name: string }): Promise<void> {
    // The .ics and the text follow the time the booking really holds (docs/decisions.md#37): a clock slot lasts
    // the home's inspection length, a part of the day its window.
    const minutes = inspectionMinutes(await this.bookings.propertySize(saved.propertyId, tx));
    const isPart = saved.timeSlot in DAY_PARTS;
    const slot = slotWindow(saved.timeSlot);
    const window = slot ? { start: slot.start, minutes: isPart ? slot.minutes : minutes } : { start: "09:00", minutes };
    const region = [saved.state ?? saved.province, saved.postalCode].filter(Boolean).join(" ");
    await this.mail.enqueue(
      tx,
      bookingConfirmationEmail({
        bookingId: saved.id,
        to: recipient.email,
        name: recipient.name,
        dateLabel: longDate(saved.scheduledDate),
        timeLabel: slotLabel(saved.timeSlot),
        location: [saved.address, saved.city, region].filter(Boolean).join(", "),
        accessLabel: saved.accessMethod
          ? (ACCESS_METHOD_LABELS[saved.accessMethod] ?? accessLabel(saved.accessMethod))
          : null,
        accessInstructions: saved.accessInstructions,
        hasAccessCode: Boolean(saved.accessCode),
        specialRequests: saved.specialRequests ?? saved.notes,
        start: zonedInstant(saved.scheduledDate, window.start, this.settings.timeZone),
        minutes: window.minutes,
        inspectionMinutes: minutes,
        supportEmail: this.settings.supportEmail,
        supportPhone: this.settings.supportPhone,
        publicUrl: this.settings.publicUrl,
      }),
    );
  }

  // --- Staff changes from the maintenance calendar ---

  /**
   * Staff move a scheduled booking to another date (and slot), under the wizard's date rule (checked by the
   * schema), or cancel it. Only a scheduled booking changes: a completed or cancelled one is a 409. A move
   * mails the client the confirmation of the new date, in the same transaction; the reminder follows the
   * new date (maintenance_reminders is keyed by date).
   */
  async changeByStaff(
    id: number,
    input: BookingChangeInput,
    options: { check?: (current: Booking) => void; note?: (current: Booking) => string } = {},
  ): Promise<Booking> {
    return this.transaction(async (tx) => {
      const current = await this.bookings.findForUpdate(id, tx);
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
          : this.audit.record(tx, { action, recordType: "booking", recordId: id, before: current, after });
      // ...but the office hears of it (the bell), in the same transaction.
      const homeowner = (kind: "booking-cancelled" | "booking-rescheduled", text: string) =>
        options.check
          ? this.notifications?.raise(tx, {
              kind,
              recordType: "booking",
              recordId: id,
              link: `/admin/properties/${current.propertyId}`,
              text: `${current.clientName} ${text} (${current.address})`,
            })
          : undefined;
      if (input.status === "cancelled") {
        const cancelled = await this.bookings.change(id, { status: "cancelled", note }, tx);
        await audit("booking.cancel", cancelled);
        await homeowner("booking-cancelled", `cancelled the inspection of ${current.scheduledDate}`);
        return cancelled;
      }
      const date = input.scheduledDate ?? current.scheduledDate;
      const slot = input.timeSlot ?? current.timeSlot;
      const change = { scheduledDate: input.scheduledDate, timeSlot: input.timeSlot, note };
      const moved =
        input.inspectorId !== undefined
          ? await this.reassign(tx, current, input.inspectorId, date, slot, change)
          : await this.place(
              tx,
              { date, slot, propertyId: current.propertyId, bookingId: id, keep: current.inspectorId },
              (placement, trx) => this.bookings.change(id, { ...change, ...placement }, trx),
              "No inspector is free at that time",
            );
      if (moved.scheduledDate !== current.scheduledDate || moved.timeSlot !== current.timeSlot)
        await this.queueRescheduled(tx, current, moved);
      await audit(input.inspectorId !== undefined ? "booking.reassign" : "booking.move", moved);
      await homeowner(
        "booking-rescheduled",
        `moved the inspection of ${current.scheduledDate} to ${moved.scheduledDate}, ${moved.timeSlot}`,
      );
      return moved;
    });
  }

  /**
   * The office gives a booking to this inspector (null: to nobody). Their hours are not checked (the office
   * may ask for an evening), their other bookings are: the no-overlap constraint answers, as a 409.
   */
  private async reassign(
    tx: Tx,
    current: Booking,
    inspectorId: number | null,
    date: string,
    slot: string,
    change: { scheduledDate?: string; timeSlot?: string; note?: string },
  ): Promise<Booking> {
    if (inspectorId !== null && !(await this.inspectors.findInspector(inspectorId, tx)))
      throw new ValidationError("Inspector not found", { inspectorId: "Choose one of the active inspectors" });
    const size = await this.bookings.propertySize(current.propertyId, tx);
    const during = bookingRange(date, slot, inspectionMinutes(size), this.settings.timeZone);
    try {
      return await tx.transaction((sp) => this.bookings.change(current.id, { ...change, inspectorId, during }, sp));
    } catch (error) {
      if (isOverlap(error)) throw await this.slotTaken("That inspector already has a booking at that time", date, size);
      throw error;
    }
  }

  /**
   * A moved booking's e-mail: "rescheduled", with the old and the new time and an .ics replacing the first (same
   * UID, later SEQUENCE). The booking's notes stay out: they are the office's ("Rescheduled by the homeowner…").
   */
  private async queueRescheduled(tx: Tx, was: Booking, moved: Booking, now: Date = new Date()): Promise<void> {
    const minutes = inspectionMinutes(await this.bookings.propertySize(moved.propertyId, tx));
    const slot = slotWindow(moved.timeSlot);
    const window = slot ? { start: slot.start, minutes: moved.timeSlot in DAY_PARTS ? slot.minutes : minutes } : null;
    const region = [moved.state ?? moved.province, moved.postalCode].filter(Boolean).join(" ");
    await this.mail.enqueue(
      tx,
      bookingRescheduledEmail({
        bookingId: moved.id,
        to: moved.clientEmail,
        name: moved.clientName,
        was: { dateLabel: longDate(was.scheduledDate), timeLabel: slotLabel(was.timeSlot) },
        dateLabel: longDate(moved.scheduledDate),
        timeLabel: slotLabel(moved.timeSlot),
        location: [moved.address, moved.city, region].filter(Boolean).join(", "),
        start: zonedInstant(moved.scheduledDate, window?.start ?? "09:00", this.settings.timeZone),
        minutes: window?.minutes ?? minutes,
        sequence: Math.floor(now.getTime() / 1000),
        supportEmail: this.settings.supportEmail,
        supportPhone: this.settings.supportPhone,
        publicUrl: this.settings.publicUrl,
      }),
    );
  }
}

/** 'owner-present' → 'Owner present' for the onboarding methods, which have no label in the spec. */
const accessLabel = (method: string) => method.charAt(0).toUpperCase() + method.slice(1).replace(/-/g, " ");
