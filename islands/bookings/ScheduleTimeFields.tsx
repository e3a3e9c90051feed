// The schedule wizard's last step (ScheduleStepFields.tsx loads it when the wizard gets there): the date, the free
// times of that date, the access.
import { useEffect } from "react";
import {
  ACCESS_METHODS,
  type BookingAvailability,
  NEEDS_ACCESS_INFO,
} from "../../src/modules/bookings/bookings.constants";
import { TIME_SLOTS } from "../../src/shared/business-time";
import { INSPECTION_ITSELF_MINUTES } from "../../src/shared/visit-length";
import { Field } from "../checkout/fields";
import { useData } from "../ui/data";
import type { IslandT } from "../ui/i18n";
import { nextFreeDates, wizardAvailabilityKey } from "./availability";
import { shortDateIn, slotLabel, visitLengthIn } from "./booking-words";
import { ChoiceCards, TextAreaField } from "./form-parts";
import type { FieldBinding, StepFieldsProps } from "./schedule-steps";

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

export function ScheduleFields({
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
