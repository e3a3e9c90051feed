// The calendar's booking dialog: the booking's details, rescheduled or cancelled under the booking rules.
import { type FormEvent, useState } from "react";
import { DAY_PART_VALUES, TIME_SLOTS, slotLabel } from "../../src/shared/business-time";
import { type CalendarBooking, bookingTime, labelOf } from "../../src/modules/maintenance/maintenance.constants";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { refresh, useData } from "../ui/data";
import { Details, Dialog } from "./Dialog";
import type { Fields } from "./types";
import { longDateLabel } from "./month-grid";

export interface BookingWindow {
  minDate: string;
  maxDate: string;
}

function BookingFacts({ booking }: { booking: CalendarBooking }) {
  // As booked: '10:30 AM', or 'Afternoon (12:00 PM - 5:00 PM)' for a part of the day; 09:00 AM only with no slot.
  const time = booking.timeSlot?.trim() ? slotLabel(booking.timeSlot.trim()) : bookingTime(booking.timeSlot);
  return (
    <Details
      rows={[
        ["Client", booking.clientName],
        [
          "Email",
          <a key="e" className="link" href={`mailto:${booking.clientEmail}`}>
            {booking.clientEmail}
          </a>,
        ],
        ["Phone", booking.clientPhone],
        ["Property", [booking.propertyAddress, booking.city].filter(Boolean).join(", ")],
        ["Date", longDateLabel(booking.scheduledDate)],
        ["Time", time],
        // Booking status defaults to display 'Pending' (staff-side §4).
        ["Inspector", booking.inspectorName ?? "No inspector yet"],
        ["Status", labelOf(booking.status) || "Pending"],
        ["Access", booking.accessMethod ? labelOf(booking.accessMethod.replace(/-/g, "_")) : null],
        ["Special requests", booking.specialRequests],
        ["Notes", booking.notes],
      ]}
    />
  );
}

interface RescheduleFormProps {
  booking: CalendarBooking;
  window: BookingWindow;
  errors: Fields;
  busy: boolean;
  onReschedule: (date: string, slot: string) => void;
  onCancelBooking: () => void;
}

/** A new date and time for a scheduled booking, or its cancellation once confirmed. */
function RescheduleForm({ booking, window: dates, errors, busy, onReschedule, onCancelBooking }: RescheduleFormProps) {
  const [date, setDate] = useState(
    booking.scheduledDate.localeCompare(dates.minDate) >= 0 ? booking.scheduledDate : dates.minDate,
  );
  const [slot, setSlot] = useState(booking.timeSlot);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const slots = [
    ...(TIME_SLOTS.includes(slot) || DAY_PART_VALUES.includes(slot as never) ? [] : [slot]),
    ...TIME_SLOTS,
    ...DAY_PART_VALUES,
  ];
  const reschedule = (e: FormEvent) => {
    e.preventDefault();
    onReschedule(date, slot);
  };
  return (
    <form className="mt-4 grid gap-3" onSubmit={reschedule} noValidate aria-labelledby="booking-move-title">
      <h4 id="booking-move-title" className="font-semibold text-green-900">
        Reschedule
      </h4>
      <p className="text-sm text-ink/75">
        The booking rules apply: at least 4 days from today. The client gets an e-mail with the new date.
      </p>
      <div className="mc-form-row">
        <div className="field">
          <label htmlFor="booking-scheduledDate">New date</label>
          <input
            id="booking-scheduledDate"
            type="date"
            min={dates.minDate}
            max={dates.maxDate}
            value={date}
            onChange={(e) => setDate(e.target.value)}
            aria-invalid={errors.scheduledDate ? true : undefined}
            aria-describedby={errors.scheduledDate ? "booking-scheduledDate-error" : undefined}
          />
          {errors.scheduledDate && (
            <p id="booking-scheduledDate-error" className="field-error">
              {errors.scheduledDate}
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="booking-timeSlot">Time</label>
          <select
            id="booking-timeSlot"
            value={slot}
            onChange={(e) => setSlot(e.target.value)}
            aria-invalid={errors.timeSlot ? true : undefined}
          >
            {slots.map((s) => (
              <option key={s} value={s}>
                {slotLabel(s)}
              </option>
            ))}
          </select>
          {errors.timeSlot && <p className="field-error">{errors.timeSlot}</p>}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn btn-green" disabled={busy}>
          {busy ? "Saving..." : "Reschedule Booking"}
        </button>
        {!confirmCancel ? (
          <button type="button" className="btn btn-outline" onClick={() => setConfirmCancel(true)} disabled={busy}>
            Cancel Booking
          </button>
        ) : (
          <fieldset className="flex flex-wrap items-center gap-2 border-0 p-0">
            <legend className="float-left mr-2 font-semibold">Cancel this inspection?</legend>
            <button type="button" className="btn btn-danger btn-sm" disabled={busy} onClick={onCancelBooking}>
              Yes, cancel it
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirmCancel(false)}>
              Keep it
            </button>
          </fieldset>
        )}
      </div>
    </form>
  );
}

/** The API's message of a refused write (409: "That inspector already has a booking at that time"). */
const messageOf = (error: Error) => {
  if (!(error instanceof ApiError)) return error.message;
  try {
    return (JSON.parse(error.body) as { message?: string }).message ?? error.message;
  } catch {
    return error.message;
  }
};

/** The office gives the booking to another inspector (docs/decisions.md#37); an overlap is refused (409). */
function ReassignForm({
  booking,
  busy,
  onAssign,
}: {
  booking: CalendarBooking;
  busy: boolean;
  onAssign: (inspectorId: number | null) => void;
}) {
  const inspectors = useData<{ id: number; name: string }[]>("/api/inspectors");
  const [chosen, setChosen] = useState(booking.inspectorId === null ? "" : String(booking.inspectorId));
  if (!inspectors.data?.length) return null;
  return (
    <form
      className="mt-4 grid gap-2"
      noValidate
      aria-labelledby="booking-inspector-title"
      onSubmit={(e) => {
        e.preventDefault();
        onAssign(chosen ? Number(chosen) : null);
      }}
    >
      <h4 id="booking-inspector-title" className="font-semibold text-green-900">
        Inspector
      </h4>
      <div className="flex flex-wrap items-end gap-3">
        <div className="field">
          <label htmlFor="booking-inspector">Give this inspection to</label>
          <select id="booking-inspector" value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">No inspector</option>
            {inspectors.data.map((i) => (
              <option key={i.id} value={i.id}>
                {i.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="btn btn-outline"
          disabled={busy || chosen === (booking.inspectorId === null ? "" : String(booking.inspectorId))}
        >
          Reassign
        </button>
      </div>
    </form>
  );
}

export function BookingDialog({
  booking: opened,
  window: dates,
  canChange = true,
  onClose,
}: {
  booking: CalendarBooking;
  window: BookingWindow;
  /** False for an inspector: the dialog shows the booking only (the calls would answer 403; docs/decisions.md#36). */
  canChange?: boolean;
  onClose: () => void;
}) {
  const [booking, setBooking] = useState(opened);
  const [errors, setErrors] = useState<Fields>({});
  const [busy, setBusy] = useState(false);
  const change = (payload: Record<string, string | number | null>, done: string) =>
    sendWrite(
      () => apiRequest<CalendarBooking>("PATCH", `/api/inspection-bookings/${booking.id}`, payload),
      (saved) => {
        setBooking((b) => ({
          ...b,
          status: saved.status,
          scheduledDate: saved.scheduledDate,
          timeSlot: saved.timeSlot,
          inspectorId: saved.inspectorId,
          inspectorName: saved.inspectorName,
        }));
        toast({ title: done, description: `Inspection at ${booking.propertyAddress}` });
        void refresh();
        onClose();
      },
      (error) => {
        if (error instanceof ApiError && error.status === 401) return;
        if (error instanceof ApiError && error.status === 400 && Object.keys(error.fields).length)
          return setErrors(error.fields);
        toast({ title: "Could not change the booking", description: messageOf(error), variant: "destructive" });
      },
    );
  const run = async (payload: Record<string, string | number | null>, done: string) => {
    setBusy(true);
    await change(payload, done);
    setBusy(false);
  };
  const reschedule = (date: string, slot: string) => {
    if (!date) return setErrors({ scheduledDate: "Inspection date is required" });
    setErrors({});
    void run({ scheduledDate: date, timeSlot: slot }, "Booking Rescheduled");
  };
  return (
    <Dialog title="Inspection Booking Details" onClose={onClose}>
      <h3 className="text-lg font-semibold text-green-900">Inspection at {booking.propertyAddress}</h3>
      <BookingFacts booking={booking} />
      {canChange && booking.status === "scheduled" && (
        <ReassignForm
          booking={booking}
          busy={busy}
          onAssign={(inspectorId) => void run({ inspectorId }, "Inspector Changed")}
        />
      )}
      {canChange && booking.status === "scheduled" && (
        <RescheduleForm
          booking={booking}
          window={dates}
          errors={errors}
          busy={busy}
          onReschedule={reschedule}
          onCancelBooking={() => void run({ status: "cancelled" }, "Booking Cancelled")}
        />
      )}
    </Dialog>
  );
}

/** Runs one write, then its success or failure handling (a plain function: the dialog has two writes). */
async function sendWrite<T>(
  send: () => Promise<T>,
  onSuccess: (result: T) => void,
  onError: (error: Error) => void,
): Promise<void> {
  try {
    onSuccess(await send());
  } catch (error) {
    onError(error instanceof Error ? error : new Error(String(error)));
  }
}
