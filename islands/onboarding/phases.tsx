// The onboarding wizard's screens around its form (OnboardingWizard.island.tsx): the splash, the processing
// screen (with a refused submission's answers to change), and the completed one.
import type { Ref } from "react";
import { ConfirmBadge, Spinner } from "../bookings/form-parts";
import { type Errors, FIELD_LABELS, STEPS } from "./steps";

/** What the server answered: the ids it created, or why it refused. */
export interface Result {
  propertyId?: number;
  bookingId?: number;
  error?: string;
  message?: string;
  /** On a 400: each refused field with the server's message. */
  fields?: Record<string, string>;
}

export function Splash({ showStart, onStart }: { showStart: boolean; onStart: () => void }) {
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
      <p className="mt-3 max-w-md text-lg text-cream/90">
        Your free Property Health Score starts here: five short steps about you and your home.
      </p>
      <div className="mt-8 h-14">
        {showStart && (
          <button type="button" className="btn btn-gold btn-lg splash-start" onClick={onStart}>
            Let's Get Started
          </button>
        )}
      </div>
    </div>
  );
}

interface ProcessingProps {
  headingRef: Ref<HTMLHeadingElement>;
  /** Sending, or sent and waiting for the completed screen: the spinner. */
  busy: boolean;
  /** The server's messages for the fields it refused. */
  serverErrors: Errors;
  onRetry: () => void;
  onBack: () => void;
}

export function Processing({ headingRef, busy, serverErrors, onRetry, onBack }: ProcessingProps) {
  const refusedKeys = STEPS.flatMap((s) => s.fields).filter((key) => serverErrors[key]);
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <h1 ref={headingRef} tabIndex={-1} className="font-serif text-3xl font-bold text-green-900">
        Processing Your Information...
      </h1>
      {busy ? (
        <Spinner label="Saving your details and scheduling your inspection." />
      ) : (
        <div className="card mt-8" role="alert">
          <p className="font-semibold">We couldn't save your information.</p>
          <p className="mt-1 text-sm text-ink/80">
            Nothing you typed is lost. Try again, or go back and check your answers.
          </p>
          {refusedKeys.length > 0 && (
            <>
              <p className="mt-4 text-left text-sm font-semibold">These answers need a change:</p>
              <ul className="mt-1 list-disc pl-5 text-left text-sm" data-testid="refused-fields">
                {refusedKeys.map((key) => (
                  <li key={key}>
                    {FIELD_LABELS[key]}: {serverErrors[key]}
                  </li>
                ))}
              </ul>
            </>
          )}
          <div className="mt-4 flex flex-wrap justify-center gap-3">
            <button type="button" className="btn btn-gold" onClick={onRetry}>
              Try Again
            </button>
            <button type="button" className="btn btn-outline" onClick={onBack}>
              Back to My Answers
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

export function Complete({ headingRef, result }: { headingRef: Ref<HTMLHeadingElement>; result: Result | null }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16 text-center">
      <ConfirmBadge />
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-green-900">
        Onboarding Complete!
      </h1>
      <div className="card mt-6">
        {result?.bookingId ? (
          <>
            <h2 className="text-xl font-semibold text-green-900">Inspection Successfully Scheduled</h2>
            <p className="mt-2 text-sm text-ink/80" data-testid="onboarding-ids">
              Property ID: {result.propertyId} · Booking ID: {result.bookingId}
            </p>
          </>
        ) : (
          <>
            <h2 className="text-xl font-semibold text-green-900">Information Saved Successfully</h2>
            <p className="mt-2 text-ink/80">We'll be in touch to schedule your inspection.</p>
          </>
        )}
      </div>
      <button type="button" className="btn btn-green mt-8" onClick={() => window.location.assign("/")}>
        Done
      </button>
    </div>
  );
}
