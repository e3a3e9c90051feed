// The fields of each step of the schedule wizard (ScheduleWizard.island.tsx), which holds their values.
import {
  ACCESS_METHODS,
  type BookingAvailability,
  NEEDS_ACCESS_INFO,
  SAMPLE_ADDRESS_LINE,
} from "../../src/modules/bookings/bookings.constants";
import { useEffect } from "react";
import { TIME_SLOTS } from "../../src/shared/business-time";
import { INSPECTION_ITSELF_MINUTES } from "../../src/shared/visit-length";
import { nextFreeDates, wizardAvailabilityKey } from "./availability";
import { Field, SelectField } from "../checkout/fields";
import type { IslandT } from "../ui/i18n";
import { shortDateIn, slotLabel, visitLengthIn } from "./booking-words";
import { ChoiceCards, TextAreaField } from "./form-parts";
import type { Key, Step } from "./schedule-steps";
import { useData } from "../ui/data";

/** What a field needs from the wizard: its id, value, error and change handler. */
interface FieldBinding {
  id: Key;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

interface StepFieldsProps {
  t: IslandT;
  field: (key: Key) => FieldBinding;
}

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

/**
 * The time select offers only the times some inspector is free on the chosen date (docs/decisions.md#37); with
 * no inspector set up, or while the answer is on its way, every time (the server checks each booking anyway).
 */
function TimeField({
  t,
  time,
  date,
  size,
  minDate,
}: {
  t: IslandT;
  time: FieldBinding;
  date: FieldBinding;
  size: string;
  minDate: string;
}) {
  const key = date.value >= minDate ? wizardAvailabilityKey(date.value, size) : null;
  const answer = useData<BookingAvailability>(key);
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
        {t("booking.field.time")} <span aria-hidden="true">*</span>
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
        <option value="">{full ? t("booking.field.noFreeTime") : t("booking.field.selectTime")}</option>
        {slots.map((slot) => (
          <option key={slot} value={slot}>
            {slotLabel(t.locale, slot)}
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
          ? t("booking.field.checkingTimes")
          : full
            ? t("booking.field.fullyBooked")
            : limited
              ? t("booking.field.freeTimes", {
                  length: visitLengthIn(t, answer.data!.durationMinutes),
                  minutes: INSPECTION_ITSELF_MINUTES,
                })
              : ""}
      </p>
      {next.length > 0 && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm" data-testid="next-free-dates">
          <span>{t("booking.field.freeOn")}</span>
          {next.map((d) => (
            <button key={d} type="button" className="btn btn-outline btn-sm" onClick={() => date.onChange(d)}>
              {shortDateIn(t.locale, d)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function ScheduleFields({
  t,
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
        label={t("booking.field.scheduledDate")}
        type="date"
        required
        min={minDate}
        max={maxDate}
        {...field("scheduledDate")}
        hint={t("booking.field.scheduledDateHint")}
      />
      <TimeField t={t} time={time} date={field("scheduledDate")} size={size} minDate={minDate} />
      <div className="sm:col-span-2">
        <ChoiceCards
          name="accessMethod"
          legend={t("booking.field.accessMethod")}
          required
          {...access}
          options={ACCESS_METHODS.map((m) => ({ value: m, label: t(`booking.method.${m}`) }))}
        />
        {access.value === "meet-inspector" && <p className="mt-2 text-sm text-ink/75">{t("booking.field.meetNote")}</p>}
      </div>
      {NEEDS_ACCESS_INFO.includes(access.value) && (
        <>
          <Field
            label={t("booking.field.accessCode")}
            {...field("accessCode")}
            autoComplete="off"
            hint={t("booking.field.accessCodeHint")}
            maxLength={100}
          />
          <TextAreaField
            label={t("booking.field.accessInstructions")}
            {...field("accessInstructions")}
            rows={2}
            maxLength={1000}
          />
        </>
      )}
      <div className="sm:col-span-2">
        <TextAreaField label={t("booking.field.specialRequests")} {...field("specialRequests")} maxLength={2000} />
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
export function StepFields({ t, step, field, propertyTypes, minDate, maxDate }: StepProps) {
  const shows = (key: Key) => step.fields.includes(key);
  return (
    <div className="mt-5 grid gap-4 sm:grid-cols-2">
      {shows("propertyType") && !shows("propertyAddress") && (
        <div className="sm:col-span-2">
          <PropertyTypeField t={t} field={field} propertyTypes={propertyTypes} />
        </div>
      )}
      {shows("propertyAddress") && <PropertyFields t={t} field={field} propertyTypes={propertyTypes} />}
      {shows("firstName") && <ContactFields t={t} field={field} />}
      {shows("scheduledDate") && (
        <ScheduleFields t={t} field={field} minDate={minDate} maxDate={maxDate} size={field("propertySize").value} />
      )}
    </div>
  );
}
