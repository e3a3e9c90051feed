// Enumerations, labels and shapes of customers without zod, so islands stay small (the JS
// budget, docs/architecture.md). customers.schemas.ts re-exports all of it. Nothing from the server here.
import type { Locale } from "../../i18n/locales.js";

// Enumerations of customer-side §3.
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
export const WATER_HEATER_TYPES = [
  "gas-tank",
  "electric-tank",
  "gas-tankless",
  "electric-tankless",
  "solar",
  "unknown",
] as const;
export const ROOF_TYPES = ["asphalt-shingle", "metal", "tile", "slate", "flat", "other", "unknown"] as const;
export const US_STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
] as const;
export const PROVINCES = ["AB", "BC", "MB", "NB", "NL", "NS", "ON", "PE", "QC", "SK"] as const;
export const PROVINCE_NAMES: Record<(typeof PROVINCES)[number], string> = {
  AB: "Alberta",
  BC: "British Columbia",
  MB: "Manitoba",
  NB: "New Brunswick",
  NL: "Newfoundland and Labrador",
  NS: "Nova Scotia",
  ON: "Ontario",
  PE: "Prince Edward Island",
  QC: "Quebec",
  SK: "Saskatchewan",
};
/** The US states by name, for the property form's second group (docs/decisions.md#31). */
export const US_STATE_NAMES: Record<(typeof US_STATES)[number], string> = {
  AL: "Alabama",
  AK: "Alaska",
  AZ: "Arizona",
  AR: "Arkansas",
  CA: "California",
  CO: "Colorado",
  CT: "Connecticut",
  DE: "Delaware",
  FL: "Florida",
  GA: "Georgia",
  HI: "Hawaii",
  ID: "Idaho",
  IL: "Illinois",
  IN: "Indiana",
  IA: "Iowa",
  KS: "Kansas",
  KY: "Kentucky",
  LA: "Louisiana",
  ME: "Maine",
  MD: "Maryland",
  MA: "Massachusetts",
  MI: "Michigan",
  MN: "Minnesota",
  MS: "Mississippi",
  MO: "Missouri",
  MT: "Montana",
  NE: "Nebraska",
  NV: "Nevada",
  NH: "New Hampshire",
  NJ: "New Jersey",
  NM: "New Mexico",
  NY: "New York",
  NC: "North Carolina",
  ND: "North Dakota",
  OH: "Ohio",
  OK: "Oklahoma",
  OR: "Oregon",
  PA: "Pennsylvania",
  RI: "Rhode Island",
  SC: "South Carolina",
  SD: "South Dakota",
  TN: "Tennessee",
  TX: "Texas",
  UT: "Utah",
  VT: "Vermont",
  VA: "Virginia",
  WA: "Washington",
  WV: "West Virginia",
  WI: "Wisconsin",
  WY: "Wyoming",
};

/** The property form's region list (docs/decisions.md#31): the provinces first, then the US states. */
export const REGIONS = [...PROVINCES, ...US_STATES] as const;
/** The same list in two named groups, each region by its name: Canada's provinces, then the US states apart. */
export const REGION_GROUPS = [
  { label: "Canada", options: PROVINCES },
  { label: "United States", options: US_STATES },
];
export const REGION_NAMES: Record<string, string> = { ...PROVINCE_NAMES, ...US_STATE_NAMES };
export const GARAGE_TYPES = ["none", "single", "double", "triple", "carport", "detached"] as const;
export const BASEMENT_STATUSES = [
  "none",
  "unfinished",
  "partially-finished",
  "finished",
  "walkout",
  "crawlspace",
] as const;
export const OWNERSHIP_TYPES = ["owner", "renter", "landlord"] as const;
export const HOUSEHOLD_INCOMES = ["50k-100k", "100k-150k", "150k-200k", "200k-300k", "over-300k"] as const;
export const OCCUPATIONS = [
  "professional",
  "manager",
  "tradesperson",
  "entrepreneur",
  "retired",
  "student",
  "other",
] as const;
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
export type NewProperty = Partial<
  Omit<Property, "id" | "customerId" | "createdAt" | "clientName" | "clientEmail" | "clientPhone" | "subscriptionPlan">
> &
  Pick<Property, "address" | "city" | "postalCode">;

export interface NewCustomer {
  email: string;
  name: string;
  phone?: string | null;
  subscriptionPlan: SubscriptionPlan;
  stripeSessionId?: string | null;
  /** The language of the page they signed up on; English when none says (docs/decisions.md#65). */
  locale?: Locale;
}

export interface Customer {
  id: number;
  email: string;
  name: string;
  phone: string | null;
  subscriptionPlan: string;
  stripeSessionId: string | null;
  locale: Locale;
  createdAt: string;
}

/** The plans a paid checkout may carry into property intake. */
export const INTAKE_PLANS = ["basic", "standard", "premium"] as const;

/** Intake limits: the zod schema enforces them, the intake island checks them before sending. */
export const ZIP_CODE_PATTERN = /^\d{5}(-\d{4})?$/;

// --- Addresses (docs/decisions.md#31): Canadian first, the spec's US reading second. ---

/** A Canadian postal code in any case, with one space, a dash or nothing in the middle (no D, F, I, O, Q, U). */
export const POSTAL_CODE_PATTERN = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])[ -]?(\d[ABCEGHJ-NPRSTV-Z]\d)$/i;
export const POSTAL_CODE_MESSAGE = "Enter a valid postal code, like K1S 2B4";
/** The sample address of forms and hints: it belongs to the service area. */
export const SAMPLE_POSTAL_CODE = "K1S 2B4";

/** 'k1s2b4' → 'K1S 2B4'; a US ZIP stays as typed; anything else is null. */
export function normalizePostalCode(value: string, allowZip = true): string | null {
  const v = value.trim();
  const ca = POSTAL_CODE_PATTERN.exec(v);
  if (ca) return `${ca[1]} ${ca[2]}`.toUpperCase();
  return allowZip && ZIP_CODE_PATTERN.test(v) ? v : null;
}

export const isProvince = (code: string | null | undefined) => (PROVINCES as readonly string[]).includes(code ?? "");
const _isUsState = (code: string | null | undefined) => (US_STATES as readonly string[]).includes(code ?? "");

/** A region code goes to `province` or to `state`, never both: a province is not a US state. */
export const regionColumns = (code: string) =>
  isProvince(code) ? { province: code, state: null } : { province: null, state: code };

/** One line for any address: '12 Elm St, Ottawa, ON K1S 2B4'. Empty parts are left out. */
export function formatAddress(p: {
  address?: string | null;
  city?: string | null;
  province?: string | null;
  state?: string | null;
  postalCode?: string | null;
}): string {
  const region = [p.province || p.state, p.postalCode].filter(Boolean).join(" ");
  return [p.address, p.city, region].filter(Boolean).join(", ");
}
export const SQUARE_FOOTAGE_LIMITS = { min: 100, max: 100_000 } as const;
export const YEAR_BUILT_MIN = 1600;

/** Postgres integer ids stop here; a larger id cannot exist, so it is refused before any query. */
export const MAX_ID = 2_147_483_647;

/** E-mail addresses compare without case or surrounding space. */
export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Who is asking: staff see every record, a customer browser only its own (docs/decisions.md#5). */
export type Viewer = { kind: "staff" } | { kind: "customer"; customerIds: number[] };
