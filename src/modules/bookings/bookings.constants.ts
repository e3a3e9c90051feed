// Constants and shapes of bookings without zod, so islands stay small (the JS budget, docs/architecture.md).
// bookings.schemas.ts re-exports all of it.

export const ACCESS_METHODS = ["meet-inspector", "lockbox", "smart-lock"] as const;
/** Access-method labels of customer-side §2.11. */
export const ACCESS_METHOD_LABELS: Record<string, string> = {
  "meet-inspector": "Meet inspector at property",
  lockbox: "Lockbox access",
  "smart-lock": "Smart lock / Automated access",
};
/**
 * Every stored access method in words, for the inspector (My Day, the form's "From the homeowner"): the wizard's
 * labels above and onboarding's own methods (onboarding.constants.ts), never the raw code ('meet-inspector').
 */
const ACCESS_METHOD_WORDS: Record<string, string> = {
  ...ACCESS_METHOD_LABELS,
  "owner-present": "Owner will be present",
  "key-code": "Key code / keypad entry",
  "property-manager": "Property manager will provide access",
};
export const accessMethodWords = (method: string | null): string | null =>
  method
    ? (ACCESS_METHOD_WORDS[method] ?? method.charAt(0).toUpperCase() + method.slice(1).replace(/[-_]/g, " "))
    : null;
/** What the code opens: a lockbox's code, or the door's (smart lock, keypad). */
export const accessCodeLabel = (method: string | null): string => (method === "lockbox" ? "Lockbox code" : "Door code");

/** Access methods as the admin views name them (staff-side §9). */
export const ADMIN_ACCESS_METHODS = ["meet", "lockbox", "smart_lock"] as const;
export type AdminAccessMethod = (typeof ADMIN_ACCESS_METHODS)[number];
const ADMIN_ACCESS_OF: Record<string, AdminAccessMethod> = {
  // Wizard (customer-side §3)
  "meet-inspector": "meet",
  lockbox: "lockbox",
  "smart-lock": "smart_lock",
  // Onboarding: someone lets the inspector in, or a code opens the door.
  "owner-present": "meet",
  "property-manager": "meet",
  "key-code": "smart_lock",
};
/** A stored access method as the admin views show it; null when none was given. */
export const adminAccessMethod = (method: string | null): AdminAccessMethod | null =>
  method ? (ADMIN_ACCESS_OF[method] ?? "meet") : null;

/** Methods that need a code or instructions (customer-side §5). */
export const NEEDS_ACCESS_INFO: readonly string[] = ["lockbox", "smart-lock"];
export const ACCESS_INFO_TITLE = "Access Information Required";
export const ACCESS_INFO_MESSAGE = "Please provide access code or instructions for your selected access method.";
export const LEAD_MESSAGE = "Inspection date must be at least 4 days from today";

/** The dates the server accepts today, computed in the business zone (see business-time.ts). */
export interface BookingCalendar {
  today: string;
  /** today + 4 days: the earliest wizard and onboarding date. */
  minDate: string;
  maxDate: string;
  /** The booking page's 14 weekdays from tomorrow. */
  bookingDates: string[];
}

/** A booking as customers and staff read it (staff-side §3), with the client fields joined in. */
export interface Booking {
  id: number;
  propertyId: number;
  customerId: number;
  scheduledDate: string;
  timeSlot: string;
  /** The admin views' name for timeSlot. */
  preferredTime: string;
  notes: string | null;
  accessMethod: string | null;
  accessCode: string | null;
  accessInstructions: string | null;
  specialRequests: string | null;
  status: string;
  source: string;
  createdAt: string;
  address: string;
  city: string;
  state: string | null;
  province: string | null;
  postalCode: string | null;
  clientName: string;
  clientEmail: string;
  clientPhone: string | null;
  preferredContact: string | null;
  subscriptionPlan: string;
  /** The inspector it is given to and their name (docs/decisions.md#37); null when nobody is. */
  inspectorId: number | null;
  inspectorName: string | null;
}

/** GET /api/inspection-bookings/availability: a day's free clock times and parts of the day. */
export interface AvailableDay {
  date: string;
  slots: string[];
  parts: string[];
}
export interface BookingAvailability {
  from: string;
  to: string;
  /** 'open' when no inspector is set up: every time is offered. */
  calendar: "inspectors" | "open";
  durationMinutes: number;
  days: AvailableDay[];
}
/** The 409 of a booking that lost its time, with fresh times (docs/decisions.md#37). */
export const SLOT_TAKEN = "That time was just taken";

/** The record the confirmation page reads once from browser storage (customer-side §3). */
export interface ConfirmationRecord {
  scheduledDate: string;
  selectedTime: string;
  address: string;
  city: string;
  state: string;
  accessMethod?: string;
  email: string;
  /** The home's postal code, shown with its city. */
  postalCode?: string;
  /** How long the inspector's calendar holds the visit, when the form knew it (docs/decisions.md#59). */
  visitMinutes?: number;
}
export const CONFIRMATION_STORAGE_KEY = "bookingConfirmation";

/** What the wizard can prefill for a customer this browser created (property intake → wizard). */
export interface WizardPrefill {
  customerId: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  propertyAddress: string;
  /** The whole address on one line ('12 Elm St, Ottawa, ON K1S 2B4'), shown read-only when continuing from intake. */
  propertyLine: string;
  propertyType: string;
  propertySize: string;
  yearBuilt: string;
  subscriptionPlan: string;
}

/** The wizard's one-line address example: Ottawa, the service area (docs/decisions.md#31). */
export const SAMPLE_ADDRESS_LINE = "12 Elm St, Ottawa, ON K1S 2B4";

/**
 * What the wizard still asks when it opens from intake (docs/decisions.md#66): null for the full wizard, `time`
 * when the home and the contact details are known, `contact-and-time` when only the home is.
 */
export function wizardLeft(prefill: WizardPrefill | null): "time" | "contact-and-time" | null {
  if (!(prefill?.propertyAddress && prefill.propertySize)) return null;
  const contactKnown = [prefill.firstName, prefill.lastName, prefill.email, prefill.phone].every((v) => v.trim());
  return contactKnown ? "time" : "contact-and-time";
}
