import { z } from "zod";
import type { Locale } from "../../i18n/locales.js";
import { localeField } from "../../i18n/schemas.js";
import { isMultiLine, isSingleLine, multiLineMessage, singleLineMessage } from "../../http/fields.js";
import {
  BATHROOMS_FORM,
  BEDROOMS_FORM,
  COOLING_TYPES,
  ELECTRICAL_PANELS,
  HEATING_TYPES,
  HVAC_UNITS,
  INTAKE_PLANS,
  MAX_ID,
  POSTAL_CODE_MESSAGE,
  PROVINCES,
  REGIONS,
  ROOF_TYPES,
  SQUARE_FOOTAGE_LIMITS,
  STORIES,
  WATER_HEATER_TYPES,
  YEAR_BUILT_MIN,
  normalizePostalCode,
  regionColumns,
} from "./customers.constants.js";

// Zod schemas of customers. Imported by islands too: nothing from the server here. The enumerations
// and shapes live in customers.constants.ts (zod-free, for small islands) and are re-exported here.
export * from "./customers.constants.js";

// Shared field schemas with the spec's messages, reused by intake, wizard and onboarding.
/** A required single-line text (a name, an address): no line break or other control character. */
export const requiredText = (label: string, max = 200) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isSingleLine, singleLineMessage(label));
export const emailField = z
  .string({ message: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .email("Enter a valid email address")
  .max(254);
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

/** Optional text: single-line unless `multiline` (notes keep their line breaks). */
const optionalText = (label: string, max = 500, multiline = false) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine(multiline ? isMultiLine : isSingleLine, multiline ? multiLineMessage(label) : singleLineMessage(label))
      .optional(),
  );

// Addresses (docs/decisions.md#31): a province or a US state, a Canadian postal code or a US ZIP code.
const regionCode = (value: unknown) =>
  typeof value === "string" ? blankToUndefined(value.trim().toUpperCase()) : blankToUndefined(value);

/** A two-letter region, any case: the provinces, or (the spec's second reading) the US states. */
export const regionField = (label = "Province") =>
  z.preprocess(
    regionCode,
    z.enum(REGIONS, {
      error: (issue) =>
        issue.input === undefined ? `${label} is required` : `${label} must be a two-letter province or US state code`,
    }),
  );

/** A postal code stored as 'K1S 2B4' (any case, with or without the space); a US ZIP code stays as typed when `allowZip`. */
export const postalCodeField = (label = "Postal code", allowZip = true) =>
  requiredText(label, 12).transform((value, ctx) => {
    const normalized = normalizePostalCode(value, allowZip);
    if (normalized) return normalized;
    ctx.addIssue({ code: "custom", message: POSTAL_CODE_MESSAGE });
    return z.NEVER;
  });

/** The property's fields under either pair of names: the spec's state/zipCode, or province/postalCode. */
const withSpecAddressNames = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const p = value as Record<string, unknown>;
  return { ...p, state: blankToUndefined(p.state) ?? p.province, zipCode: blankToUndefined(p.zipCode) ?? p.postalCode };
};

const intakePropertyObject = z.object(
  {
    address: requiredText("Street address"),
    city: requiredText("City", 100),
    state: regionField("Province"),
    zipCode: postalCodeField("Postal code"),
    province: z.preprocess(
      regionCode,
      z.enum(PROVINCES, { message: "Province must be a two-letter Canadian province code" }).optional(),
    ),
    postalCode: z.preprocess(blankToUndefined, postalCodeField("Postal code").optional()),
    squareFootage: requiredInt("Square footage", SQUARE_FOOTAGE_LIMITS.min, SQUARE_FOOTAGE_LIMITS.max),
    yearBuilt: requiredInt("Year built", YEAR_BUILT_MIN, new Date().getFullYear() + 1),
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
    notes: optionalText("Notes", 2000, true),
  },
  { message: "Property information is required" },
);

/**
 * The intake's property: either pair of names is accepted, and both pairs must agree when both are sent.
 * The answer holds the stored shape: `province` or `state` (never both) and one `postalCode`.
 */
export const intakePropertySchema = z.preprocess(
  withSpecAddressNames,
  intakePropertyObject
    .superRefine((p, ctx) => {
      if (p.province && p.province !== p.state)
        ctx.addIssue({ code: "custom", path: ["province"], message: "Province and state name different regions" });
      if (p.postalCode && p.postalCode !== p.zipCode)
        ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Postal code and ZIP code differ" });
    })
    .transform(({ state, zipCode, province: _province, postalCode: _postalCode, ...rest }) => ({
      ...rest,
      ...regionColumns(state),
      postalCode: zipCode,
    })),
);

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
  property: intakePropertySchema,
  /** The intake page's language (docs/decisions.md#65). */
  locale: localeField.optional(),
});

// --- Staff lists (docs/decisions.md#15): newest first, a page at a time, with a search text. ---

const wholeQueryNumber = (label: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || value === "" ? fallback : typeof value === "string" ? Number(value) : value),
    z
      .number({ message: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

/** `limit` (default 100, at most 500), `offset` and `q` of a staff list call. */
export const staffListQuerySchema = z.object({
  limit: wholeQueryNumber("Limit", 1, 500, 100),
  offset: wholeQueryNumber("Offset", 0, MAX_ID, 0),
  q: z.preprocess(
    (value) => (value === "" ? undefined : value),
    z.string({ message: "Search must be text" }).trim().max(200, "Search must be at most 200 characters").optional(),
  ),
});

// --- Staff edit of a property and its customer: the intake's exact field rules, every field optional. ---

/** Optional fields of the intake that an edit may clear: "" or null stores null; left out keeps the value. */
const CLEARABLE = [
  "bedrooms",
  "bathrooms",
  "stories",
  "hvacUnits",
  "electricalPanels",
  "plumbingSystems",
  "roofType",
  "heatingType",
  "coolingType",
  "waterHeaterType",
  "foundationType",
  "notes",
] as const;
const intakeShape = intakePropertyObject.shape;
const clearable = <K extends (typeof CLEARABLE)[number]>(key: K) =>
  z.preprocess((v) => (v === "" ? null : v), intakeShape[key].nullable()).optional();

/** The spec's Property names the customer's fields clientName, clientEmail and clientPhone: the edit takes either. */
const withSpecClientNames = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const { clientName, clientEmail, clientPhone, ...rest } = value as Record<string, unknown>;
  return { ...rest, name: rest.name ?? clientName, email: rest.email ?? clientEmail, phone: rest.phone ?? clientPhone };
};

const propertyEditObject = z.object({
  ...intakePropertyObject.partial().shape,
  bedrooms: clearable("bedrooms"),
  bathrooms: clearable("bathrooms"),
  stories: clearable("stories"),
  hvacUnits: clearable("hvacUnits"),
  electricalPanels: clearable("electricalPanels"),
  plumbingSystems: clearable("plumbingSystems"),
  roofType: clearable("roofType"),
  heatingType: clearable("heatingType"),
  coolingType: clearable("coolingType"),
  waterHeaterType: clearable("waterHeaterType"),
  foundationType: clearable("foundationType"),
  notes: clearable("notes"),
  name: requiredText("Name", 120).optional(),
  email: emailField.optional(),
  phone: phoneField.optional(),
  locale: localeField.optional(),
});

/**
 * PATCH /api/properties/{id}: any of the intake's property fields (state/zipCode or province/postalCode,
 * normalised as at intake) and the customer's name, email, phone and locale. The answer splits them into the
 * property's columns and the customer's. A field it does not know is a 400, not dropped (docs/decisions.md#65).
 */
export const propertyEditSchema = z.preprocess(
  (value) => withSpecAddressNames(withSpecClientNames(value)),
  propertyEditObject
    .strict()
    .superRefine((p, ctx) => {
      if (p.province && p.state && p.province !== p.state)
        ctx.addIssue({ code: "custom", path: ["province"], message: "Province and state name different regions" });
      if (p.postalCode && p.zipCode && p.postalCode !== p.zipCode)
        ctx.addIssue({ code: "custom", path: ["postalCode"], message: "Postal code and ZIP code differ" });
    })
    .transform(
      ({ state, zipCode, province: _province, postalCode: _postalCode, name, email, phone, locale, ...rest }) => {
        const property: Partial<Record<keyof import("./customers.constants.js").NewProperty, unknown>> =
          Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
        if (state) Object.assign(property, regionColumns(state));
        if (zipCode) property.postalCode = zipCode;
        const customer = Object.fromEntries(
          Object.entries({ name, email, phone, locale }).filter(([, v]) => v !== undefined),
        ) as { name?: string; email?: string; phone?: string; locale?: Locale };
        return { property: property as Partial<import("./customers.constants.js").NewProperty>, customer };
      },
    ),
);
export type PropertyEdit = z.infer<typeof propertyEditSchema>;
