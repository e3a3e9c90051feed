// Light client-side checks of the property form, with the server's messages in the page's language. They only help the person
// before a round trip; the server's zod schema decides (its 400 fields are shown field by field), and
// leaving zod out keeps this island within the JS budget.
import {
  SQUARE_FOOTAGE_LIMITS,
  YEAR_BUILT_MIN,
  normalizePostalCode,
} from "../../src/modules/customers/customers.constants";
import { type CheckT, emailError, nextYear, numberError, phoneError, requiredError } from "../bookings/checks";

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

/** The required fields, in form order: each message names the field as the server's does (intake.error.*). */
const REQUIRED: (keyof IntakeValues)[] = [
  "name",
  "email",
  "phone",
  "address",
  "city",
  "state",
  "zipCode",
  "squareFootage",
  "yearBuilt",
];

/** Each field's first problem, or an empty object when the form may be sent. `t` has `intake` and `forms`. */
export function intakeErrors(t: CheckT, values: IntakeValues): Partial<Record<keyof IntakeValues, string>> {
  const errors: Partial<Record<keyof IntakeValues, string>> = {};
  const name = (key: keyof IntakeValues) => t(`intake.error.${key}`);
  for (const key of REQUIRED) {
    if (!values[key].trim()) errors[key] = requiredError(t, name(key));
  }
  const zip = values.zipCode.trim() && !normalizePostalCode(values.zipCode) ? t("forms.postalCode") : undefined;
  const more: Partial<Record<keyof IntakeValues, string | undefined>> = {
    email: emailError(t, values.email),
    phone: phoneError(t, values.phone),
    zipCode: zip,
    squareFootage: numberError(
      t,
      name("squareFootage"),
      values.squareFootage,
      SQUARE_FOOTAGE_LIMITS.min,
      SQUARE_FOOTAGE_LIMITS.max,
    ),
    yearBuilt: numberError(t, name("yearBuilt"), values.yearBuilt, YEAR_BUILT_MIN, nextYear()),
  };
  for (const [key, message] of Object.entries(more) as [keyof IntakeValues, string | undefined][]) {
    if (message) errors[key] ??= message;
  }
  return errors;
}
