import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { PROVINCES, type Customer, type NewProperty, type Property, type SubscriptionPlan, US_STATES } from "../customers/customers.schemas.js";
import type { CustomersService, Viewer } from "../customers/customers.service.js";
import type { MailService } from "../mail/mail.service.js";
import { bookingConfirmationEmail } from "../mail/templates/booking-confirmation.js";
import type { BookingsRepository, NewBooking } from "./bookings.repository.js";
import { ACCESS_METHOD_LABELS, type Booking, adminAccessMethod, type BookingCalendar, type PageBookingInput, type WizardBookingInput } from "./bookings.schemas.js";
import { bookingDates, earliestInspectionDate, latestInspectionDate, longDate, slotLabel, slotWindow, todayIn, zonedInstant } from "./business-time.js";
import type { WizardPrefill } from "./bookings.constants.js";

export interface BookingSettings {
  timeZone: string;
  supportEmail: string;
  supportPhone: string;
}


const sameAddress = (a: string, b: string) => a.trim().toLowerCase().replace(/\s+/g, " ") === b.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The wizard asks for one address line. 'street, city, SK S7K 1A1' is split into its parts; anything
 * else is kept whole as the street with an empty city, never guessed.
 */
export function splitAddress(line: string): Pick<NewProperty, "address" | "city" | "postalCode" | "province" | "state"> {
  const parts = line.split(",").map((p) => p.trim()).filter(Boolean);
  const region = /^([A-Za-z]{2})\b\s*(.*)$/.exec(parts[2] ?? "");
  const code = region?.[1]?.toUpperCase() ?? "";
  const isProvince = (PROVINCES as readonly string[]).includes(code);
  const isState = (US_STATES as readonly string[]).includes(code);
  if (parts.length < 3 || !region || !(isProvince || isState)) return { address: line.trim(), city: "", postalCode: "" };
  return {
    address: parts[0]!,
    city: parts[1]!,
    postalCode: region[2]!.trim().toUpperCase(),
    ...(isProvince ? { province: code } : { state: code }),
  };
}

export class BookingsService {
  constructor(
    private readonly bookings: BookingsRepository,
    private readonly customers: CustomersService,
    private readonly mail: MailService,
    private readonly transaction: TransactionRunner,
    private readonly settings: BookingSettings,
  ) {}

  /** The dates the server accepts right now, in the business zone. */
  calendar(now: Date = new Date()): BookingCalendar {
    const tz = this.settings.timeZone;
    return { today: todayIn(tz, now), minDate: earliestInspectionDate(tz, now), maxDate: latestInspectionDate(tz, now), bookingDates: bookingDates(tz, now) };
  }

  list(viewer: Viewer): Promise<Booking[]> {
    if (viewer.kind === "staff") return this.bookings.list();
    if (!viewer.customerIds.length) return Promise.resolve([]);
    return this.bookings.list(viewer.customerIds);
  }

  /**
   * Staff lists (staff-side §3, DESIGN.md decision 15): a page of every booking, newest first, with
   * the client fields joined and the access method as the admin views name it.
   */
  async listForStaff(query: { q?: string; limit: number; offset: number }): Promise<{ rows: Booking[]; total: number }> {
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
      propertyType: property?.propertyType ?? "",
      propertySize: property?.squareFootage ? String(property.squareFootage) : "",
      yearBuilt: property?.yearBuilt ? String(property.yearBuilt) : "",
      subscriptionPlan: customer.subscriptionPlan,
    };
  }

  /**
   * The wizard: creates the customer, the property and the booking, and queues the e-mail, all in one
   * transaction. A customer this browser already created (from intake) is reused when the address matches.
   */
  async bookFromWizard(viewer: Viewer, input: WizardBookingInput, tx?: Tx): Promise<Booking> {
    const reuse = await this.reusableProperty(viewer, input);
    const work = async (trx: Tx) => {
      let customerId: number;
      let propertyId: number;
      if (reuse?.property) {
        customerId = reuse.customer.id;
        propertyId = reuse.property.id;
      } else {
        const created = await this.customers.createWithProperty(
          {
            email: input.email,
            name: `${input.firstName} ${input.lastName}`,
            phone: input.phone,
            subscriptionPlan: (reuse?.customer.subscriptionPlan as SubscriptionPlan | undefined) ?? "free-score",
          },
          { ...splitAddress(input.propertyAddress), propertyType: input.propertyType, squareFootage: input.propertySize, yearBuilt: input.yearBuilt ?? null },
          trx,
        );
        customerId = created.customer.id;
        propertyId = created.property.id;
      }
      return this.book(trx, {
        propertyId,
        customerId,
        scheduledDate: input.scheduledDate,
        timeSlot: input.timeSlot,
        accessMethod: input.accessMethod,
        accessCode: input.accessCode,
        accessInstructions: input.accessInstructions,
        specialRequests: input.specialRequests,
        source: "wizard",
      }, { email: input.email, name: `${input.firstName} ${input.lastName}` });
    };
    return tx ? work(tx) : this.transaction(work);
  }

  private async reusableProperty(viewer: Viewer, input: WizardBookingInput): Promise<{ customer: Customer; property: Property | null } | null> {
    if (!input.customerId || viewer.kind !== "customer" || !viewer.customerIds.includes(input.customerId)) return null;
    const customer = await this.customers.findCustomer(input.customerId);
    if (!customer) return null;
    const latest = (await this.customers.listProperties({ kind: "customer", customerIds: [customer.id] })).at(-1);
    return { customer, property: latest && sameAddress(latest.address, input.propertyAddress) ? latest : null };
  }

  /** The booking page: only for a property this viewer may see; null as if it did not exist otherwise. */
  async bookForProperty(viewer: Viewer, input: PageBookingInput, tx?: Tx): Promise<Booking | null> {
    const property = await this.customers.findPropertyFor(viewer, input.propertyId);
    if (!property) return null;
    const work = (trx: Tx) =>
      this.book(
        trx,
        { propertyId: property.id, customerId: property.customerId, scheduledDate: input.scheduledDate, timeSlot: input.timeSlot, notes: input.notes, source: "booking-page" },
        { email: property.clientEmail, name: property.clientName },
      );
    return tx ? work(tx) : this.transaction(work);
  }

  /**
   * Many bookings at once, in the caller's transaction (the demo seed). They are records of the past
   * or demo appointments, so no confirmation e-mail is queued. Returns the ids in input order.
   */
  importMany(bookings: (NewBooking & { status: "scheduled" | "completed" | "cancelled"; createdAt: Date })[], tx: Tx): Promise<number[]> {
    return this.bookings.insertMany(bookings, tx);
  }

  /**
   * Inserts a booking and queues its confirmation e-mail in the caller's transaction, so the e-mail
   * exists only if the booking does. Other modules (onboarding) book through here.
   */
  async book(tx: Tx, booking: NewBooking, recipient: { email: string; name: string }): Promise<Booking> {
    const saved = await this.bookings.insert(booking, tx);
    const window = slotWindow(saved.timeSlot) ?? { start: "09:00", minutes: 60 };
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
        accessLabel: saved.accessMethod ? (ACCESS_METHOD_LABELS[saved.accessMethod] ?? accessLabel(saved.accessMethod)) : null,
        accessInstructions: saved.accessInstructions,
        hasAccessCode: Boolean(saved.accessCode),
        specialRequests: saved.specialRequests ?? saved.notes,
        start: zonedInstant(saved.scheduledDate, window.start, this.settings.timeZone),
        minutes: window.minutes,
        supportEmail: this.settings.supportEmail,
        supportPhone: this.settings.supportPhone,
      }),
    );
    return saved;
  }
}

/** 'owner-present' → 'Owner present' for the onboarding methods, which have no label in the spec. */
const accessLabel = (method: string) => method.charAt(0).toUpperCase() + method.slice(1).replace(/-/g, " ");
