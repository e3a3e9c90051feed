import { z } from "zod";

// Enumerations of customer-side §3. Imported by islands too: nothing from the server here.
export const PROPERTY_TYPES = ["single-family", "townhouse", "condo", "duplex", "other"] as const;
export const STORIES = ["1", "1.5", "2", "2.5", "3"] as const;
export const BEDROOMS_FORM = ["1", "2", "3", "4", "5", "6+"] as const;
export const BEDROOMS_ONBOARDING = ["1", "2", "3", "4", "5+"] as const;
export const BATHROOMS_FORM = ["1", "1.5", "2", "2.5", "3", "3.5", "4", "4+"] as const;
export const BATHROOMS_ONBOARDING = ["1", "1.5", "2", "2.5", "3", "3.5", "4+"] as const;
export const HVAC_UNITS = ["1", "2", "3", "4+", "unknown"] as const;
export const ELECTRICAL_PANELS = ["1", "2", "multiple", "unknown"] as const;
export const HEATING_TYPES = ["gas", "electric", "oil", "propane", "heat-pump", "other", "unknown"] as const;
export const COOLING_TYPES = ["central-ac", "window-units", "mini-split", "evaporative", "none", "unknown"] as const;
export const WATER_HEATER_TYPES = ["gas-tank", "electric-tank", "gas-tankless", "electric-tankless", "solar", "unknown"] as const;
export const ROOF_TYPES = ["asphalt-shingle", "metal", "tile", "slate", "flat", "other", "unknown"] as const;
export const US_STATES = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME", "MD",
  "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC",
  "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
] as const;
export const PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "ON", "PE", "QC", "SK"] as const;
export const GARAGE_TYPES = ["none", "single", "double", "triple", "carport", "detached"] as const;
export const BASEMENT_STATUSES = ["none", "unfinished", "partially-finished", "finished", "walkout", "crawlspace"] as const;
export const OWNERSHIP_TYPES = ["owner", "renter", "landlord"] as const;
export const HOUSEHOLD_INCOMES = ["50k-100k", "100k-150k", "150k-200k", "200k-300k", "over-300k"] as const;
export const OCCUPATIONS = ["professional", "manager", "tradesperson", "entrepreneur", "retired", "student", "other"] as const;
export const HOUSEHOLD_SIZES = ["1", "2", "3", "4", "5+"] as const;
export const SUBSCRIPTION_PLANS = ["free-score", "basic", "standard", "premium"] as const;
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];

/** A plan value from a record: anything not in the list displays as Unknown. */
export const planLabel = (plan: string | null | undefined) =>
  SUBSCRIPTION_PLANS.includes(plan as SubscriptionPlan)
    ? (plan as string).replace(/(^|-)(\w)/g, (_m, dash: string, c: string) => (dash ? " " : "") + c.toUpperCase())
    : "Unknown";

/** A property as customers and staff see it (customer-side §3). */
export interface Property {
  id: number;
  customerId: number;
  address: string;
  city: string;
  province: string | null;
  state: string | null;
  postalCode: string;
  propertyType: string | null;
  squareFootage: number | null;
  yearBuilt: number | null;
  bedrooms: string | null;
  bathrooms: string | null;
  stories: string | null;
  hvacUnits: string | null;
  electricalPanels: string | null;
  plumbingSystems: string | null;
  roofType: string | null;
  heatingType: string | null;
  coolingType: string | null;
  waterHeaterType: string | null;
  foundationType: string | null;
  garageType: string | null;
  basementStatus: string | null;
  ownershipType: string | null;
  occupation: string | null;
  householdIncome: string | null;
  householdSize: string | null;
  financingType: string | null;
  notes: string | null;
  clientName: string;
  clientEmail: string;
  clientPhone: string | null;
  subscriptionPlan: string;
  createdAt: string;
}

/** What the services need to create a property; every optional field may be left out. */
export type NewProperty = Partial<Omit<Property, "id" | "customerId" | "createdAt" | "clientName" | "clientEmail" | "clientPhone" | "subscriptionPlan">> &
  Pick<Property, "address" | "city" | "postalCode">;

export interface NewCustomer {
  email: string;
  name: string;
  phone?: string | null;
  subscriptionPlan: SubscriptionPlan;
  stripeSessionId?: string | null;
}

export interface Customer {
  id: number;
  email: string;
  name: string;
  phone: string | null;
  subscriptionPlan: string;
  stripeSessionId: string | null;
  createdAt: string;
}

// Shared field schemas with the spec's messages, reused by intake, wizard and onboarding.
export const requiredText = (label: string, max = 200) =>
  z.string({ message: `${label} is required` }).trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);
export const emailField = z.string({ message: "Email is required" }).trim().min(1, "Email is required").email("Enter a valid email address").max(254);
export const phoneField = requiredText("Phone", 40).regex(/^[+(\d][\d\s().-]{6,}$/, "Enter a valid phone number");
export const oneOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { message: `${label} must be one of ${values.join(", ")}` });

// --- Property intake (customer-side §2.6, §3, §5): the customer creation payload. ---

const blankToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** An optional select: empty means not given; anything else must be one of the values. */
export const optionalOneOf = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(blankToUndefined, oneOf(values, label).optional());

/** A required whole number that a form may send as text. */
export const requiredInt = (label: string, min: number, max: number) =>
  z.preprocess(
    (value) => {
      const v = blankToUndefined(typeof value === "string" ? value.trim() : value);
      return typeof v === "string" ? Number(v.replace(/,/g, "")) : v;
    },
    z
      .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

const optionalText = (label: string, max = 500) =>
  z.preprocess(blankToUndefined, z.string({ message: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`).optional());

export const INTAKE_PLANS = ["basic", "standard", "premium"] as const;

export const intakePropertySchema = z.object({
  address: requiredText("Street address"),
  city: requiredText("City", 100),
  state: z.preprocess(blankToUndefined, z.enum(US_STATES, { error: (issue) => (issue.input === undefined ? "State is required" : "State must be a two-letter US state code") })),
  zipCode: requiredText("ZIP code", 10).regex(/^\d{5}(-\d{4})?$/, "Enter a valid ZIP code"),
  squareFootage: requiredInt("Square footage", 100, 100_000),
  yearBuilt: requiredInt("Year built", 1600, new Date().getFullYear() + 1),
  bedrooms: optionalOneOf(BEDROOMS_FORM, "Bedrooms"),
  bathrooms: optionalOneOf(BATHROOMS_FORM, "Bathrooms"),
  stories: optionalOneOf(STORIES, "Stories"),
  hvacUnits: optionalOneOf(HVAC_UNITS, "HVAC units"),
  electricalPanels: optionalOneOf(ELECTRICAL_PANELS, "Electrical panels"),
  plumbingSystems: optionalText("Plumbing systems", 200),
  roofType: optionalOneOf(ROOF_TYPES, "Roof type"),
  heatingType: optionalOneOf(HEATING_TYPES, "Heating type"),
  coolingType: optionalOneOf(COOLING_TYPES, "Cooling type"),
  waterHeaterType: optionalOneOf(WATER_HEATER_TYPES, "Water heater type"),
  foundationType: optionalText("Foundation type", 200),
  notes: optionalText("Notes", 2000),
});

export const customerCreateSchema = z.object({
  stripeSessionId: z
    .string({ message: "Checkout session is required" })
    .trim()
    .min(1, "Checkout session is required")
    .max(255, "Checkout session is not valid")
    .regex(/^[A-Za-z0-9_]+$/, "Checkout session is not valid"),
  planType: oneOf(INTAKE_PLANS, "Plan"),
  email: emailField,
  name: requiredText("Name", 120),
  phone: phoneField,
  property: z.object(intakePropertySchema.shape, { message: "Property information is required" }),
});
export type CustomerCreateInput = z.infer<typeof customerCreateSchema>;
