// The fields of each step of the schedule wizard (ScheduleWizard.island.tsx), which holds their values.
import {
  ACCESS_METHOD_LABELS,
  ACCESS_METHODS,
  NEEDS_ACCESS_INFO,
  SAMPLE_ADDRESS_LINE,
} from "../../src/modules/bookings/bookings.constants";
import { useEffect } from "react";
import { TIME_SLOTS, shortDate } from "../../src/shared/business-time";
import { INSPECTION_ITSELF_MINUTES, visitLength } from "../../src/shared/visit-length";
import { nextFreeDates, wizardAvailabilityKey } from "./availability";
import { Field, SelectField } from "../checkout/fields";
import { ChoiceCards, TextAreaField } from "./form-parts";
import type { Key, Step } from "./schedule-steps";
import { useFreeTimes } from "./wizard-free-times";

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

/**
 * The time select offers only the times some inspector is free on the chosen date (docs/decisions.md#37); with
 * no inspector set up, or while the answer is on its way, every time (the server checks each booking anyway).
 */
function TimeField({
  time,
  date,
  size,
  minDate,
}: {
  time: FieldBinding;
  date: FieldBinding;
  size: string;
  minDate: string;
}) {
  const key = date.value >= minDate ? wizardAvailabilityKey(date.value, size) : null;
  const answer = useFreeTimes(key);
  const day = answer.data?.days.find((d) => d.date === date.value);
  const limited = answer.data?.calendar === "inspectors" && day !== undefined;
  const slots = limited ? day.slots : TIME_SLOTS;
  const full = limited && slots.length === 0;
  const next = full ? nextFreeDates(answer.data, date.value) : [];
  const { onChange: setTime, value: chosen } = time;
  // A time that is no longer free is not kept: the select would show another one than it sends.
  useEffect(() => {
    if (limited && chosen && !slots.includes(chosen)) setTime("");
  }, [limited, chosen, slots, setTime]);
  const described = [time.error && "timeSlot-error", "timeSlot-hint"].filter(Boolean).join(" ");
  return (
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
        aria-describedby={described}
        data-free-times={limited ? slots.length : undefined}
      >
        <option value="">{full ? "No free time this day" : "Select a time…"}</option>
        {slots.map((slot) => (
          <option key={slot} value={slot}>
            {slot}
          </option>
        ))}
      </select>
      {time.error && (
        <p id="timeSlot-error" className="field-error" role="alert">
          {time.error}
        </p>
      )}
      <p id="timeSlot-hint" className="text-sm text-ink/70" aria-live="polite">
        {answer.isFetching
          ? "Checking our inspectors' free times…"
          : full
            ? "Our inspectors are fully booked that day."
            : limited
              ? `Times when an inspector is free. The visit takes ${visitLength(answer.data!.durationMinutes)}; the inspection itself about ${INSPECTION_ITSELF_MINUTES} minutes.`
              : ""}
      </p>
      {next.length > 0 && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm" data-testid="next-free-dates">
          <span>Free on:</span>
          {next.map((d) => (
            <button key={d} type="button" className="btn btn-outline btn-sm" onClick={() => date.onChange(d)}>
              {shortDate(d)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function ScheduleFields({
  field,
  minDate,
  maxDate,
  size,
}: StepFieldsProps & { minDate: string; maxDate: string; size: string }) {
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
      <TimeField time={time} date={field("scheduledDate")} size={size} minDate={minDate} />
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
      {shows("scheduledDate") && (
        <ScheduleFields field={field} minDate={minDate} maxDate={maxDate} size={field("propertySize").value} />
      )}
    </div>
  );
}
