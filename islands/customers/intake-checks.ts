// Light client-side checks of the property form, with the server's messages. They only help the person
// before a round trip; the server's zod schema decides (its 400 fields are shown field by field), and
// leaving zod out keeps this island within the JS budget.
import {
  POSTAL_CODE_MESSAGE,
  SQUARE_FOOTAGE_LIMITS,
  YEAR_BUILT_MIN,
  normalizePostalCode,
} from "../../src/modules/customers/customers.constants";
import { emailError, nextYear, numberError, phoneError } from "../bookings/checks";

export interface IntakeValues {
  name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  squareFootage: string;
  yearBuilt: string;
}

/** The required fields, in form order, with the labels the server's messages use. */
const REQUIRED: [keyof IntakeValues, string][] = [
  ["name", "Name"],
  ["email", "Email"],
  ["phone", "Phone"],
  ["address", "Street address"],
  ["city", "City"],
  ["state", "Province"],
  ["zipCode", "Postal code"],
  ["squareFootage", "Square footage"],
  ["yearBuilt", "Year built"],
];

/** Each field's first problem, or an empty object when the form may be sent. */
export function intakeErrors(values: IntakeValues): Partial<Record<keyof IntakeValues, string>> {
  const errors: Partial<Record<keyof IntakeValues, string>> = {};
  for (const [key, label] of REQUIRED) {
    if (!values[key].trim()) errors[key] = `${label} is required`;
  }
  const zip = values.zipCode.trim() && !normalizePostalCode(values.zipCode) ? POSTAL_CODE_MESSAGE : undefined;
  const more: Partial<Record<keyof IntakeValues, string | undefined>> = {
    email: emailError(values.email),
    phone: phoneError(values.phone),
    zipCode: zip,
    squareFootage: numberError(
      "Square footage",
      values.squareFootage,
      SQUARE_FOOTAGE_LIMITS.min,
      SQUARE_FOOTAGE_LIMITS.max,
    ),
    yearBuilt: numberError("Year built", values.yearBuilt, YEAR_BUILT_MIN, nextYear()),
  };
  for (const [key, message] of Object.entries(more) as [keyof IntakeValues, string | undefined][]) {
    if (message) errors[key] ??= message;
  }
  return errors;
}
