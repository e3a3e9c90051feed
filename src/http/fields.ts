import { z } from "zod";

// Input field rules shared by every module's schemas: ids, dates, timestamps and text. Islands import
// those schemas, so this file imports nothing but zod.

/** Postgres integer ids stop here; a larger id cannot exist, so it is refused before any query. */
export const MAX_ID = 2_147_483_647;
/** An id as text: canonical decimal only (no sign, no leading zero, no space, no hex or exponent). */
export const ID_PATTERN = /^[1-9][0-9]{0,9}$/;

/** The canonical text of an id → the number, or null for anything else ('0x2c', '4.4e1', ' 44', '044'). */
export function parseId(value: unknown): number | null {
  if (typeof value !== "string" || !ID_PATTERN.test(value)) return null;
  const id = Number(value);
  return id <= MAX_ID ? id : null;
}

/**
 * An id in a path or a query string, parsed to a number. Text that is not digits "must be a number";
 * digits that are not canonical (0, a leading zero, past MAX_ID) are "not valid".
 */
export const pathId = (label = "Id") =>
  z
    .string({ message: `${label} must be a number` })
    .superRefine((value, ctx) => {
      if (!/^[0-9]+$/.test(value)) ctx.addIssue({ code: "custom", message: `${label} must be a number` });
      else if (parseId(value) === null) ctx.addIssue({ code: "custom", message: `${label} is not valid` });
    })
    .transform(Number);

/** An optional id in a query string: absent or empty means not given. */
export const optionalQueryId = (label: string) =>
  z.preprocess((v) => (v === "" ? undefined : v), pathId(label).optional());

/**
 * Ids in a JSON body or a form arrive as numbers or as text: only canonical text becomes a number; any
 * other text stays text and fails the number check that follows (use with z.preprocess).
 */
export const idInput = (value: unknown) =>
  typeof value === "string" && ID_PATTERN.test(value) ? Number(value) : value;

// --- Dates and timestamps: Postgres refuses year 0 and odd offsets, so bounds apply before SQL. ---

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2200;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written 'YYYY-MM-DD' in years MIN_YEAR to MAX_YEAR. */
export function isBoundedDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < MIN_YEAR || year > MAX_YEAR) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Why a 'YYYY-MM-DD' text is not a usable date, or null when it is one. */
export function dateProblem(value: string, label: string): string | null {
  if (!value.trim()) return `${label} is required`;
  if (isBoundedDate(value)) return null;
  const year = Number(DATE_PATTERN.exec(value)?.[1] ?? MIN_YEAR);
  if (year < MIN_YEAR || year > MAX_YEAR) return yearsMessage(label);
  return `${label} must be a date (YYYY-MM-DD)`;
}

const yearsMessage = (label: string) => `${label} must be between ${MIN_YEAR} and ${MAX_YEAR}`;

/** A required date 'YYYY-MM-DD': a real calendar date in years 1900 to 2200. */
export const dateField = (label: string) =>
  z.string({ message: `${label} is required` }).superRefine((value, ctx) => {
    const problem = dateProblem(value, label);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A month 'YYYY-MM' in years 1900 to 2200. */
export const monthField = (label = "Month") =>
  z
    .string({ message: `${label} must be YYYY-MM` })
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${label} must be YYYY-MM`)
    .refine((value) => isBoundedDate(`${value}-01`), yearsMessage(label));

/**
 * A date and time in ISO 8601 with a zone ('Z' or an offset), years 1900 to 2200, given back as UTC
 * ('…Z'): Postgres refuses some offsets zod allows, and one form is easier to compare.
 */
export const timestampField = (label: string, message = `${label} must be a date and time (ISO 8601)`) =>
  z.iso.datetime({ offset: true, message }).transform((value, ctx) => {
    const instant = new Date(value);
    const year = instant.getUTCFullYear();
    if (Number.isNaN(instant.getTime()) || year < MIN_YEAR || year > MAX_YEAR) {
      ctx.addIssue({ code: "custom", message: yearsMessage(label) });
      return z.NEVER;
    }
    return instant.toISOString();
  });

// --- Text: single-line fields are printed into e-mail headers and bodies, so no control characters. ---

/** C0 controls, DEL, C1 controls and the Unicode line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** The same, except the tab and the line breaks (\t, \n, \r) that notes and descriptions keep. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

export const isSingleLine = (value: string) => !SINGLE_LINE_FORBIDDEN.test(value);
export const isMultiLine = (value: string) => !MULTI_LINE_FORBIDDEN.test(value);
export const singleLineMessage = (label: string) => `${label} must be one line without control characters`;
export const multiLineMessage = (label: string) => `${label} holds a control character that is not allowed`;

/** Any single-line text (a name, an address, a title): trimmed, at most `max`, no control character. */
export const singleLineText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isSingleLine, singleLineMessage(label));

/** Multi-line text (notes, descriptions): line breaks and tabs are kept, other control characters refused. */
export const multiLineText = (label: string, max: number) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .refine(isMultiLine, multiLineMessage(label));

/** `{ id }` of a route like /api/reports/:id. */
export const idParams = z.object({ id: pathId("Id") });
