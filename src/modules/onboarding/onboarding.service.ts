import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { BookingsService } from "../bookings/index.js";
import type { CustomersService, Viewer } from "../customers/index.js";
import type { Property } from "../customers/customers.schemas.js";
import { NEEDS_ACCESS_CODE, type OnboardingInput, type OnboardingResult } from "./onboarding.schemas.js";

export const SCHEDULED_MESSAGE = "Onboarding complete. Your inspection is scheduled.";
export const SAVED_MESSAGE = "Onboarding complete. We'll be in touch to schedule your inspection.";

/** The same words, any case and spacing: "K1M 2C3" and "k1m  2c3" name the same home. */
const sameText = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").trim().toLowerCase().replace(/\s+/g, " ") === (b ?? "").trim().toLowerCase().replace(/\s+/g, " ");

/** What onboarding uses: it makes the customer and home, then the booking, in one transaction. */
export interface OnboardingDeps {
  customers: CustomersService;
  bookings: BookingsService;
  transaction: TransactionRunner;
}

export class OnboardingService {
  private readonly customers: CustomersService;
  private readonly bookings: BookingsService;
  private readonly transaction: TransactionRunner;

  constructor(deps: OnboardingDeps) {
    ({ customers: this.customers, bookings: this.bookings, transaction: this.transaction } = deps);
  }

  /**
   * Creates the customer and property, and the booking when a date, time and access method came with them.
   * The same browser sending its onboarding again reuses its customer with the same e-mail (any
   * case) and their home at the same address; the same date and time give the first booking back.
   */
  submit(input: OnboardingInput, outer?: Tx, viewer?: Viewer): Promise<OnboardingResult & { customerId: number }> {
    const name = `${input.firstName} ${input.lastName}`;
    const sameHome = (p: Property) =>
      sameText(p.address, input.address) && sameText(p.city, input.city) && sameText(p.postalCode, input.postalCode);
    const work = async (tx: Tx) => {
      const own = viewer ? await this.bookings.ownProperty(viewer, input.email, sameHome, tx) : null;
      const { customer, property } = own
        ? { customer: { id: own.customerId }, property: own }
        : await this.customers.createWithProperty(
            { email: input.email, name, phone: input.phone, subscriptionPlan: "free-score", locale: input.locale },
            {
              address: input.address,
              city: input.city,
              province: input.province,
              postalCode: input.postalCode,
              squareFootage: input.squareFootage ?? null,
              yearBuilt: input.yearBuilt ?? null,
              bedrooms: input.bedrooms ?? null,
              bathrooms: input.bathrooms ?? null,
              garageType: input.garageType ?? null,
              basementStatus: input.basementStatus ?? null,
              ownershipType: input.ownershipType ?? null,
              financingType: input.financingType ?? null,
              householdIncome: input.householdIncome ?? null,
              occupation: input.occupation ?? null,
              householdSize: input.householdSize ?? null,
            },
            tx,
          );
      const result = { customerId: customer.id, propertyId: property.id };
      if (!input.preferredDate || !input.preferredTime || !input.accessMethod)
        return { ...result, message: SAVED_MESSAGE };
      const booking = await this.bookings.bookOnce(
        tx,
        {
          propertyId: property.id,
          customerId: customer.id,
          scheduledDate: input.preferredDate,
          timeSlot: input.preferredTime,
          accessMethod: input.accessMethod,
          // The code belongs only to the methods that show its field.
          accessCode: NEEDS_ACCESS_CODE.includes(input.accessMethod) ? input.accessCode : null,
          accessInstructions: input.accessInstructions,
          source: "onboarding",
        },
        { email: input.email, name },
      );
      return { ...result, bookingId: booking.id, message: SCHEDULED_MESSAGE };
    };
    return outer ? work(outer) : this.transaction(work);
  }
}
