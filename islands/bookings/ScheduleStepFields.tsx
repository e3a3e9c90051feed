// The fields of each step of the schedule wizard (ScheduleWizard.island.tsx), which holds their values.
import {
  ACCESS_METHOD_LABELS,
  ACCESS_METHODS,
  NEEDS_ACCESS_INFO,
  SAMPLE_ADDRESS_LINE,
} from "../../src/modules/bookings/bookings.constants";
import { TIME_SLOTS } from "../../src/shared/business-time";
import { Field, SelectField } from "../checkout/fields";
import { ChoiceCards, TextAreaField } from "./form-parts";
import type { Key, Step } from "./schedule-steps";

/** What a field needs from the wizard: its id, value, error and change handler. */
interface FieldBinding {
  id: Key;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

interface StepFieldsProps {
  field: (key: Key) => FieldBinding;
}

const TYPE_LABELS: Record<string, string> = {
  "single-family": "Single-family home",
  townhouse: "Townhouse",
  condo: "Condo",
  duplex: "Duplex",
  other: "Other",
};

function PropertyFields({ field, propertyTypes }: StepFieldsProps & { propertyTypes: string[] }) {
  return (
    <>
      <div className="sm:col-span-2">
        <Field
          label="Property address"
          required
          {...field("propertyAddress")}
          autoComplete="street-address"
          hint={`Street, city, province and postal code, e.g. ${SAMPLE_ADDRESS_LINE}`}
          maxLength={300}
        />
      </div>
      <SelectField
        label="Property type"
        required
        options={propertyTypes}
        labels={TYPE_LABELS}
        {...field("propertyType")}
      />
      <Field label="Property size (sq ft)" required inputMode="numeric" {...field("propertySize")} />
      <Field label="Year built" inputMode="numeric" {...field("yearBuilt")} hint="Optional" />
    </>
  );
}

function ContactFields({ field }: StepFieldsProps) {
  return (
    <>
      <Field label="First name" required autoComplete="given-name" {...field("firstName")} />
      <Field label="Last name" required autoComplete="family-name" {...field("lastName")} />
      <Field label="Email" type="email" required autoComplete="email" {...field("email")} />
      <Field label="Phone" type="tel" required autoComplete="tel" {...field("phone")} />
    </>
  );
}

function ScheduleFields({ field, minDate, maxDate }: StepFieldsProps & { minDate: string; maxDate: string }) {
  const time = field("timeSlot");
  const { id: _name, ...access } = field("accessMethod");
  return (
    <>
      <Field
        label="Inspection date"
        type="date"
        required
        min={minDate}
        max={maxDate}
        {...field("scheduledDate")}
        hint="At least 4 days from today."
      />
      <div className="field">
        <label htmlFor="timeSlot">
          Time <span aria-hidden="true">*</span>
        </label>
        <select
          id="timeSlot"
          name="timeSlot"
          value={time.value}
          onChange={(e) => time.onChange(e.target.value)}
          aria-required
          aria-invalid={time.error ? true : undefined}
          aria-describedby={time.error ? "timeSlot-error" : undefined}
        >
          <option value="">Select a time…</option>
          {TIME_SLOTS.map((slot) => (
            <option key={slot} value={slot}>
              {slot}
            </option>
          ))}
        </select>
        {time.error && (
          <p id="timeSlot-error" className="field-error">
            {time.error}
          </p>
        )}
      </div>
      <div className="sm:col-span-2">
        <ChoiceCards
          name="accessMethod"
          legend="How will the inspector get in?"
          required
          {...access}
          options={ACCESS_METHODS.map((m) => ({ value: m, label: ACCESS_METHOD_LABELS[m]! }))}
        />
        {access.value === "meet-inspector" && (
          <p className="mt-2 text-sm text-ink/75">Your inspector calls 15 to 30 minutes before arriving.</p>
        )}
      </div>
      {NEEDS_ACCESS_INFO.includes(access.value) && (
        <>
          <Field
            label="Access code"
            {...field("accessCode")}
            autoComplete="off"
            hint="A code or instructions is required."
            maxLength={100}
          />
          <TextAreaField label="Access instructions" {...field("accessInstructions")} rows={2} maxLength={1000} />
        </>
      )}
      <div className="sm:col-span-2">
        <TextAreaField label="Special requests (optional)" {...field("specialRequests")} maxLength={2000} />
      </div>
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
export function StepFields({ step, field, propertyTypes, minDate, maxDate }: StepProps) {
  const shows = (key: Key) => step.fields.includes(key);
  return (
    <div className="mt-5 grid gap-4 sm:grid-cols-2">
      {shows("propertyType") && !shows("propertyAddress") && (
        <div className="sm:col-span-2">
          <SelectField
            label="Property type"
            required
            options={propertyTypes}
            labels={TYPE_LABELS}
            {...field("propertyType")}
          />
        </div>
      )}
      {shows("propertyAddress") && <PropertyFields field={field} propertyTypes={propertyTypes} />}
      {shows("firstName") && <ContactFields field={field} />}
      {shows("scheduledDate") && <ScheduleFields field={field} minDate={minDate} maxDate={maxDate} />}
    </div>
  );
}
