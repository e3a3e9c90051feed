import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { intlLocale } from "../../src/i18n/locales";
import { localePath } from "../../src/i18n/routing";
import {
  type Booking,
  NEEDS_ACCESS_INFO,
  type WizardPrefill,
  wizardLeft,
} from "../../src/modules/bookings/bookings.constants";
import { inspectionMinutes } from "../../src/modules/bookings/availability";
import { freshTimes, wizardAvailabilityKey } from "./availability";
import { ApiError, apiRequest, newIdempotencyKey } from "../ui/api";
import { RequiredNote } from "../checkout/fields";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { toast } from "../ui/toast";
import { focusField, saveConfirmation } from "./form-parts";
import { StepFields } from "./ScheduleStepFields";
import {
  EMPTY,
  type Errors,
  INTAKE_STEPS,
  type Key,
  STEPS,
  type Step,
  type Values,
  continuationSteps,
  initialValues,
  problemsIn,
} from "./schedule-steps";
import { KnownDetails, WizardProgress } from "./WizardParts";
import { setData, useSubmission } from "../ui/data";

interface Props {
  /** From the server, so the island does not pull zod in with customers.schemas. */
  propertyTypes: string[];
  minDate: string;
  maxDate: string;
  prefill: WizardPrefill | null;
  planLabel: string | null;
  /** The `booking` and `forms` namespaces in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
}

const REDIRECT_DELAY = 1500;

/**
 * The steps shown (the full wizard, or intake's continuation while its property is complete), the current one,
 * and focus after each move: the field asked for (the first invalid one), otherwise the new step's heading.
 */
function useWizardSteps(prefill: WizardPrefill | null) {
  // 'Change' (or an error on a field shown read-only) goes back to the full wizard.
  const [continuing, setContinuing] = useState(() => wizardLeft(prefill) !== null);
  const [continued] = useState(() => (prefill ? continuationSteps(initialValues(prefill)) : STEPS));
  const steps = continuing ? continued : STEPS;
  const [step, setStep] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  // The field to focus once its step has rendered; focusTick asks again when the step stays the same.
  const pendingFocus = useRef<Key | null>(null);
  const [focusTick, setFocusTick] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each step change and focus request by design
  useEffect(() => {
    const key = pendingFocus.current;
    pendingFocus.current = null;
    // The first invalid field when errors were just shown; otherwise the new step's heading (not on first render).
    if (!(key && focusField(form.current, key)) && moved.current) heading.current?.focus();
    moved.current = true;
  }, [step, focusTick]);

  /** Goes to the first step that has one of the errors and focuses its first invalid field; false when none has. */
  const goToFirstError = (found: Errors): boolean => {
    const hasError = (s: Step) => s.fields.some((f) => found[f]);
    // An error on a field shown read-only (the server refused the intake's property): back to the full wizard.
    const shown = continuing && !steps.some(hasError) && STEPS.some(hasError);
    const list = shown ? STEPS : steps;
    if (shown) setContinuing(false);
    const first = list.findIndex(hasError);
    if (first < 0) return false;
    pendingFocus.current = list[first]!.fields.find((f) => found[f]) ?? null;
    setStep(first);
    setFocusTick((t) => t + 1);
    return true;
  };

  /** 'Change': the full wizard at that step, with everything kept. */
  const change = (index: number) => () => {
    setContinuing(false);
    setStep(index);
  };
  return {
    continuing,
    steps,
    offset: continuing ? INTAKE_STEPS.length : 0,
    step,
    setStep,
    goToFirstError,
    change,
    form,
    heading,
  };
}

/** Books the inspection once (one idempotency key per wizard), then leaves for the confirmation page. */
function useScheduleBooking(
  t: IslandT,
  values: Values,
  prefill: WizardPrefill | null,
  onRefused: (known: Errors, other: string | null) => void,
  onTaken: (message: string) => void,
) {
  const submissionKey = useRef(newIdempotencyKey());
  const call = () =>
    apiRequest<Booking>(
      "POST",
      "/api/inspection-bookings",
      // The page's language goes with the booking: a customer it creates is stored with it (docs/decisions.md#65).
      { ...values, ...(prefill && { customerId: prefill.customerId }), locale: intlLocale(t.locale) },
      // One key per wizard: a double click or a retry books once.
      { "Idempotency-Key": submissionKey.current },
    );
  return useSubmission(call, {
    onSuccess: (booking) => {
      toast({ title: t("booking.toast.scheduled"), description: t("booking.toast.scheduledHelp") });
      saveConfirmation({
        scheduledDate: booking.scheduledDate,
        selectedTime: booking.timeSlot,
        address: booking.address,
        city: booking.city,
        state: booking.state ?? booking.province ?? "",
        accessMethod: booking.accessMethod ?? undefined,
        email: values.email.trim(),
        postalCode: booking.postalCode ?? undefined,
        visitMinutes: inspectionMinutes(Number(values.propertySize.replace(/,/g, "")) || null),
      });
      setTimeout(
        () => window.location.assign(localePath("/booking-confirmation", intlLocale(t.locale))),
        REDIRECT_DELAY,
      );
    },
    onError: (error: unknown) => {
      // Another booking took that time first (docs/decisions.md#37): the fresh times replace the offered ones.
      const fresh = error instanceof ApiError && error.status === 409 ? freshTimes(error.body) : null;
      if (fresh) {
        const key = wizardAvailabilityKey(values.scheduledDate, values.propertySize);
        if (key) setData(key, fresh);
        onTaken(t("booking.slotTaken"));
        toast({
          title: t("booking.toast.slotTaken"),
          description: t("booking.toast.chooseAnother"),
          variant: "destructive",
        });
        return;
      }
      // A 400 names each refused field: show each message under its field, on its step.
      const fields = error instanceof ApiError && error.status === 400 ? error.fields : {};
      const known: Errors = {};
      const other: string[] = [];
      for (const [key, message] of Object.entries(fields)) {
        if (key in EMPTY) known[key as Key] = message;
        else other.push(message);
      }
      onRefused(known, other.length ? [...new Set(other)].join(" ") : null);
      toast({ title: t("booking.toast.error"), description: t("booking.toast.errorHelp"), variant: "destructive" });
    },
  });
}

export default function ScheduleWizard({ propertyTypes, minDate, maxDate, prefill, planLabel, i18n }: Props) {
  const t = useMemo(() => islandTranslator(i18n), [i18n]);
  const [values, setValues] = useState<Values>(() => initialValues(prefill));
  const [errors, setErrors] = useState<Errors>({});
  const { continuing, steps, offset, step, setStep, goToFirstError, change, form, heading } = useWizardSteps(prefill);
  const current = steps[step]!;
  // Messages of the server that name no field of the wizard; shown above the buttons.
  const [formError, setFormError] = useState<string | null>(null);

  const field = (key: Key) => ({
    id: key,
    value: values[key],
    error: errors[key],
    onChange: (value: string) => {
      setValues((v) => ({ ...v, [key]: value }));
      setErrors((e) => ({ ...e, [key]: undefined }));
    },
  });

  /** Shows the errors, goes to the first step that has one and focuses its first invalid field. */
  const showErrors = (found: Errors, keep: Errors = {}): boolean => {
    setErrors({ ...keep, ...found });
    return goToFirstError(found);
  };

  const mutation = useScheduleBooking(
    t,
    values,
    prefill,
    (known, other) => {
      showErrors(known);
      setFormError(other);
    },
    // The time is no longer offered: it is emptied, and the message stays under the time select.
    (message) => {
      setValues((v) => ({ ...v, timeSlot: "" }));
      showErrors({ timeSlot: message });
    },
  );

  const next = () => {
    if (current.required.some((k) => !values[k].trim())) {
      toast({ title: t("booking.toast.missing"), description: t("booking.toast.missingStep"), variant: "destructive" });
    }
    // This step's errors are checked again; the server's messages for other steps wait there.
    const others = Object.fromEntries(
      Object.entries(errors).filter(([key]) => !current.fields.includes(key as Key)),
    ) as Errors;
    if (showErrors(problemsIn(t, values, current.fields, minDate, maxDate), others)) return;
    setStep(step + 1);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step < steps.length - 1) return next();
    if (mutation.isPending || mutation.isSuccess) return;
    setFormError(null);
    const found = problemsIn(
      t,
      values,
      STEPS.flatMap((s) => s.fields),
      minDate,
      maxDate,
    );
    if (steps.some((s) => s.required.some((k) => !values[k].trim()))) {
      toast({ title: t("booking.toast.missing"), description: t("booking.toast.missingAll"), variant: "destructive" });
      // Every step's errors, so the step it lands on shows its own.
      showErrors(found);
      return;
    }
    if (
      NEEDS_ACCESS_INFO.includes(values.accessMethod) &&
      !values.accessCode.trim() &&
      !values.accessInstructions.trim()
    ) {
      const message = t("booking.access.message");
      toast({ title: t("booking.access.title"), description: message, variant: "destructive" });
      showErrors({ ...found, accessCode: message });
      return;
    }
    if (showErrors(found)) return;
    mutation.mutate();
  };

  const busy = mutation.isPending || mutation.isSuccess;
  return (
    <form ref={form} onSubmit={submit} noValidate className="card mt-6" aria-labelledby="wizard-step-title">
      <WizardProgress
        t={t}
        titles={[...(continuing ? INTAKE_STEPS : []), ...steps.map((s) => s.title)].map((key) => t(key))}
        offset={offset}
        step={step}
      />
      {planLabel && step === 0 && (
        <p className="mt-4 rounded-lg bg-gold-200/50 px-3 py-2 text-sm">
          {t("booking.planActive", { plan: planLabel })}
        </p>
      )}
      {continuing && prefill && step === 0 && (
        <KnownDetails
          t={t}
          prefill={prefill}
          values={values}
          contactKnown={!current.fields.includes("firstName")}
          onChange={change}
        />
      )}

      <h2
        id="wizard-step-title"
        ref={heading}
        tabIndex={-1}
        className="mt-6 font-serif text-2xl font-bold text-green-900"
      >
        {t(current.title)}
      </h2>
      <p className="text-sm text-ink/75">
        {t("booking.stepOf", { n: offset + step + 1, total: offset + steps.length })} <RequiredNote t={t} />
      </p>
      <StepFields
        t={t}
        step={current}
        field={field}
        propertyTypes={propertyTypes}
        minDate={minDate}
        maxDate={maxDate}
      />

      {formError && (
        <p role="alert" className="field-error mt-4">
          {formError}
        </p>
      )}
      {/* On phones the main action comes first, full width; Previous sits under it. */}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        {step > 0 ? (
          <button type="button" className="btn btn-outline" onClick={() => setStep(step - 1)} disabled={busy}>
            {t("booking.previous")}
          </button>
        ) : (
          <span className="hidden sm:block" />
        )}
        {step < steps.length - 1 ? (
          <button type="submit" className="btn btn-green">
            {t("booking.next")}
          </button>
        ) : (
          <button type="submit" className="btn btn-gold" disabled={busy} aria-busy={mutation.isPending || undefined}>
            {mutation.isPending ? t("booking.scheduling") : t("booking.submit")}
          </button>
        )}
      </div>
    </form>
  );
}
