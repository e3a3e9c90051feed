// The schedule wizard's steps and checks (ScheduleWizard.island.tsx), and what its steps' fields are given: plain data, no
// React.
import type { WizardPrefill } from "../../src/modules/bookings/bookings.constants";
import { type CheckT, emailError, leadDateError, nextYear, numberError, phoneError, requiredError } from "./checks";
import type { IslandT } from "../ui/i18n";

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
  /** The step's title as a message key (booking.step.*). */
  title: string;
  fields: Key[];
  required: Key[];
}

export const STEPS: Step[] = [
  {
    title: "booking.step.property",
    fields: ["propertyAddress", "propertyType", "propertySize", "yearBuilt"],
    required: ["propertyAddress", "propertyType", "propertySize"],
  },
  {
    title: "booking.step.contact",
    fields: ["firstName", "lastName", "email", "phone"],
    required: ["firstName", "lastName", "email", "phone"],
  },
  {
    title: "booking.step.schedule",
    fields: ["scheduledDate", "timeSlot", "accessMethod", "accessCode", "accessInstructions", "specialRequests"],
    required: ["scheduledDate", "timeSlot", "accessMethod"],
  },
];

/** Steps the buyer already went through before the wizard (payment, then the property form of intake). */
export const INTAKE_STEPS = ["booking.step.payment", "booking.step.yourProperty"];

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

/**
 * Field errors of the given fields, with the server's messages in the page's language (the server checks again).
 * `t` has `booking` and `forms`; a message names its field as the server's does (booking.error.*).
 */
export function problemsIn(t: CheckT, values: Values, fields: Key[], minDate: string, maxDate: string): Errors {
  const name = (key: Key) => t(`booking.error.${key}`);
  const all: Errors = {
    propertySize: numberError(t, name("propertySize"), values.propertySize, 100, 100_000),
    yearBuilt: numberError(t, name("yearBuilt"), values.yearBuilt, 1600, nextYear()),
    email: emailError(t, values.email),
    phone: phoneError(t, values.phone),
    scheduledDate: leadDateError(t, name("scheduledDate"), values.scheduledDate, minDate, maxDate),
  };
  for (const s of STEPS) for (const key of s.required) if (!values[key].trim()) all[key] = requiredError(t, name(key));
  const found: Errors = {};
  for (const key of fields) if (all[key]) found[key] = all[key];
  return found;
}

/** What a field needs from the wizard: its id, value, error and change handler. */
export interface FieldBinding {
  id: Key;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

export interface StepFieldsProps {
  t: IslandT;
  field: (key: Key) => FieldBinding;
}
