import { type FormEvent, useMemo, useRef, useState } from "react";
import { intlLocale } from "../../src/i18n/locales";
import type { Booking, BookingAvailability } from "../../src/modules/bookings/bookings.constants";
import { availabilityKey, freshTimes } from "./availability";
import { DAY_PART_VALUES } from "../../src/shared/business-time";
import type { Property } from "../../src/modules/customers/customers.schemas";
import { ApiError, apiRequest, newIdempotencyKey } from "../ui/api";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { shortDateIn } from "./booking-words";
import { toast } from "../ui/toast";
import { refresh, setData, useData, useSubmission } from "../ui/data";
import { ChoiceCards, Spinner, TextAreaField, saveConfirmation } from "./form-parts";

interface Props {
  /** The next 14 weekdays from tomorrow, decided by the server in the business zone. */
  dates: string[];
  /** The `booking` namespace in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
  /** /property-intake and /booking-confirmation in the page's language (from the server: no address code here). */
  paths: { intake: string; confirmation: string };
}

type Errors = { scheduledDate?: string; timeSlot?: string; notes?: string };

/** A part of the day as the confirmation shows it: "Morning (8:00 AM - 12:00 PM)" / "Matin (de 8 h à 12 h)". */
const partTime = (t: IslandT, part: string) =>
  t("booking.book.partTime", { part: t(`booking.book.part.${part}`), range: t(`booking.book.range.${part}`) });

function LoadFailed({ t, onRetry }: { t: IslandT; onRetry: () => void }) {
  return (
    <div className="card mt-6 text-center">
      <h1 className="font-serif text-2xl font-bold text-green-900">{t("booking.book.loadFailed")}</h1>
      <p className="mt-2 text-ink/80">{t("booking.book.checkConnection")}</p>
      <button type="button" className="btn btn-green mt-4" onClick={onRetry}>
        {t("booking.book.tryAgain")}
      </button>
    </div>
  );
}

function NoProperty({ t, intakePath }: { t: IslandT; intakePath: string }) {
  return (
    <div className="card mt-6 text-center">
      <h1 className="font-serif text-3xl font-bold text-green-900">{t("booking.book.noProperty")}</h1>
      <p className="mt-3 text-ink/80">{t("booking.book.noPropertyText")}</p>
      <a href={intakePath} className="btn btn-gold mt-6">
        {t("booking.book.addProperty")}
      </a>
    </div>
  );
}

/** The property the inspection is for: its address, client and size. */
function PropertySummary({ t, property }: { t: IslandT; property: Property }) {
  const region = [property.province ?? property.state, property.postalCode].filter(Boolean).join(" ");
  return (
    <section className="card mt-6" aria-labelledby="property-heading">
      <h2 id="property-heading" className="text-sm font-semibold uppercase tracking-wide text-green-700">
        {t("booking.book.yourProperty")}
      </h2>
      <p className="mt-2 text-lg font-semibold" data-testid="property-address">
        {[property.address, property.city, region].filter(Boolean).join(", ")}
      </p>
      <dl className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-ink/70">{t("booking.book.client")}</dt>
          <dd className="inline font-medium">{property.clientName}</dd>
        </div>
        <div>
          <dt className="inline text-ink/70">{t("booking.book.squareFootage")}</dt>
          <dd className="inline font-medium">
            {property.squareFootage
              ? t("booking.book.size", { size: property.squareFootage.toLocaleString(intlLocale(t.locale)) })
              : t("booking.book.notGiven")}
          </dd>
        </div>
      </dl>
    </section>
  );
}

export default function BookInspection({ dates, i18n, paths }: Props) {
  const t = useMemo(() => islandTranslator(i18n), [i18n]);
  const properties = useData<Property[]>("/api/properties");
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
  const free = useData<BookingAvailability>(property && dates.length ? freeKey : null);
  const limited = free.data?.calendar === "inspectors";
  const partsOf = (date: string) =>
    limited ? (free.data?.days.find((d) => d.date === date)?.parts ?? []) : DAY_PART_VALUES;
  const offeredDates = limited ? dates.filter((d) => partsOf(d).length) : dates;
  const offeredParts = scheduledDate
    ? DAY_PART_VALUES.filter((p) => partsOf(scheduledDate).includes(p))
    : DAY_PART_VALUES;

  const mutation = useSubmission(
    () => {
      if (!property) throw new Error(t("booking.book.noPropertyError"));
      return apiRequest<Booking>(
        "POST",
        "/api/inspection-bookings",
        { propertyId: property.id, scheduledDate, timeSlot, notes },
        { "Idempotency-Key": submissionKey.current },
      );
    },
    {
      onSuccess: (booking) => {
        saveConfirmation({
          scheduledDate: booking.scheduledDate,
          selectedTime: DAY_PART_VALUES.includes(booking.timeSlot as never)
            ? partTime(t, booking.timeSlot)
            : booking.timeSlot,
          address: booking.address,
          city: booking.city,
          state: booking.state ?? booking.province ?? "",
          email: booking.clientEmail,
          postalCode: booking.postalCode ?? undefined,
        });
        window.location.assign(paths.confirmation);
      },
      onError: (error) => {
        // Another booking took that part of the day first: its fresh times replace those offered.
        const fresh = error instanceof ApiError && error.status === 409 ? freshTimes(error.body) : null;
        if (fresh) {
          setData<BookingAvailability>(freeKey, (old) =>
            old ? { ...old, days: old.days.map((d) => fresh.days.find((f) => f.date === d.date) ?? d) } : old,
          );
          setTime("");
          setErrors({ timeSlot: t("booking.slotTaken") });
          toast({
            title: t("booking.toast.slotTaken"),
            description: t("booking.toast.chooseAnother"),
            variant: "destructive",
          });
          return;
        }
        if (error instanceof ApiError) setErrors(error.fields);
        toast({ title: t("booking.book.failed"), description: t("booking.toast.errorHelp"), variant: "destructive" });
      },
    },
  );

  if (properties.isPending) return <Spinner label={t("booking.book.loadingProperty")} />;

  if (properties.error) return <LoadFailed t={t} onRetry={() => void refresh("/api/properties")} />;
  if (!property) return <NoProperty t={t} intakePath={paths.intake} />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mutation.isPending || mutation.isSuccess) return;
    const found: Errors = {};
    if (!scheduledDate) found.scheduledDate = t("booking.book.selectDate");
    if (!timeSlot) found.timeSlot = t("booking.book.selectTime");
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
      <h1 className="font-serif text-3xl font-bold text-green-900 md:text-4xl">{t("booking.book.heading")}</h1>
      <p className="mt-2 text-ink/80">{t("booking.book.lead")}</p>

      <PropertySummary t={t} property={property} />

      <form ref={form} onSubmit={submit} noValidate className="card mt-6 space-y-6">
        <ChoiceCards
          name="scheduledDate"
          legend={t("booking.book.preferredDate")}
          required
          columns="grid-cols-2 sm:grid-cols-4"
          value={scheduledDate}
          error={errors.scheduledDate}
          onChange={(v) => {
            setDate(v);
            if (timeSlot && !partsOf(v).includes(timeSlot as never)) setTime("");
            setErrors((e) => ({ ...e, scheduledDate: undefined }));
          }}
          options={offeredDates.map((d) => ({ value: d, label: shortDateIn(t.locale, d) }))}
        />
        {limited && !offeredDates.length && (
          <p className="field-error" role="status">
            {t("booking.book.fullyBooked")}
          </p>
        )}
        <ChoiceCards
          name="timeSlot"
          legend={t("booking.book.preferredTime")}
          required
          value={timeSlot}
          error={errors.timeSlot}
          onChange={(v) => {
            setTime(v);
            setErrors((e) => ({ ...e, timeSlot: undefined }));
          }}
          options={offeredParts.map((p) => ({
            value: p,
            label: t(`booking.book.part.${p}`),
            detail: t(`booking.book.range.${p}`),
          }))}
        />
        <TextAreaField
          id="notes"
          label={t("booking.book.notes")}
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
          {mutation.isPending ? t("booking.scheduling") : t("booking.submit")}
        </button>
      </form>
    </>
  );
}
