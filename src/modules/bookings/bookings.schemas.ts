import { z } from "zod";
import { MAX_ID, idInput, isMultiLine, isSingleLine, multiLineMessage, singleLineMessage } from "../../http/fields.js";
import { PROPERTY_TYPES, emailField, phoneField, requiredText } from "../customers/customers.schemas.js";
import { DAY_PART_VALUES, TIME_SLOTS, isIsoDate } from "../../shared/business-time.js";
import { localeField } from "../../i18n/schemas.js";

// Islands import this file too: nothing from the server here.

import {
  ACCESS_INFO_MESSAGE,
  ACCESS_INFO_TITLE,
  ACCESS_METHODS,
  type BookingCalendar,
  LEAD_MESSAGE,
  NEEDS_ACCESS_INFO,
} from "./bookings.constants.js";

export * from "./bookings.constants.js";

// '' and null mean "not given" for optional fields; forms send both.
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const toNumber = (v: unknown) => {
  const value = blankToUndefined(typeof v === "string" ? v.trim() : v);
  return typeof value === "string" ? Number(value.replace(/,/g, "")) : value;
};

/** Optional text: single-line unless `multiline` (instructions and requests keep their line breaks). */
export const optionalText = (label: string, max: number, multiline = false) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine(multiline ? isMultiLine : isSingleLine, multiline ? multiLineMessage(label) : singleLineMessage(label))
      .optional(),
  );
/** An id as a number, or as canonical text ('12'; never '012', ' 12' or '0xc'). */
const toId = (v: unknown) => idInput(blankToUndefined(v));

/** An enumerated field: its own message when missing, the allowed values when wrong. */
export const choice = <T extends readonly [string, ...string[]]>(
  values: T,
  label: string,
  missing = `${label} is required`,
) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || issue.input === null || issue.input === ""
        ? missing
        : `${label} must be one of ${values.join(", ")}`,
  });

export const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`) })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`),
  );

const _optionalWholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    toNumber,
    z
      .number({ message: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .optional(),
  );

export const optionalChoice = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.preprocess(blankToUndefined, choice(values, label).optional());

/** A date the wizard or onboarding may book: a real date, at least 4 days ahead, within a year. */
export const leadDate = (calendar: BookingCalendar, label: string) =>
  z.string({ message: `${label} is required` }).superRefine((value, ctx) => {
    if (!value) return void ctx.addIssue({ code: "custom", message: `${label} is required` });
    if (!isIsoDate(value))
      return void ctx.addIssue({ code: "custom", message: `${label} must be a date (YYYY-MM-DD)` });
    if (value < calendar.minDate) return void ctx.addIssue({ code: "custom", message: LEAD_MESSAGE });
    if (value > calendar.maxDate)
      ctx.addIssue({ code: "custom", message: `${label} must be within a year from today` });
  });

/** The wizard's required fields (customer-side §5: step 1, step 2, step 3). */
export const WIZARD_REQUIRED_FIELDS = [
  "propertyAddress",
  "propertyType",
  "propertySize",
  "firstName",
  "lastName",
  "email",
  "phone",
  "scheduledDate",
  "timeSlot",
  "accessMethod",
] as const;
/** The wizard's submit toast when something required is missing (customer-side §5). */
export const WIZARD_MISSING_MESSAGE = "Please fill in all required fields.";
/** customer-side §5's access rule as one line: its title, then its text. */
export const WIZARD_ACCESS_MESSAGE = `${ACCESS_INFO_TITLE}: ${ACCESS_INFO_MESSAGE}`;

/** The scheduling wizard's payload (customer-side §3), checked field by field with §5's rules. */
export const wizardBookingSchema = (calendar: BookingCalendar) =>
  z
    .object({
      // Set when the wizard was opened for a customer this browser created (property intake).
      customerId: z.preprocess(
        toId,
        z
          .number({ message: "Customer id must be a number" })
          .int("Customer id must be a whole number")
          .positive("Customer id must be positive")
          .max(MAX_ID, "Customer id is not valid")
          .optional(),
      ),
      propertyAddress: requiredText("Property address", 300),
      propertyType: choice(PROPERTY_TYPES, "Property type"),
      propertySize: wholeNumber("Property size", 100, 100_000),
      yearBuilt: z.preprocess(
        toNumber,
        z
          .number({ message: "Year built must be a number" })
          .int()
          .min(1600, "Year built must be 1600 or later")
          .max(new Date().getFullYear() + 1, "Year built cannot be in the future")
          .optional(),
      ),
      firstName: requiredText("First name", 100),
      lastName: requiredText("Last name", 100),
      email: emailField,
      phone: phoneField,
      scheduledDate: leadDate(calendar, "Inspection date"),
      timeSlot: choice(TIME_SLOTS as [string, ...string[]], "Time slot"),
      accessMethod: choice(ACCESS_METHODS, "Access method"),
      accessCode: optionalText("Access code", 100),
      accessInstructions: optionalText("Access instructions", 1000, true),
      specialRequests: optionalText("Special requests", 2000, true),
      /** The wizard page's language: a customer the booking creates is stored with it (docs/decisions.md#65). */
      locale: localeField.optional(),
    })
    .superRefine((input, ctx) => {
      if (NEEDS_ACCESS_INFO.includes(input.accessMethod) && !input.accessCode && !input.accessInstructions) {
        ctx.addIssue({ code: "custom", path: ["accessCode"], message: ACCESS_INFO_MESSAGE });
        ctx.addIssue({ code: "custom", path: ["accessInstructions"], message: ACCESS_INFO_MESSAGE });
      }
    });
export type WizardBookingInput = z.infer<ReturnType<typeof wizardBookingSchema>>;

/** The customer booking page's payload: a property of this browser, one of the 14 weekdays, a part of the day. */
export const pageBookingSchema = (calendar: BookingCalendar) =>
  z.object({
    propertyId: z.preprocess(
      toId,
      z
        .number({ message: "No property found" })
        .int("No property found")
        .positive("No property found")
        .max(MAX_ID, "No property found"),
    ),
    scheduledDate: z
      .string({ message: "Please select a date" })
      .min(1, "Please select a date")
      .refine((d) => calendar.bookingDates.includes(d), "Please select one of the offered dates"),
    timeSlot: z.enum(DAY_PART_VALUES, { message: "Please select a time slot" }),
    notes: optionalText("Notes", 2000, true),
  });
export type PageBookingInput = z.infer<ReturnType<typeof pageBookingSchema>>;

/** The longest span the availability call answers at once. */
export const AVAILABILITY_MAX_DAYS = 31;

/** GET /api/inspection-bookings/availability: `from` and `to` dates (at most 31 days) and the home's size. */
export const availabilityQuerySchema = (calendar: BookingCalendar) =>
  z
    .object({
      from: z
        .string({ message: "From is required" })
        .refine(isIsoDate, "From must be a date (YYYY-MM-DD)")
        .refine((d) => d <= calendar.maxDate, "From must be within a year from today"),
      to: z
        .string({ message: "To is required" })
        .refine(isIsoDate, "To must be a date (YYYY-MM-DD)")
        .refine((d) => d <= calendar.maxDate, "To must be within a year from today"),
      size: z.preprocess((v) => (v === "" ? undefined : v), wholeNumber("Property size", 100, 100_000).optional()),
    })
    .superRefine((q, ctx) => {
      if (!isIsoDate(q.from) || !isIsoDate(q.to)) return;
      if (q.to < q.from) ctx.addIssue({ code: "custom", path: ["to"], message: "To must not be before from" });
      else if (Date.parse(q.to) - Date.parse(q.from) >= AVAILABILITY_MAX_DAYS * 86_400_000)
        ctx.addIssue({
          code: "custom",
          path: ["to"],
          message: `Ask for at most ${AVAILABILITY_MAX_DAYS} days at once`,
        });
    });
