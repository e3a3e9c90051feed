// Onboarding's preferred time (docs/decisions.md#37, one booking rule): the parts of the day the inspectors'
// calendars offer on the chosen date, from the same availability call as the wizard. A plain fetch: it is
// the island's one read.
import { useEffect, useState } from "react";
import type { BookingAvailability } from "../../src/modules/bookings/bookings.constants";
import { DAY_PART_VALUES } from "../../src/shared/business-time";
import { wizardAvailabilityKey } from "../bookings/availability";
import { ChoiceCards } from "../bookings/form-parts";
import type { IslandT } from "../ui/i18n";

interface Props {
  t: IslandT;
  /** Each part of the day's words in the page's language (its label and its hours). */
  dayParts: Record<string, { label: string; range: string }>;
  date: string;
  size: string;
  minDate: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  onDate: (value: string) => void;
}

/** The free parts of the day on `date` (every part when no inspector is set up); null until known. */
function useFreeParts(date: string, size: string, minDate: string) {
  const [answer, setAnswer] = useState<{ key: string; data: BookingAvailability | null } | null>(null);
  const key = date >= minDate ? wizardAvailabilityKey(date, size) : null;
  useEffect(() => {
    if (!key) return;
    let live = true;
    fetch(key, { credentials: "include", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? (r.json() as Promise<BookingAvailability>) : null))
      .catch(() => null)
      .then((data) => live && setAnswer({ key, data }));
    return () => {
      live = false;
    };
  }, [key]);
  const data = answer && answer.key === key ? answer.data : null;
  if (!key || !data) return { parts: null, next: [] as string[], loading: Boolean(key) && !data };
  if (data.calendar !== "inspectors") return { parts: DAY_PART_VALUES as string[], next: [], loading: false };
  const parts = data.days.find((d) => d.date === date)?.parts ?? [];
  const next = parts.length
    ? []
    : data.days
        .filter((d) => d.date > date && d.parts.length)
        .slice(0, 3)
        .map((d) => d.date);
  return { parts, next, loading: false };
}

/** "Wed, Dec 2" / "mer. 2 déc.": a next free date's button. */
const buttonDate = (date: string, locale: string) =>
  new Intl.DateTimeFormat(locale === "fr-CA" ? "fr-CA" : "en-US", {
    timeZone: "UTC",
    weekday: "short",
    month: "short",
    day: "numeric",
  }).format(new Date(`${date}T00:00:00Z`));

export function PreferredTime({ t, dayParts, date, size, minDate, value, error, onChange, onDate }: Props) {
  const { parts, next, loading } = useFreeParts(date, size, minDate);
  const offered = (parts ?? DAY_PART_VALUES).filter((p) => p in dayParts);
  // A time that is not free on this date is not kept: step 5 would submit it by itself.
  useEffect(() => {
    if (parts && value && !parts.includes(value)) onChange("");
  }, [parts, value, onChange]);
  return (
    <div className="sm:col-span-2" data-free-parts={parts ? parts.length : undefined}>
      {parts && parts.length === 0 ? (
        <div className="field" data-testid="no-free-time">
          <p className="font-semibold">{t("onboarding.field.preferredTime")}</p>
          <p className="text-sm" role="status">
            {t(next.length > 0 ? "onboarding.time.noneFreeNext" : "onboarding.time.noneFree")}
          </p>
          {next.length > 0 && (
            <div className="mt-2 flex flex-wrap gap-2">
              {next.map((d) => (
                <button key={d} type="button" className="btn btn-outline btn-sm" onClick={() => onDate(d)}>
                  {buttonDate(d, t.locale)}
                </button>
              ))}
            </div>
          )}
        </div>
      ) : (
        <ChoiceCards
          name="preferredTime"
          legend={t("onboarding.field.preferredTime")}
          required
          value={value}
          error={error}
          onChange={onChange}
          options={offered.map((p) => ({ value: p, label: dayParts[p]!.label, detail: dayParts[p]!.range }))}
        />
      )}
      <p className="mt-1 text-sm text-ink/70" aria-live="polite">
        {loading ? t("onboarding.time.checking") : parts?.length ? t("onboarding.time.free") : ""}
      </p>
    </div>
  );
}
