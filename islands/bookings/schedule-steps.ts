// The schedule wizard's steps and checks (ScheduleWizard.island.tsx): plain data, no React.
import type { WizardPrefill } from "../../src/modules/bookings/bookings.constants";
import { emailError, leadDateError, nextYear, numberError, phoneError } from "./checks";

export const EMPTY = {
  propertyAddress: "",
  propertyType: "",
  propertySize: "",
  yearBuilt: "",
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  scheduledDate: "",
  timeSlot: "",
  accessMethod: "",
  accessCode: "",
  accessInstructions: "",
  specialRequests: "",
};
export type Values = typeof EMPTY;
export type Key = keyof Values;
export type Errors = Partial<Record<Key, string>>;

export interface Step {
  title: string;
  fields: Key[];
  required: Key[];
}

export const STEPS: Step[] = [
  {
    title: "Property Info",
    fields: ["propertyAddress", "propertyType", "propertySize", "yearBuilt"],
    required: ["propertyAddress", "propertyType", "propertySize"],
  },
  {
    title: "Contact Info",
    fields: ["firstName", "lastName", "email", "phone"],
    required: ["firstName", "lastName", "email", "phone"],
  },
  {
    title: "Schedule",
    fields: ["scheduledDate", "timeSlot", "accessMethod", "accessCode", "accessInstructions", "specialRequests"],
    required: ["scheduledDate", "timeSlot", "accessMethod"],
  },
];

/** Steps the buyer already went through before the wizard (payment, then the property form of intake). */
export const INTAKE_STEPS = ["Payment", "Your Property"];

/**
 * Coming from intake, the property and contact are known: they are shown read-only
 * and only what intake did not ask remains (the property type, then the schedule), numbered as the
 * continuation of intake's 'Step 2 of 3'. Contact Info stays a step when intake left part of it empty.
 */
export function continuationSteps(values: Values): Step[] {
  const [, contact, schedule] = STEPS as [Step, Step, Step];
  const contactKnown = contact.required.every((k) => values[k].trim());
  const first = contactKnown ? schedule : contact;
  const withType: Step = {
    ...first,
    fields: ["propertyType", ...first.fields],
    required: ["propertyType", ...first.required],
  };
  return contactKnown ? [withType] : [withType, schedule];
}

/** The wizard's first values: intake's answers where it gave them. */
export function initialValues(prefill: WizardPrefill | null): Values {
  if (!prefill) return EMPTY;
  const { customerId: _id, ...rest } = prefill;
  return { ...EMPTY, ...(Object.fromEntries(Object.entries(rest).filter(([, v]) => v)) as Partial<Values>) };
}

/** What a required field's empty message calls it: '… is required'. */
const REQUIRED_NAMES: Partial<Record<Key, string>> = {
  propertyAddress: "Property address",
  propertyType: "Property type",
  propertySize: "Property size",
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  phone: "Phone",
  scheduledDate: "Inspection date",
  timeSlot: "Time slot",
  accessMethod: "Access method",
};

/** Field errors of the given fields, with the server's messages (the server checks again). */
export function problemsIn(values: Values, fields: Key[], minDate: string, maxDate: string): Errors {
  const all: Errors = {
    propertySize: numberError("Property size", values.propertySize, 100, 100_000),
    yearBuilt: numberError("Year built", values.yearBuilt, 1600, nextYear()),
    email: emailError(values.email),
    phone: phoneError(values.phone),
    scheduledDate: leadDateError("Inspection date", values.scheduledDate, minDate, maxDate),
  };
  for (const s of STEPS)
    for (const key of s.required) if (!values[key].trim()) all[key] = `${REQUIRED_NAMES[key]} is required`;
  const found: Errors = {};
  for (const key of fields) if (all[key]) found[key] = all[key];
  return found;
}
