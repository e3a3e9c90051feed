// The schedule wizard's frame around its fields (ScheduleWizard.island.tsx): progress and intake's answers.
import type { WizardPrefill } from "../../src/modules/bookings/bookings.constants";
import type { IslandT } from "../ui/i18n";
import type { Values } from "./schedule-steps";

interface ProgressProps {
  t: IslandT;
  /** Every step's title, intake's steps first when continuing from it. */
  titles: string[];
  /** How many of the titles are intake's (already done). */
  offset: number;
  step: number;
}

export function WizardProgress({ t, titles, offset, step }: ProgressProps) {
  return (
    <ol className="wizard-steps" aria-label={t("booking.progress")}>
      {titles.map((title, n) => {
        const i = n - offset;
        return (
          <li
            key={title}
            data-state={i < step ? "done" : i === step ? "current" : "todo"}
            aria-current={i === step ? "step" : undefined}
          >
            <span className="wizard-step-number" aria-hidden="true">
              {n + 1}
            </span>
            <span>{title}</span>
          </li>
        );
      })}
    </ol>
  );
}

interface KnownDetailsProps {
  t: IslandT;
  prefill: WizardPrefill;
  values: Values;
  /** Contact Info is no step of its own: intake gave all of it. */
  contactKnown: boolean;
  /** 'Change': the full wizard at that step. */
  onChange: (step: number) => () => void;
}

/** What intake already asked, read-only, each with a way back to its step of the full wizard. */
export function KnownDetails({ t, prefill, values, contactKnown, onChange }: KnownDetailsProps) {
  return (
    <section
      className="mt-4 grid gap-3 rounded-lg border border-ink/15 p-4 sm:grid-cols-2"
      aria-label={t("booking.known.label")}
      data-testid="wizard-known"
    >
      <div>
        <div className="flex items-baseline justify-between gap-2">
          <h3 className="font-bold text-green-900">{t("booking.known.property")}</h3>
          <button
            type="button"
            className="link text-sm"
            onClick={onChange(0)}
            aria-label={t("booking.known.changeProperty")}
          >
            {t("booking.known.change")}
          </button>
        </div>
        <p data-testid="wizard-known-property">{prefill.propertyLine || values.propertyAddress}</p>
        <p className="text-sm text-ink/75">
          {values.yearBuilt
            ? t("booking.known.sizeBuilt", { size: values.propertySize, year: values.yearBuilt })
            : t("booking.known.size", { size: values.propertySize })}
        </p>
      </div>
      {contactKnown && (
        <div>
          <div className="flex items-baseline justify-between gap-2">
            <h3 className="font-bold text-green-900">{t("booking.known.contact")}</h3>
            <button
              type="button"
              className="link text-sm"
              onClick={onChange(1)}
              aria-label={t("booking.known.changeContact")}
            >
              {t("booking.known.change")}
            </button>
          </div>
          <p data-testid="wizard-known-contact">
            {values.firstName} {values.lastName}
          </p>
          <p className="text-sm text-ink/75">
            {values.email} · {values.phone}
          </p>
        </div>
      )}
    </section>
  );
}
