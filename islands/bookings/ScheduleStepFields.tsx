// The fields of each step of the schedule wizard (ScheduleWizard.island.tsx), which holds their values.
import { SAMPLE_ADDRESS_LINE } from "../../src/modules/bookings/bookings.constants";
import { useRef } from "react";
import { Field, SelectField } from "../checkout/fields";
import type { IslandT } from "../ui/i18n";
import { lazyPart, useLazy, usePreloadOnTouch } from "../ui/lazy";
import type { Key, Step, StepFieldsProps } from "./schedule-steps";

// The last step's fields (the free times, the access) are a chunk of their own, fetched from the first pointer or
// focus on the earlier steps' fields: the wizard opens on the property (docs/decisions.md#79).
const scheduleFields = lazyPart(() => import("./ScheduleTimeFields").then((m) => m.ScheduleFields));
const PARTS = [scheduleFields];

/** Each property type in the page's language (booking.type.*). */
const typeLabels = (t: IslandT, types: string[]) =>
  Object.fromEntries(types.map((type) => [type, t(`booking.type.${type}`)]));

function PropertyTypeField({ t, field, propertyTypes }: StepFieldsProps & { propertyTypes: string[] }) {
  return (
    <SelectField
      label={t("booking.field.propertyType")}
      required
      options={propertyTypes}
      labels={typeLabels(t, propertyTypes)}
      emptyLabel={t("forms.select")}
      {...field("propertyType")}
    />
  );
}

function PropertyFields({ t, field, propertyTypes }: StepFieldsProps & { propertyTypes: string[] }) {
  return (
    <>
      <div className="sm:col-span-2">
        <Field
          label={t("booking.field.propertyAddress")}
          required
          {...field("propertyAddress")}
          autoComplete="street-address"
          hint={t("booking.field.propertyAddressHint", { sample: SAMPLE_ADDRESS_LINE })}
          maxLength={300}
        />
      </div>
      <PropertyTypeField t={t} field={field} propertyTypes={propertyTypes} />
      <Field label={t("booking.field.propertySize")} required inputMode="numeric" {...field("propertySize")} />
      <Field
        label={t("booking.field.yearBuilt")}
        inputMode="numeric"
        {...field("yearBuilt")}
        hint={t("booking.field.optional")}
      />
    </>
  );
}

function ContactFields({ t, field }: StepFieldsProps) {
  return (
    <>
      <Field label={t("booking.field.firstName")} required autoComplete="given-name" {...field("firstName")} />
      <Field label={t("booking.field.lastName")} required autoComplete="family-name" {...field("lastName")} />
      <Field label={t("booking.field.email")} type="email" required autoComplete="email" {...field("email")} />
      <Field label={t("booking.field.phone")} type="tel" required autoComplete="tel" {...field("phone")} />
    </>
  );
}

interface StepProps extends StepFieldsProps {
  step: Step;
  propertyTypes: string[];
  minDate: string;
  maxDate: string;
}

/** The current step's fields: the property type alone when intake gave the rest of the property. */
export function StepFields({ t, step, field, propertyTypes, minDate, maxDate }: StepProps) {
  const shows = (key: Key) => step.fields.includes(key);
  const root = useRef<HTMLDivElement>(null);
  usePreloadOnTouch(root, PARTS);
  const ScheduleFields = useLazy(scheduleFields, shows("scheduledDate"));
  return (
    <div ref={root} className="mt-5 grid gap-4 sm:grid-cols-2">
      {shows("propertyType") && !shows("propertyAddress") && (
        <div className="sm:col-span-2">
          <PropertyTypeField t={t} field={field} propertyTypes={propertyTypes} />
        </div>
      )}
      {shows("propertyAddress") && <PropertyFields t={t} field={field} propertyTypes={propertyTypes} />}
      {shows("firstName") && <ContactFields t={t} field={field} />}
      {ScheduleFields && (
        <ScheduleFields t={t} field={field} minDate={minDate} maxDate={maxDate} size={field("propertySize").value} />
      )}
    </div>
  );
}
