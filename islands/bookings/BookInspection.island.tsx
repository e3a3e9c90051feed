import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { type Booking, type BookingAvailability, SLOT_TAKEN } from "../../src/modules/bookings/bookings.constants";
import { availabilityKey, freshTimes } from "./availability";
import { DAY_PARTS, DAY_PART_VALUES, shortDate, slotLabel } from "../../src/shared/business-time";
import type { Property } from "../../src/modules/customers/customers.schemas";
import { ApiError, apiRequest, newIdempotencyKey } from "../ui/api";
import { toast } from "../ui/toast";
import { ChoiceCards, Spinner, TextAreaField, saveConfirmation } from "./form-parts";

/** This island uses react-query: the loader wraps it in the query provider (islands/main.ts). */
export const queries = true;

interface Props {
  /** The next 14 weekdays from tomorrow, decided by the server in the business zone. */
  dates: string[];
}

type Errors = { scheduledDate?: string; timeSlot?: string; notes?: string };

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="card mt-6 text-center">
      <h1 className="font-serif text-2xl font-bold text-green-900">We couldn't load your property</h1>
      <p className="mt-2 text-ink/80">Please check your connection and try again.</p>
      <button type="button" className="btn btn-green mt-4" onClick={onRetry}>
        Try Again
      </button>
    </div>
  );
}

function NoProperty() {
  return (
    <div className="card mt-6 text-center">
      <h1 className="font-serif text-3xl font-bold text-green-900">No Property Found</h1>
      <p className="mt-3 text-ink/80">
        We couldn't find a property for this browser. Add your property information first, then book your inspection
        here.
      </p>
      <a href="/property-intake" className="btn btn-gold mt-6">
        Add Property Information
      </a>
    </div>
  );
}

/** The property the inspection is for: its address, client and size. */
function PropertySummary({ property }: { property: Property }) {
  const region = [property.province ?? property.state, property.postalCode].filter(Boolean).join(" ");
  return (
    <section className="card mt-6" aria-labelledby="property-heading">
      <h2 id="property-heading" className="text-sm font-semibold uppercase tracking-wide text-green-700">
        Your property
      </h2>
      <p className="mt-2 text-lg font-semibold" data-testid="property-address">
        {[property.address, property.city, region].filter(Boolean).join(", ")}
      </p>
      <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-ink/70">Client: </dt>
          <dd className="inline font-medium">{property.clientName}</dd>
        </div>
        <div>
          <dt className="inline text-ink/70">Square footage: </dt>
          <dd className="inline font-medium">
            {property.squareFootage ? `${property.squareFootage.toLocaleString("en-US")} sq ft` : "Not given"}
          </dd>
        </div>
      </dl>
    </section>
  );
}

export default function BookInspection({ dates }: Props) {
  const properties = useQuery<Property[]>({ queryKey: ["/api/properties"] });
  const [scheduledDate, setDate] = useState("");
  const [timeSlot, setTime] = useState("");
  const [notes, setNotes] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const form = useRef<HTMLFormElement>(null);
  // One key per booking attempt: a double click or a retry books once.
  const submissionKey = useRef(newIdempotencyKey());
  // The booking page uses the last property of the list (customer-side §7).
  const property = properties.data?.at(-1);
  // Only the days and parts of the day some inspector is free for (docs/decisions.md#37).
  const freeKey = availabilityKey(
    dates[0]!,
    dates.at(-1)!,
    property?.squareFootage ? String(property.squareFootage) : "",
  );
  const free = useQuery<BookingAvailability>({ queryKey: [freeKey], enabled: Boolean(property && dates.length) });
  const queries = useQueryClient();
  const limited = free.data?.calendar === "inspectors";
  const partsOf = (date: string) =>
    limited ? (free.data?.days.find((d) => d.date === date)?.parts ?? []) : DAY_PART_VALUES;
  const offeredDates = limited ? dates.filter((d) => partsOf(d).length) : dates;
  const offeredParts = scheduledDate
    ? DAY_PART_VALUES.filter((p) => partsOf(scheduledDate).includes(p))
    : DAY_PART_VALUES;

  const mutation = useMutation({
    mutationFn: () => {
      if (!property) throw new Error("No property found");
      return apiRequest<Booking>(
        "POST",
        "/api/inspection-bookings",
        { propertyId: property.id, scheduledDate, timeSlot, notes },
        { "Idempotency-Key": submissionKey.current },
      );
    },
    onSuccess: (booking) => {
      saveConfirmation({
        scheduledDate: booking.scheduledDate,
        selectedTime: slotLabel(booking.timeSlot),
        address: booking.address,
        city: booking.city,
        state: booking.state ?? booking.province ?? "",
        email: booking.clientEmail,
        postalCode: booking.postalCode ?? undefined,
      });
      window.location.assign("/booking-confirmation");
    },
    onError: (error) => {
      // Another booking took that part of the day first: its fresh times replace those offered.
      const fresh = error instanceof ApiError && error.status === 409 ? freshTimes(error.body) : null;
      if (fresh) {
        queries.setQueryData<BookingAvailability>([freeKey], (old) =>
          old ? { ...old, days: old.days.map((d) => fresh.days.find((f) => f.date === d.date) ?? d) } : old,
        );
        setTime("");
        setErrors({ timeSlot: `${SLOT_TAKEN}. Please choose another time.` });
        toast({ title: SLOT_TAKEN, description: "Please choose another time.", variant: "destructive" });
        return;
      }
      if (error instanceof ApiError) setErrors(error.fields);
      toast({
        title: "Booking Failed",
        description: "Failed to schedule inspection. Please try again.",
        variant: "destructive",
      });
    },
  });

  if (properties.isPending) return <Spinner label="Loading your property..." />;

  if (properties.isError) return <LoadFailed onRetry={() => properties.refetch()} />;
  if (!property) return <NoProperty />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending || mutation.isSuccess) return;
    const found: Errors = {};
    if (!scheduledDate) found.scheduledDate = "Please select a date";
    if (!timeSlot) found.timeSlot = "Please select a time slot";
    setErrors(found);
    if (found.scheduledDate || found.timeSlot) {
      form.current
        ?.querySelector<HTMLInputElement>(`input[name="${found.scheduledDate ? "scheduledDate" : "timeSlot"}"]`)
        ?.focus();
      return;
    }
    mutation.mutate();
  };

  return (
    <>
      <h1 className="font-serif text-3xl font-bold text-green-900 md:text-4xl">Book Your Inspection</h1>
      <p className="mt-2 text-ink/80">
        Choose a weekday and a time of day. Your inspector confirms the exact arrival time with you.
      </p>

      <PropertySummary property={property} />

      <form ref={form} onSubmit={submit} noValidate className="card mt-6 space-y-6">
        <ChoiceCards
          name="scheduledDate"
          legend="Preferred date"
          required
          columns="grid-cols-2 sm:grid-cols-4"
          value={scheduledDate}
          error={errors.scheduledDate}
          onChange={(v) => {
            setDate(v);
            if (timeSlot && !partsOf(v).includes(timeSlot as never)) setTime("");
            setErrors((e) => ({ ...e, scheduledDate: undefined }));
          }}
          options={offeredDates.map((d) => ({ value: d, label: shortDate(d) }))}
        />
        {limited && !offeredDates.length && (
          <p className="field-error" role="status">
            Our inspectors are fully booked for the next two weeks. Please call us to find a time.
          </p>
        )}
        <ChoiceCards
          name="timeSlot"
          legend="Preferred time"
          required
          value={timeSlot}
          error={errors.timeSlot}
          onChange={(v) => {
            setTime(v);
            setErrors((e) => ({ ...e, timeSlot: undefined }));
          }}
          options={offeredParts.map((p) => ({ value: p, label: DAY_PARTS[p].label, detail: DAY_PARTS[p].range }))}
        />
        <TextAreaField
          id="notes"
          label="Special instructions (optional)"
          value={notes}
          error={errors.notes}
          onChange={setNotes}
          maxLength={2000}
        />
        <button
          type="submit"
          className="btn btn-gold w-full sm:w-auto"
          disabled={mutation.isPending || mutation.isSuccess}
        >
          {mutation.isPending ? "Scheduling..." : "Schedule Inspection"}
        </button>
      </form>
    </>
  );
}
