import { type FormEvent, useEffect, useRef, useState } from "react";
import type { OnboardingOptions } from "../../src/modules/onboarding/onboarding.constants";
import { Spinner, focusField } from "../bookings/form-parts";
import { newIdempotencyKey } from "../ui/api";
import { EMPTY, type Errors, FIELD_LABELS, type Key, STEPS, StepFields, type Values, problemsOf } from "./steps";


interface Props {
  options: OnboardingOptions;
  minDate: string;
  maxDate: string;
}

interface Result {
  propertyId?: number;
  bookingId?: number;
  error?: string;
  message?: string;
  /** On a 400: each refused field with the server's message. */
  fields?: Record<string, string>;
}

type Phase = "splash" | "form" | "processing" | "complete";

// Timings of customer-side §2.13 and §4.
const SPLASH_BUTTON_DELAY = 2000;
const COMPLETE_DELAY = 1000;
// Step 5 submits by itself once valid; a short pause lets a person finish typing a code first.
const AUTO_SUBMIT_PAUSE = 1200;

export default function OnboardingWizard({ options, minDate, maxDate }: Props) {
  const [phase, setPhase] = useState<Phase>("splash");
  const [showStart, setShowStart] = useState(false);
  const [step, setStep] = useState(1);
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const [submitting, setSubmitting] = useState(false);
  const [failedWith, setFailedWith] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  // The server's messages for the fields it refused; each goes when its field is edited.
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const heading = useRef<HTMLHeadingElement>(null);
  const submissionKey = useRef(newIdempotencyKey());
  const form = useRef<HTMLFormElement>(null);
  // The field to focus once its step has rendered (back from a refused submission).
  const pendingFocus = useRef<Key | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setShowStart(true), SPLASH_BUTTON_DELAY);
    return () => clearTimeout(timer);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: focus the new heading (or the first refused field) on each step change
  useEffect(() => {
    const key = pendingFocus.current;
    pendingFocus.current = null;
    if (phase === "form" && key && focusField(form.current, key)) return;
    if (phase !== "splash") heading.current?.focus();
  }, [phase, step]);

  // The server's rules, checked lightly here; per-step required fields come from STEPS.
  const problems: Errors = problemsOf(values, minDate, maxDate);
  const stepValid = (n: number) =>
    STEPS[n - 1]!.required.every((k) => values[k].trim()) && STEPS[n - 1]!.fields.every((k) => !problems[k] && !serverErrors[k]);
  const valid = stepValid(step);
  const allValid = [1, 2, 3, 4, 5].every(stepValid);
  const snapshot = JSON.stringify(values);

  const visibleErrors: Errors = { ...serverErrors };
  for (const key of Object.keys(problems) as Key[]) if (touched[key] && values[key]) visibleErrors[key] = problems[key];

  const set = (key: Key) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
    // A new access method hides or shows the code field: its old refusal goes too, so it cannot block step 5 unseen.
    const cleared: Key[] = key === "accessMethod" ? [key, "accessCode"] : [key];
    setServerErrors((e) => (cleared.some((k) => e[k]) ? { ...e, ...Object.fromEntries(cleared.map((k) => [k, undefined])) } : e));
  };

  /** Back to the form: to the first step with a refused field, focused, or to where the person was. */
  const backToAnswers = () => {
    const first = STEPS.findIndex((s) => s.fields.some((f) => serverErrors[f]));
    if (first >= 0) {
      pendingFocus.current = STEPS[first]!.fields.find((f) => serverErrors[f]) ?? null;
      setStep(first + 1);
    }
    setPhase("form");
  };

  const submit = async () => {
    setSubmitting(true);
    setFailedWith(null);
    setServerErrors({});
    setPhase("processing");
    try {
      const response = await fetch("/api/onboarding", {
        method: "POST",
        credentials: "include",
        // One key per wizard: a retry after a lost answer creates nothing twice.
        headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": submissionKey.current },
        body: JSON.stringify({ ...values, completedAt: new Date().toISOString() }),
      });
      const data = (await response.json().catch(() => ({}))) as Result;
      if (!response.ok) {
        window.alert(`Submission failed: ${data.error || data.message || "Unknown error"}`);
        const refused: Errors = {};
        for (const [key, message] of Object.entries(data.fields ?? {})) if (key in EMPTY && typeof message === "string") refused[key as Key] = message;
        setServerErrors(refused);
        setFailedWith(snapshot);
        setSubmitting(false);
        return;
      }
      // The spec's SPA invalidates its cached properties, bookings and stats here; every Haven page loads
      // them fresh from the server, so there is no client cache to invalidate.
      setTimeout(() => {
        setResult(data);
        setPhase("complete");
        setSubmitting(false);
      }, COMPLETE_DELAY);
    } catch (error) {
      window.alert(`Network error: ${(error as Error)?.message || "Unknown error"}`);
      setFailedWith(snapshot);
      setSubmitting(false);
    }
  };

  // Step 5 has no Next: once valid and idle it submits; not again for values that just failed.
  const autoSubmit = phase === "form" && step === 5 && allValid && !submitting && failedWith !== snapshot;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-armed on every change of the values (snapshot)
  useEffect(() => {
    if (!autoSubmit) return;
    const timer = setTimeout(submit, AUTO_SUBMIT_PAUSE);
    return () => clearTimeout(timer);
  }, [autoSubmit, snapshot]);

  if (phase === "splash") {
    return (
      <div className="onboarding-splash">
        <div className="splash-logo" aria-hidden="true">
          <svg viewBox="0 0 64 64" className="h-20 w-20">
            <path d="M8 30 32 10l24 20" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
            <path d="M16 27v25h32V27" fill="none" stroke="currentColor" strokeWidth="4" strokeLinejoin="round" />
            <path d="M25 40l5 5 10-11" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </div>
        <h1 className="mt-6 font-serif text-4xl font-bold text-gold-300 md:text-5xl">Haven</h1>
        <p className="mt-3 max-w-md text-lg text-cream/90">Your free Property Health Score starts here: five short steps about you and your home.</p>
        <div className="mt-8 h-14">
          {showStart && (
            <button type="button" className="btn btn-gold btn-lg splash-start" onClick={() => setPhase("form")}>
              Let's Get Started
            </button>
          )}
        </div>
      </div>
    );
  }

  if (phase === "processing") {
    const refusedKeys = STEPS.flatMap((s) => s.fields).filter((key) => serverErrors[key]);
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <h1 ref={heading} tabIndex={-1} className="font-serif text-3xl font-bold text-green-900">
          Processing Your Information...
        </h1>
        {submitting || !failedWith ? (
          <Spinner label="Saving your details and scheduling your inspection." />
        ) : (
          <div className="card mt-8" role="alert">
            <p className="font-semibold">We couldn't save your information.</p>
            <p className="mt-1 text-sm text-ink/80">Nothing you typed is lost. Try again, or go back and check your answers.</p>
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
              <button type="button" className="btn btn-gold" onClick={submit}>
                Try Again
              </button>
              <button type="button" className="btn btn-outline" onClick={backToAnswers}>
                Back to My Answers
              </button>
            </div>
          </div>
        )}
      </div>
    );
  }

  if (phase === "complete") {
    return (
      <div className="mx-auto max-w-xl px-4 py-16 text-center">
        <span className="confirm-badge" aria-hidden="true">
          <svg viewBox="0 0 24 24" className="h-8 w-8">
            <path d="M5 12.5l4.5 4.5L19 7.5" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-green-900">
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

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step < 5 && valid) setStep(step + 1);
  };

  return (
    <form ref={form} onSubmit={onSubmit} noValidate className="mx-auto max-w-2xl px-4 py-8 md:py-12">
      <p className="text-sm font-semibold text-green-700" aria-live="polite">
        Step {step} of 5
      </p>
      <div className="progress mt-2" aria-hidden="true">
        <span style={{ width: `${step * 20}%` }} />
      </div>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-green-900">
        {STEPS[step - 1]!.title}
      </h1>
      <div className="card mt-6 grid gap-4 sm:grid-cols-2">
        <StepFields options={options} step={step} values={values} errors={visibleErrors} minDate={minDate} maxDate={maxDate} set={set} />
      </div>
      {step === 5 && (
        <p className="mt-4 text-center font-medium" role="status" data-testid="auto-submit-status">
          {allValid ? "Auto-submitting your information..." : "Please complete all required fields above"}
        </p>
      )}
      <div className="mt-6 flex justify-between gap-3">
        <button type="button" className="btn btn-outline" disabled={step === 1} onClick={() => setStep(step - 1)}>
          Previous
        </button>
        {step < 5 && (
          <button type="submit" className="btn btn-green" disabled={!valid}>
            Next
          </button>
        )}
      </div>
      {step < 5 && !valid && (
        <p className="mt-2 text-right text-sm text-ink/70">
          {STEPS[step - 1]!.fields.some((k) => visibleErrors[k]) ? "Correct the answers marked above to continue." : "Fill in the required fields to continue."}
        </p>
      )}
    </form>
  );
}
