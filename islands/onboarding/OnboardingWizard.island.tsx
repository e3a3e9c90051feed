import { type FormEvent, useEffect, useRef, useState } from "react";
import type { OnboardingOptions } from "../../src/modules/onboarding/onboarding.constants";
import { focusField } from "../bookings/form-parts";
import { newIdempotencyKey } from "../ui/api";
import { type Locale, intlLocale } from "../../src/i18n/locales";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { Complete, Processing, type Result, Splash } from "./phases";
import { EMPTY, type Errors, type Key, STEPS, StepFields, type Values, problemsOf } from "./steps";

interface Props {
  options: OnboardingOptions;
  minDate: string;
  maxDate: string;
  /** The `forms` and `onboarding` namespaces in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
  /** The provinces' and the parts of the day's words in the page's language (other namespaces' words). */
  provinceNames: Record<string, string>;
  dayParts: Record<string, { label: string; range: string }>;
  /** The home page's address in the page's language. */
  homeHref: string;
}

type Phase = "splash" | "form" | "processing" | "complete";

// Timings of customer-side §2.13 and §4.
const SPLASH_BUTTON_DELAY = 2000;
const COMPLETE_DELAY = 1000;
// Step 5 submits by itself once valid; a short pause lets a person finish typing a code first.
const AUTO_SUBMIT_PAUSE = 1200;

/**
 * Sends the answers (one key per wizard: a retry after a lost answer creates nothing twice). A refusal is
 * alerted, its fields' messages kept, and the values it failed with remembered; success completes after a pause.
 */
function useSubmission(values: Values, t: IslandT, onPhase: (phase: Phase) => void) {
  const locale: Locale = intlLocale(t.locale);
  const [submitting, setSubmitting] = useState(false);
  const [failedWith, setFailedWith] = useState<string | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  // The server's messages for the fields it refused; each goes when its field is edited.
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const submissionKey = useRef(newIdempotencyKey());
  const snapshot = JSON.stringify(values);

  const submit = async () => {
    setSubmitting(true);
    setFailedWith(null);
    setServerErrors({});
    onPhase("processing");
    try {
      const response = await fetch("/api/onboarding", {
        method: "POST",
        credentials: "include",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          // The server's refusals in the page's language (src/i18n/api-locale.ts).
          "Accept-Language": locale,
          "Idempotency-Key": submissionKey.current,
        },
        // The page's language goes with the answers: the customer is stored with it (docs/decisions.md#65).
        body: JSON.stringify({ ...values, completedAt: new Date().toISOString(), locale }),
      });
      const data = (await response.json().catch(() => ({}))) as Result;
      if (!response.ok) {
        window.alert(
          t("onboarding.alert.failed", { reason: data.error || data.message || t("onboarding.alert.unknown") }),
        );
        const refused: Errors = {};
        for (const [key, message] of Object.entries(data.fields ?? {}))
          if (key in EMPTY && typeof message === "string") refused[key as Key] = message;
        setServerErrors(refused);
        setFailedWith(snapshot);
        setSubmitting(false);
        return;
      }
      // The spec's SPA invalidates its cached properties, bookings and stats here; every Haven page loads
      // them fresh from the server, so there is no client cache to invalidate.
      setTimeout(() => {
        setResult(data);
        onPhase("complete");
        setSubmitting(false);
      }, COMPLETE_DELAY);
    } catch (error) {
      window.alert(
        t("onboarding.alert.network", { reason: (error as Error)?.message || t("onboarding.alert.unknown") }),
      );
      setFailedWith(snapshot);
      setSubmitting(false);
    }
  };
  return { submitting, failedWith, result, serverErrors, setServerErrors, snapshot, submit };
}

interface StepNavProps {
  t: IslandT;
  step: number;
  valid: boolean;
  /** Some answer of this step is marked wrong (rather than missing). */
  marked: boolean;
  onPrevious: () => void;
}

/** Previous and Next (step 5 has no Next: it submits by itself), and why Next is unusable. */
function StepNav({ t, step, valid, marked, onPrevious }: StepNavProps) {
  return (
    <>
      <div className="mt-6 flex justify-between gap-3">
        <button type="button" className="btn btn-outline" disabled={step === 1} onClick={onPrevious}>
          {t("onboarding.previous")}
        </button>
        {step < 5 && (
          <button type="submit" className="btn btn-green" disabled={!valid}>
            {t("onboarding.next")}
          </button>
        )}
      </div>
      {step < 5 && !valid && (
        <p className="mt-2 text-right text-sm text-ink/70">
          {t(marked ? "onboarding.nav.marked" : "onboarding.nav.missing")}
        </p>
      )}
    </>
  );
}

export default function OnboardingWizard({ options, minDate, maxDate, i18n, ...words }: Props) {
  const t = islandTranslator(i18n);
  const [phase, setPhase] = useState<Phase>("splash");
  const [showStart, setShowStart] = useState(false);
  const [step, setStep] = useState(1);
  const [values, setValues] = useState<Values>(EMPTY);
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const { submitting, failedWith, result, serverErrors, setServerErrors, snapshot, submit } = useSubmission(
    values,
    t,
    setPhase,
  );
  const heading = useRef<HTMLHeadingElement>(null);
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
  const problems: Errors = problemsOf(t, values, minDate, maxDate);
  const stepValid = (n: number) =>
    STEPS[n - 1]!.required.every((k) => values[k].trim()) &&
    STEPS[n - 1]!.fields.every((k) => !problems[k] && !serverErrors[k]);
  const valid = stepValid(step);
  const allValid = [1, 2, 3, 4, 5].every(stepValid);

  const visibleErrors: Errors = { ...serverErrors };
  for (const key of Object.keys(problems) as Key[]) if (touched[key] && values[key]) visibleErrors[key] = problems[key];

  const set = (key: Key) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
    // A new access method hides or shows the code field: its old refusal goes too, so it cannot block step 5 unseen.
    const cleared: Key[] = key === "accessMethod" ? [key, "accessCode"] : [key];
    setServerErrors((e) =>
      cleared.some((k) => e[k]) ? { ...e, ...Object.fromEntries(cleared.map((k) => [k, undefined])) } : e,
    );
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

  // Step 5 has no Next: once valid and idle it submits; not again for values that just failed.
  const autoSubmit = phase === "form" && step === 5 && allValid && !submitting && failedWith !== snapshot;
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-armed on every change of the values (snapshot)
  useEffect(() => {
    if (!autoSubmit) return;
    const timer = setTimeout(submit, AUTO_SUBMIT_PAUSE);
    return () => clearTimeout(timer);
  }, [autoSubmit, snapshot]);

  if (phase === "splash") return <Splash t={t} showStart={showStart} onStart={() => setPhase("form")} />;
  if (phase === "processing")
    return (
      <Processing
        t={t}
        headingRef={heading}
        busy={submitting || !failedWith}
        serverErrors={serverErrors}
        onRetry={submit}
        onBack={backToAnswers}
      />
    );
  if (phase === "complete") return <Complete t={t} headingRef={heading} result={result} homeHref={words.homeHref} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (step < 5 && valid) setStep(step + 1);
  };

  return (
    <form ref={form} onSubmit={onSubmit} noValidate className="mx-auto max-w-2xl px-4 py-8 md:py-12">
      <p className="text-sm font-semibold text-green-700" aria-live="polite">
        {t("onboarding.stepOf", { n: step, total: 5 })}
      </p>
      <div className="progress mt-2" aria-hidden="true">
        <span style={{ width: `${step * 20}%` }} />
      </div>
      <h1 ref={heading} tabIndex={-1} className="mt-4 font-serif text-3xl font-bold text-green-900">
        {t(`onboarding.step.${step}`)}
      </h1>
      <div className="card mt-6 grid gap-4 sm:grid-cols-2">
        <StepFields
          options={options}
          step={step}
          values={values}
          errors={visibleErrors}
          minDate={minDate}
          maxDate={maxDate}
          set={set}
          t={t}
          provinceNames={words.provinceNames}
          dayParts={words.dayParts}
        />
      </div>
      {step === 5 && (
        <p className="mt-4 text-center font-medium" role="status" data-testid="auto-submit-status">
          {t(allValid ? "onboarding.auto.ready" : "onboarding.auto.waiting")}
        </p>
      )}
      <StepNav
        t={t}
        step={step}
        valid={valid}
        marked={STEPS[step - 1]!.fields.some((k) => visibleErrors[k])}
        onPrevious={() => setStep(step - 1)}
      />
    </form>
  );
}
