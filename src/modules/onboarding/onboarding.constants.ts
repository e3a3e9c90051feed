// Constants and shapes of onboarding without zod, so the island stays small. onboarding.schemas.ts re-exports them.

export const ONBOARDING_ACCESS_METHODS = ["owner-present", "key-code", "lockbox", "property-manager"] as const;
// Their words are the catalogue's onboarding.access.<method> (docs/decisions.md#64).
/** The access code field shows only for these (customer-side §3). */
export const NEEDS_ACCESS_CODE: readonly string[] = ["key-code", "lockbox"];

/**
 * Required on every submission: reading A's final check (steps 1 and 2) and its per-step rules for
 * steps 3 and 4 (customer-side §5), in the spec's order. docs/decisions.md#13: the server enforces both.
 */
export const REQUIRED_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "address",
  "city",
  "province",
  "postalCode",
  "squareFootage",
  "yearBuilt",
  "bedrooms",
  "bathrooms",
  "ownershipType",
  "householdIncome",
  "occupation",
] as const;
/** Given together or not at all: with them, onboarding also books the inspection. */
export const SCHEDULING_FIELDS = ["preferredDate", "preferredTime", "accessMethod"] as const;

export interface OnboardingResult {
  propertyId: number;
  bookingId?: number;
  message: string;
}

/** The enumerations the wizard offers; the server passes them as props (customer-side §3). */
export type OnboardingOptions = Record<
  | "provinces"
  | "bedrooms"
  | "bathrooms"
  | "garageTypes"
  | "basementStatuses"
  | "ownershipTypes"
  | "householdIncomes"
  | "occupations"
  | "householdSizes",
  readonly string[]
>;
