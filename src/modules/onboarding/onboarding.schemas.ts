import { z } from "zod";
import { timestampField } from "../../http/fields.js";
import { localeField } from "../../i18n/schemas.js";
import {
  BASEMENT_STATUSES,
  BATHROOMS_ONBOARDING,
  BEDROOMS_ONBOARDING,
  GARAGE_TYPES,
  HOUSEHOLD_INCOMES,
  HOUSEHOLD_SIZES,
  OCCUPATIONS,
  OWNERSHIP_TYPES,
  PROVINCES,
  emailField,
  phoneField,
  postalCodeField,
  requiredText,
} from "../customers/customers.schemas.js";
import {
  type BookingCalendar,
  choice,
  leadDate,
  optionalChoice,
  optionalText,
  wholeNumber,
} from "../bookings/bookings.schemas.js";
import { DAY_PART_VALUES } from "../../shared/business-time.js";

// Islands import this file too: nothing from the server here.

export * from "./onboarding.constants.js";
import { ONBOARDING_ACCESS_METHODS, REQUIRED_FIELDS, SCHEDULING_FIELDS } from "./onboarding.constants.js";

const blank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

/** The names of required fields the payload leaves empty, in the spec's order. */
export function missingFields(payload: Record<string, unknown>): string[] {
  const missing: string[] = REQUIRED_FIELDS.filter((f) => blank(payload[f]));
  if (SCHEDULING_FIELDS.some((f) => !blank(payload[f])))
    missing.push(...SCHEDULING_FIELDS.filter((f) => blank(payload[f])));
  return missing;
}

/** Reading A's payload (customer-side §3) with completedAt; every rule of §5 on the server. */
export const onboardingSchema = (calendar: BookingCalendar) =>
  z
    .object({
      firstName: requiredText("First name", 100),
      lastName: requiredText("Last name", 100),
      email: emailField,
      phone: phoneField,
      address: requiredText("Address", 300),
      city: requiredText("City", 100),
      province: choice(PROVINCES, "Province"),
      // Canadian only here: the province list has no US states (stored as 'K1S 2B4', docs/decisions.md#31).
      postalCode: postalCodeField("Postal code", false),
      squareFootage: wholeNumber("Square footage", 100, 100_000),
      yearBuilt: wholeNumber("Year built", 1600, new Date().getFullYear() + 1),
      bedrooms: choice(BEDROOMS_ONBOARDING, "Bedrooms"),
      bathrooms: choice(BATHROOMS_ONBOARDING, "Bathrooms"),
      garageType: optionalChoice(GARAGE_TYPES, "Garage type"),
      basementStatus: optionalChoice(BASEMENT_STATUSES, "Basement status"),
      ownershipType: choice(OWNERSHIP_TYPES, "Ownership type"),
      financingType: optionalText("Financing type", 100),
      householdIncome: choice(HOUSEHOLD_INCOMES, "Household income"),
      occupation: choice(OCCUPATIONS, "Occupation"),
      householdSize: optionalChoice(HOUSEHOLD_SIZES, "Household size"),
      preferredDate: z.preprocess(
        (v) => (v === "" || v === null ? undefined : v),
        leadDate(calendar, "Preferred date").optional(),
      ),
      preferredTime: optionalChoice(DAY_PART_VALUES, "Preferred time"),
      accessMethod: optionalChoice(ONBOARDING_ACCESS_METHODS, "Access method"),
      accessCode: optionalText("Access code", 100),
      accessInstructions: optionalText("Access instructions", 1000, true),
      completedAt: z.preprocess(
        (v) => (v === "" || v === null ? undefined : v),
        timestampField("completedAt", "completedAt must be an ISO timestamp").optional(),
      ),
      /** The onboarding page's language: the customer it creates is stored with it (docs/decisions.md#65). */
      locale: localeField.optional(),
    })
    .superRefine((input, ctx) => {
      const given = SCHEDULING_FIELDS.filter((f) => input[f] !== undefined);
      if (given.length === 0 || given.length === SCHEDULING_FIELDS.length) return;
      for (const field of SCHEDULING_FIELDS) {
        if (input[field] === undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "Required to schedule the inspection" });
      }
    });
export type OnboardingInput = z.infer<ReturnType<typeof onboardingSchema>>;
