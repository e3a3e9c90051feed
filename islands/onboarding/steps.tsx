import {
  NEEDS_ACCESS_CODE,
  ONBOARDING_ACCESS_LABELS,
  ONBOARDING_ACCESS_METHODS,
} from "../../src/modules/onboarding/onboarding.constants";
import type { OnboardingOptions } from "../../src/modules/onboarding/onboarding.constants";
import {
  POSTAL_CODE_MESSAGE,
  PROVINCE_NAMES,
  SAMPLE_POSTAL_CODE,
  normalizePostalCode,
} from "../../src/modules/customers/customers.constants";
import { type CheckT, emailError, leadDateError, nextYear, numberError, phoneError } from "../bookings/checks";

// Here, not in the shared checks: the scheduling wizard then loads no province list (its JS budget).
/** A Canadian postal code (onboarding's provinces have no US states, so no ZIP code here). */
const postalCodeError = (v: string) => (v.trim() && !normalizePostalCode(v, false) ? POSTAL_CODE_MESSAGE : undefined);
import { ChoiceCards, TextAreaField } from "../bookings/form-parts";
import { Field, SelectField } from "../checkout/fields";
import { PreferredTime } from "./free-times";

export const EMPTY = {
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  address: "",
  city: "",
  province: "",
  postalCode: "",
  squareFootage: "",
  yearBuilt: "",
  bedrooms: "",
  bathrooms: "",
  garageType: "",
  basementStatus: "",
  ownershipType: "",
  financingType: "",
  householdIncome: "",
  occupation: "",
  householdSize: "",
  preferredDate: "",
  preferredTime: "",
  accessMethod: "",
  accessCode: "",
  accessInstructions: "",
};
export type Values = typeof EMPTY;
export type Key = keyof Values;
export type Errors = Partial<Record<Key, string>>;

/** Reading B's five steps, each with reading A's required fields for that step (customer-side §5). */
export const STEPS: { title: string; fields: Key[]; required: Key[] }[] = [
  {
    title: "Personal Information",
    fields: ["firstName", "lastName", "email", "phone"],
    required: ["firstName", "lastName", "email", "phone"],
  },
  {
    title: "Address Information",
    fields: ["address", "city", "province", "postalCode"],
    required: ["address", "city", "province", "postalCode"],
  },
  {
    title: "Property Information",
    fields: ["squareFootage", "yearBuilt", "bedrooms", "bathrooms", "garageType", "basementStatus"],
    required: ["squareFootage", "yearBuilt", "bedrooms", "bathrooms"],
  },
  {
    title: "Lifestyle Information",
    fields: ["ownershipType", "financingType", "householdIncome", "occupation", "householdSize"],
    required: ["ownershipType", "householdIncome", "occupation"],
  },
  {
    title: "Schedule Your Inspection",
    fields: ["preferredDate", "preferredTime", "accessMethod", "accessCode", "accessInstructions"],
    required: ["preferredDate", "preferredTime", "accessMethod"],
  },
];

/** Each field's label, as on its step (for the list of refused answers). */
export const FIELD_LABELS: Record<Key, string> = {
  firstName: "First name",
  lastName: "Last name",
  email: "Email",
  phone: "Phone",
  address: "Street address",
  city: "City",
  province: "Province",
  postalCode: "Postal code",
  squareFootage: "Square footage",
  yearBuilt: "Year built",
  bedrooms: "Bedrooms",
  bathrooms: "Bathrooms",
  garageType: "Garage",
  basementStatus: "Basement",
  ownershipType: "Ownership",
  financingType: "Financing",
  householdIncome: "Household income",
  occupation: "Occupation",
  householdSize: "Household size",
  preferredDate: "Preferred date",
  preferredTime: "Preferred time",
  accessMethod: "Access method",
  accessCode: "Access code",
  accessInstructions: "Access instructions",
};

const titleCase = (v: string) => v.charAt(0).toUpperCase() + v.slice(1).replace(/-/g, " ");
const labelsFor = (values: readonly string[], extra: Record<string, string> = {}) =>
  Object.fromEntries(values.map((v) => [v, extra[v] ?? titleCase(v)]));
const INCOME_LABELS: Record<string, string> = {
  "50k-100k": "$50k - $100k",
  "100k-150k": "$100k - $150k",
  "150k-200k": "$150k - $200k",
  "200k-300k": "$200k - $300k",
  "over-300k": "Over $300k",
};

interface StepProps {
  options: OnboardingOptions;
  step: number;
  values: Values;
  errors: Errors;
  minDate: string;
  maxDate: string;
  set: (key: Key) => (value: string) => void;
}

/** The fields of one step; errors show once a field has been touched. */
export function StepFields({ options: o, step, values, errors, minDate, maxDate, set }: StepProps) {
  const f = (key: Key) => ({ id: key, value: values[key], error: errors[key], onChange: set(key) });
  switch (step) {
    case 1:
      return (
        <>
          <Field {...f("firstName")} label="First name" required autoComplete="given-name" />
          <Field {...f("lastName")} label="Last name" required autoComplete="family-name" />
          <Field {...f("email")} label="Email" type="email" required autoComplete="email" />
          <Field {...f("phone")} label="Phone" type="tel" required autoComplete="tel" />
        </>
      );
    case 2:
      return (
        <>
          <div className="sm:col-span-2">
            <Field {...f("address")} label="Street address" required autoComplete="street-address" />
          </div>
          <Field {...f("city")} label="City" required autoComplete="address-level2" />
          <SelectField {...f("province")} label="Province" required options={o.provinces} labels={PROVINCE_NAMES} />
          <Field
            {...f("postalCode")}
            label="Postal code"
            required
            autoComplete="postal-code"
            hint={`For example ${SAMPLE_POSTAL_CODE}`}
          />
        </>
      );
    case 3:
      return (
        <>
          <Field {...f("squareFootage")} label="Square footage" required inputMode="numeric" />
          <Field {...f("yearBuilt")} label="Year built" required inputMode="numeric" />
          <SelectField {...f("bedrooms")} label="Bedrooms" required options={o.bedrooms} />
          <SelectField {...f("bathrooms")} label="Bathrooms" required options={o.bathrooms} />
          <SelectField {...f("garageType")} label="Garage" options={o.garageTypes} labels={labelsFor(o.garageTypes)} />
          <SelectField
            {...f("basementStatus")}
            label="Basement"
            options={o.basementStatuses}
            labels={labelsFor(o.basementStatuses)}
          />
        </>
      );
    case 4:
      return (
        <>
          <SelectField
            {...f("ownershipType")}
            label="Ownership"
            required
            options={o.ownershipTypes}
            labels={labelsFor(o.ownershipTypes)}
          />
          <Field {...f("financingType")} label="Financing (optional)" hint="For example mortgage or owned outright" />
          <SelectField
            {...f("householdIncome")}
            label="Household income"
            required
            options={o.householdIncomes}
            labels={INCOME_LABELS}
          />
          <SelectField
            {...f("occupation")}
            label="Occupation"
            required
            options={o.occupations}
            labels={labelsFor(o.occupations)}
          />
          <SelectField {...f("householdSize")} label="Household size" options={o.householdSizes} />
        </>
      );
    default:
      return (
        <>
          <div className="sm:col-span-2">
            <ChoiceCards
              name="accessMethod"
              legend="How will the inspector get in?"
              required
              columns="sm:grid-cols-2"
              value={values.accessMethod}
              error={errors.accessMethod}
              onChange={set("accessMethod")}
              options={ONBOARDING_ACCESS_METHODS.map((m) => ({ value: m, label: ONBOARDING_ACCESS_LABELS[m]! }))}
            />
          </div>
          {NEEDS_ACCESS_CODE.includes(values.accessMethod) && (
            <Field {...f("accessCode")} label="Access code" autoComplete="off" maxLength={100} />
          )}
          <div className="sm:col-span-2">
            <TextAreaField
              {...f("accessInstructions")}
              label="Access instructions (optional)"
              rows={2}
              maxLength={1000}
            />
          </div>
          <Field
            {...f("preferredDate")}
            label="Preferred date"
            type="date"
            required
            min={minDate}
            max={maxDate}
            hint="At least 4 days from today."
          />
          <PreferredTime
            date={values.preferredDate}
            size={values.squareFootage}
            minDate={minDate}
            value={values.preferredTime}
            error={errors.preferredTime}
            onChange={set("preferredTime")}
            onDate={set("preferredDate")}
          />
        </>
      );
  }
}

/** Field problems with the server's messages (the server checks everything again). */
export function problemsOf(t: CheckT, values: Values, minDate: string, maxDate: string): Errors {
  const all: Errors = {
    email: emailError(t, values.email),
    phone: phoneError(t, values.phone),
    postalCode: postalCodeError(values.postalCode),
    squareFootage: numberError(t, "Square footage", values.squareFootage, 100, 100_000),
    yearBuilt: numberError(t, "Year built", values.yearBuilt, 1600, nextYear()),
    preferredDate: leadDateError(t, "Preferred date", values.preferredDate, minDate, maxDate),
  };
  for (const key of Object.keys(all) as Key[]) if (!all[key]) delete all[key];
  return all;
}
