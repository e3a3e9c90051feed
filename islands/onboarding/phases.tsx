// The onboarding wizard's screens around its form (OnboardingWizard.island.tsx): the splash, the processing
// screen (with a refused submission's answers to change), and the completed one.
import type { Ref } from "react";
import { ConfirmBadge, Spinner } from "../bookings/form-parts";
import type { IslandT } from "../ui/i18n";
import { type Errors, STEPS, fieldLabel } from "./steps";

/** What the server answered: the ids it created, or why it refused. */
export interface Result {
  propertyId?: number;
  bookingId?: number;
  error?: string;
  message?: string;
  /** On a 400: each refused field with the server's message. */
  fields?: Record<string, string>;
}

export function Splash({ t, showStart, onStart }: { t: IslandT; showStart: boolean; onStart: () => void }) {
  return (
    <div className="onboarding-splash">
      <div className="splash-logo" aria-hidden="true">
        <svg viewBox="0 0 64 64" className="h-20 w-20">
          <path
            d="M8 30 32 10l24 20"
            fill="none"
            stroke="currentColor"
            strokeWidth="4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
          <path d="M16 27v25h32V27" fill="none" stroke="currentColor" strokeWidth="4" strokeLinejoin="round" />
          <path
            d="M25 40l5 5 10-11"
            fill="none"
            stroke="currentColor"
            strokeWidth="4"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </div>
      <h1 className="mt-6 font-serif text-4xl font-bold text-gold-300 md:text-5xl">Haven</h1>
      <p className="mt-3 max-w-md text-lg text-cream/90">{t("onboarding.splash.lead")}</p>
      <div className="mt-8 h-14">
        {showStart && (
          <button type="button" className="btn btn-gold btn-lg splash-start" onClick={onStart}>
            {t("onboarding.splash.start")}
          </button>
        )}
      </div>
    </div>
  );
}

interface ProcessingProps {
  t: IslandT;
  headingRef: Ref<HTMLHeadingElement>;
  /** Sending, or sent and waiting for the completed screen: the spinner. */
  busy: boolean;
  /** The server's messages for the fields it refused. */
  serverErrors: Errors;
  onRetry: () => void;
  onBack: () => void;
}

export function Processing({ t, headingRef, busy, serverErrors, onRetry, onBack }: ProcessingProps) {
  const refusedKeys = STEPS.flatMap((s) => s.fields).filter((key) => serverErrors[key]);
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 ref={headingRef} tabIndex={-1} className="font-serif text-3xl font-bold text-green-900">
        {t("onboarding.processing.heading")}
      </h1>
      {busy ? (
        <Spinner label={t("onboarding.processing.busy")} />
      ) : (
        <div className="card mt-8" role="alert">
          <p className="font-semibold">{t("onboarding.processing.failed")}</p>
          <p className="mt-1 text-sm text-ink/80">{t("onboarding.processing.kept")}</p>
          {refusedKeys.length > 0 && (
            <>
              <p className="mt-4 text-left text-sm font-semibold">{t("onboarding.processing.refused")}</p>
              <ul className="mt-1 list-disc pl-5 text-left text-sm" data-testid="refused-fields">
                {refusedKeys.map((key) => (
                  <li key={key}>
                    {t("onboarding.processing.refusedField", {
                      field: fieldLabel(t, key),
                      message: serverErrors[key],
                    })}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="mt-4 flex flex-wrap justify-center gap-3">
            <button type="button" className="btn btn-gold" onClick={onRetry}>
              {t("onboarding.processing.retry")}
            </button>
            <button type="button" className="btn btn-outline" onClick={onBack}>
              {t("onboarding.processing.back")}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

interface CompleteProps {
  t: IslandT;
  headingRef: Ref<HTMLHeadingElement>;
  result: Result | null;
  /** The home page in the page's language. */
  homeHref: string;
}

export function Complete({ t, headingRef, result, homeHref }: CompleteProps) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <ConfirmBadge />
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-green-900">
        {t("onboarding.complete.heading")}
      </h1>
      <div className="card mt-6">
        {result?.bookingId ? (
          <>
            <h2 className="text-xl font-semibold text-green-900">{t("onboarding.complete.scheduled")}</h2>
            <p className="mt-2 text-sm text-ink/80" data-testid="onboarding-ids">
              {t("onboarding.complete.ids", { propertyId: result.propertyId, bookingId: result.bookingId })}
            </p>
          </>
        ) : (
          <>
            <h2 className="text-xl font-semibold text-green-900">{t("onboarding.complete.saved")}</h2>
            <p className="mt-2 text-ink/80">{t("onboarding.complete.touch")}</p>
          </>
        )}
      </div>
      <button type="button" className="btn btn-green mt-8" onClick={() => window.location.assign(homeHref)}>
        {t("onboarding.complete.done")}
      </button>
    </div>
  );
}
