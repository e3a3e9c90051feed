import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  ACCESS_INFO_MESSAGE,
  ACCESS_INFO_TITLE,
  type Booking,
  NEEDS_ACCESS_INFO,
  SLOT_TAKEN,
  type WizardPrefill,
} from "../../src/modules/bookings/bookings.constants";
import { inspectionMinutes } from "../../src/modules/bookings/availability";
import { freshTimes, wizardAvailabilityKey } from "./availability";
import { ApiError, apiRequest, newIdempotencyKey } from "../ui/api";
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
import { setFreeTimes, useSubmission } from "./wizard-free-times";

interface Props {
  /** From the server, so the island does not pull zod in with customers.schemas. */
  propertyTypes: string[];
  minDate: string;
  maxDate: string;
  prefill: WizardPrefill | null;
  planLabel: string | null;
}

const REDIRECT_DELAY = 1500;

/**
 * The steps shown (the full wizard, or intake's continuation while its property is complete), the current one,
 * and focus after each move: the field asked for (the first invalid one), otherwise the new step's heading.
 */
function useWizardSteps(prefill: WizardPrefill | null) {
  // 'Change' (or an error on a field shown read-only) goes back to the full wizard.
  const [continuing, setContinuing] = useState(() => Boolean(prefill?.propertyAddress && prefill.propertySize));
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
      { ...values, ...(prefill && { customerId: prefill.customerId }) },
      // One key per wizard: a double click or a retry books once.
      { "Idempotency-Key": submissionKey.current },
    );
  return useSubmission(call, {
    onSuccess: (booking) => {
      toast({
        title: "Inspection Scheduled Successfully",
        description: "You'll receive a confirmation email shortly with all the details.",
      });
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
      setTimeout(() => window.location.assign("/booking-confirmation"), REDIRECT_DELAY);
    },
    onError: (error: unknown) => {
      // Another booking took that time first (docs/decisions.md#37): the fresh times replace the offered ones.
      const fresh = error instanceof ApiError && error.status === 409 ? freshTimes(error.body) : null;
      if (fresh) {
        const key = wizardAvailabilityKey(values.scheduledDate, values.propertySize);
        if (key) setFreeTimes(key, fresh);
        onTaken(`${SLOT_TAKEN}. Please choose another time.`);
        toast({ title: SLOT_TAKEN, description: "Please choose another time.", variant: "destructive" });
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
      toast({
        title: "Scheduling Error",
        description: "Failed to schedule inspection. Please try again.",
        variant: "destructive",
      });
    },
  });
}

export default function ScheduleWizard({ propertyTypes, minDate, maxDate, prefill, planLabel }: Props) {
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
      toast({
        title: "Missing Information",
        description: "Please fill in all required fields before continuing.",
        variant: "destructive",
      });
    }
    // This step's errors are checked again; the server's messages for other steps wait there.
    const others = Object.fromEntries(
      Object.entries(errors).filter(([key]) => !current.fields.includes(key as Key)),
    ) as Errors;
    if (showErrors(problemsIn(values, current.fields, minDate, maxDate), others)) return;
    setStep(step + 1);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step < steps.length - 1) return next();
    if (mutation.isPending || mutation.isSuccess) return;
    setFormError(null);
    const found = problemsIn(
      values,
      STEPS.flatMap((s) => s.fields),
      minDate,
      maxDate,
    );
    if (steps.some((s) => s.required.some((k) => !values[k].trim()))) {
      toast({
        title: "Missing Information",
        description: "Please fill in all required fields.",
        variant: "destructive",
      });
      // Every step's errors, so the step it lands on shows its own.
      showErrors(found);
      return;
    }
    if (
      NEEDS_ACCESS_INFO.includes(values.accessMethod) &&
      !values.accessCode.trim() &&
      !values.accessInstructions.trim()
    ) {
      toast({ title: ACCESS_INFO_TITLE, description: ACCESS_INFO_MESSAGE, variant: "destructive" });
      showErrors({ ...found, accessCode: ACCESS_INFO_MESSAGE });
      return;
    }
    if (showErrors(found)) return;
    mutation.mutate();
  };

  const busy = mutation.isPending || mutation.isSuccess;
  return (
    <form ref={form} onSubmit={submit} noValidate className="card mt-6" aria-labelledby="wizard-step-title">
      <WizardProgress
        titles={[...(continuing ? INTAKE_STEPS : []), ...steps.map((s) => s.title)]}
        offset={offset}
        step={step}
      />
      {planLabel && step === 0 && (
        <p className="mt-4 rounded-lg bg-gold-200/50 px-3 py-2 text-sm">
          Your {planLabel} plan is active. Let's schedule your inspection.
        </p>
      )}
      {continuing && prefill && step === 0 && (
        <KnownDetails
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
        {current.title}
      </h2>
      <p className="text-sm text-ink/75">
        Step {offset + step + 1} of {offset + steps.length}. Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>
      <StepFields step={current} field={field} propertyTypes={propertyTypes} minDate={minDate} maxDate={maxDate} />

      {formError && (
        <p role="alert" className="field-error mt-4">
          {formError}
        </p>
      )}
      {/* On phones the main action comes first, full width; Previous sits under it. */}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        {step > 0 ? (
          <button type="button" className="btn btn-outline" onClick={() => setStep(step - 1)} disabled={busy}>
            Previous
          </button>
        ) : (
          <span className="hidden sm:block" />
        )}
        {step < steps.length - 1 ? (
          <button type="submit" className="btn btn-green">
            Next
          </button>
        ) : (
          <button type="submit" className="btn btn-gold" disabled={busy} aria-busy={mutation.isPending || undefined}>
            {mutation.isPending ? "Scheduling..." : "Schedule Inspection"}
          </button>
        )}
      </div>
    </form>
  );
}
