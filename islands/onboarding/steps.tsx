import { NEEDS_ACCESS_CODE, ONBOARDING_ACCESS_METHODS } from "../../src/modules/onboarding/onboarding.constants";
import type { OnboardingOptions } from "../../src/modules/onboarding/onboarding.constants";
import { SAMPLE_POSTAL_CODE, normalizePostalCode } from "../../src/modules/customers/customers.constants";
import { type CheckT, emailError, leadDateError, nextYear, numberError, phoneError } from "../bookings/checks";
import type { IslandT } from "../ui/i18n";

// Here, not in the shared checks: the scheduling wizard then loads no province list (its JS budget).
/** A Canadian postal code (onboarding's provinces have no US states, so no ZIP code here). */
const postalCodeError = (t: CheckT, v: string) =>
  v.trim() && !normalizePostalCode(v, false) ? t("forms.postalCode") : undefined;
import { useEffect } from "react";
import { ChoiceCards, TextAreaField } from "../bookings/form-parts";
import { Field, SelectField } from "../checkout/fields";
import { lazyPart, useLazy } from "../ui/lazy";

// The last step's free times (with the availability code) are a chunk of their own, fetched once the form opens:
// the page opens on the splash (docs/decisions.md#79).
const preferredTime = lazyPart(() => import("./free-times").then((m) => m.PreferredTime));

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

/**
 * Reading B's five steps, each with reading A's required fields for that step (customer-side §5); step n's title is
 * `onboarding.step.<n>`.
 */
export const STEPS: { fields: Key[]; required: Key[] }[] = [
  {
    fields: ["firstName", "lastName", "email", "phone"],
    required: ["firstName", "lastName", "email", "phone"],
  },
  {
    fields: ["address", "city", "province", "postalCode"],
    required: ["address", "city", "province", "postalCode"],
  },
  {
    fields: ["squareFootage", "yearBuilt", "bedrooms", "bathrooms", "garageType", "basementStatus"],
    required: ["squareFootage", "yearBuilt", "bedrooms", "bathrooms"],
  },
  {
    fields: ["ownershipType", "financingType", "householdIncome", "occupation", "householdSize"],
    required: ["ownershipType", "householdIncome", "occupation"],
  },
  {
    fields: ["preferredDate", "preferredTime", "accessMethod", "accessCode", "accessInstructions"],
    required: ["preferredDate", "preferredTime", "accessMethod"],
  },
];

/** Each field's label, as on its step (for the list of refused answers and the number checks). */
export const fieldLabel = (t: CheckT, key: Key) => t(`onboarding.field.${key}`);
/** An option's words: `onboarding.<group>.<value>` (garage, basement, ownership, income, occupation). */
const labelsFor = (t: IslandT, group: string, values: readonly string[]) =>
  Object.fromEntries(values.map((v) => [v, t(`onboarding.${group}.${v}`)]));

interface StepProps {
  options: OnboardingOptions;
  step: number;
  values: Values;
  errors: Errors;
  minDate: string;
  maxDate: string;
  set: (key: Key) => (value: string) => void;
  t: IslandT;
  /** The provinces' names in the page's language, from the server (intake's words). */
  provinceNames: Record<string, string>;
  /** The parts of the day's words in the page's language, from the server (the booking wizard's). */
  dayParts: Record<string, { label: string; range: string }>;
}

/** The fields of one step; errors show once a field has been touched. */
export function StepFields(props: StepProps) {
  const { options: o, step, values, errors, minDate, maxDate, set, t } = props;
  const f = (key: Key) => ({ id: key, value: values[key], error: errors[key], onChange: set(key) });
  const select = (key: Key, required = false) => ({
    ...f(key),
    label: fieldLabel(t, key),
    emptyLabel: t(required ? "forms.select" : "forms.skip"),
  });
  const field = (key: Key) => ({ ...f(key), label: fieldLabel(t, key) });
  useEffect(() => {
    preferredTime.preload().catch(() => undefined);
  }, []);
  const PreferredTime = useLazy(preferredTime, STEPS[step - 1]?.fields.includes("preferredTime") ?? false);
  switch (step) {
    case 1:
      return (
        <>
          <Field {...field("firstName")} required autoComplete="given-name" />
          <Field {...field("lastName")} required autoComplete="family-name" />
          <Field {...field("email")} type="email" required autoComplete="email" />
          <Field {...field("phone")} type="tel" required autoComplete="tel" />
        </>
      );
    case 2:
      return (
        <>
          <div className="sm:col-span-2">
            <Field {...field("address")} required autoComplete="street-address" />
          </div>
          <Field {...field("city")} required autoComplete="address-level2" />
          <SelectField {...select("province", true)} required options={o.provinces} labels={props.provinceNames} />
          <Field
            {...field("postalCode")}
            required
            autoComplete="postal-code"
            hint={t("onboarding.hint.postalCode", { sample: SAMPLE_POSTAL_CODE })}
          />
        </>
      );
    case 3:
      return (
        <>
          <Field {...field("squareFootage")} required inputMode="numeric" />
          <Field {...field("yearBuilt")} required inputMode="numeric" />
          <SelectField {...select("bedrooms", true)} required options={o.bedrooms} />
          <SelectField {...select("bathrooms", true)} required options={o.bathrooms} />
          <SelectField
            {...select("garageType")}
            options={o.garageTypes}
            labels={labelsFor(t, "garage", o.garageTypes)}
          />
          <SelectField
            {...select("basementStatus")}
            options={o.basementStatuses}
            labels={labelsFor(t, "basement", o.basementStatuses)}
          />
        </>
      );
    case 4:
      return (
        <>
          <SelectField
            {...select("ownershipType", true)}
            required
            options={o.ownershipTypes}
            labels={labelsFor(t, "ownership", o.ownershipTypes)}
          />
          <Field
            {...f("financingType")}
            label={t("onboarding.label.financingOptional")}
            hint={t("onboarding.hint.financing")}
          />
          <SelectField
            {...select("householdIncome", true)}
            required
            options={o.householdIncomes}
            labels={labelsFor(t, "income", o.householdIncomes)}
          />
          <SelectField
            {...select("occupation", true)}
            required
            options={o.occupations}
            labels={labelsFor(t, "occupation", o.occupations)}
          />
          <SelectField {...select("householdSize")} options={o.householdSizes} />
        </>
      );
    default:
      return (
        <>
          <div className="sm:col-span-2">
            <ChoiceCards
              name="accessMethod"
              legend={t("onboarding.label.accessMethod")}
              required
              columns="sm:grid-cols-2"
              value={values.accessMethod}
              error={errors.accessMethod}
              onChange={set("accessMethod")}
              options={ONBOARDING_ACCESS_METHODS.map((m) => ({ value: m, label: t(`onboarding.access.${m}`) }))}
            />
          </div>
          {NEEDS_ACCESS_CODE.includes(values.accessMethod) && (
            <Field {...field("accessCode")} autoComplete="off" maxLength={100} />
          )}
          <div className="sm:col-span-2">
            <TextAreaField
              {...f("accessInstructions")}
              label={t("onboarding.label.instructionsOptional")}
              rows={2}
              maxLength={1000}
            />
          </div>
          <Field
            {...field("preferredDate")}
            type="date"
            required
            min={minDate}
            max={maxDate}
            hint={t("onboarding.hint.preferredDate")}
          />
          {PreferredTime && (
            <PreferredTime
              t={t}
              dayParts={props.dayParts}
              date={values.preferredDate}
              size={values.squareFootage}
              minDate={minDate}
              value={values.preferredTime}
              error={errors.preferredTime}
              onChange={set("preferredTime")}
              onDate={set("preferredDate")}
            />
          )}
        </>
      );
  }
}

/** Field problems with the server's messages (the server checks everything again). */
export function problemsOf(t: CheckT, values: Values, minDate: string, maxDate: string): Errors {
  const all: Errors = {
    email: emailError(t, values.email),
    phone: phoneError(t, values.phone),
    postalCode: postalCodeError(t, values.postalCode),
    squareFootage: numberError(t, fieldLabel(t, "squareFootage"), values.squareFootage, 100, 100_000),
    yearBuilt: numberError(t, fieldLabel(t, "yearBuilt"), values.yearBuilt, 1600, nextYear()),
    preferredDate: leadDateError(t, fieldLabel(t, "preferredDate"), values.preferredDate, minDate, maxDate),
  };
  for (const key of Object.keys(all) as Key[]) if (!all[key]) delete all[key];
  return all;
}
