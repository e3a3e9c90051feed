import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import {
  ACCESS_INFO_MESSAGE,
  ACCESS_INFO_TITLE,
  ACCESS_METHOD_LABELS,
  ACCESS_METHODS,
  type Booking,
  NEEDS_ACCESS_INFO,
  SAMPLE_ADDRESS_LINE,
  type WizardPrefill,
} from "../../src/modules/bookings/bookings.constants";
import { TIME_SLOTS } from "../../src/modules/bookings/business-time";
import { Field, SelectField } from "../checkout/fields";
import { ApiError, apiRequest, newIdempotencyKey } from "../ui/api";
import { toast } from "../ui/toast";
import { emailError, leadDateError, nextYear, numberError, phoneError } from "./checks";
import { ChoiceCards, TextAreaField, focusField, saveConfirmation } from "./form-parts";

/** This island uses react-query: the loader wraps it in the query provider (islands/main.ts). */
export const queries = true;

interface Props {
  /** From the server, so the island does not pull zod in with customers.schemas. */
  propertyTypes: string[];
  minDate: string;
  maxDate: string;
  prefill: WizardPrefill | null;
  planLabel: string | null;
}

const EMPTY = {
  propertyAddress: "",
  propertyType: "",
  propertySize: "",
  yearBuilt: "",
  firstName: "",
  lastName: "",
  email: "",
  phone: "",
  scheduledDate: "",
  timeSlot: "",
  accessMethod: "",
  accessCode: "",
  accessInstructions: "",
  specialRequests: "",
};
type Values = typeof EMPTY;
type Key = keyof Values;
type Errors = Partial<Record<Key, string>>;

interface Step {
  title: string;
  fields: Key[];
  required: Key[];
}

const STEPS: Step[] = [
  { title: "Property Info", fields: ["propertyAddress", "propertyType", "propertySize", "yearBuilt"], required: ["propertyAddress", "propertyType", "propertySize"] },
  { title: "Contact Info", fields: ["firstName", "lastName", "email", "phone"], required: ["firstName", "lastName", "email", "phone"] },
  {
    title: "Schedule",
    fields: ["scheduledDate", "timeSlot", "accessMethod", "accessCode", "accessInstructions", "specialRequests"],
    required: ["scheduledDate", "timeSlot", "accessMethod"],
  },
];

/** Steps the buyer already went through before the wizard (payment, then the property form of intake). */
const INTAKE_STEPS = ["Payment", "Your Property"];

/**
 * Coming from intake (issue 18, item 3), the property and contact are known: they are shown read-only
 * and only what intake did not ask remains (the property type, then the schedule), numbered as the
 * continuation of intake's 'Step 2 of 3'. Contact Info stays a step when intake left part of it empty.
 */
function continuationSteps(values: Values): Step[] {
  const [, contact, schedule] = STEPS as [Step, Step, Step];
  const contactKnown = contact.required.every((k) => values[k].trim());
  const first = contactKnown ? schedule : contact;
  const withType: Step = { ...first, fields: ["propertyType", ...first.fields], required: ["propertyType", ...first.required] };
  return contactKnown ? [withType] : [withType, schedule];
}

const TYPE_LABELS: Record<string, string> = { "single-family": "Single-family home", townhouse: "Townhouse", condo: "Condo", duplex: "Duplex", other: "Other" };
const REDIRECT_DELAY = 1500;
const REQUIRED_LABELS: Errors = {
  propertyAddress: "Property address is required",
  propertyType: "Property type is required",
  propertySize: "Property size is required",
  firstName: "First name is required",
  lastName: "Last name is required",
  email: "Email is required",
  phone: "Phone is required",
  scheduledDate: "Inspection date is required",
  timeSlot: "Time slot is required",
  accessMethod: "Access method is required",
};

export default function ScheduleWizard({ propertyTypes, minDate, maxDate, prefill, planLabel }: Props) {
  const [values, setValues] = useState<Values>(() => (prefill ? { ...EMPTY, ...pick(prefill) } : EMPTY));
  const [errors, setErrors] = useState<Errors>({});
  // Continuing from intake while the intake's property is complete; 'Change' goes back to the full wizard.
  const [continuing, setContinuing] = useState(() => Boolean(prefill?.propertyAddress && prefill.propertySize));
  const [continued] = useState(() => (prefill ? continuationSteps({ ...EMPTY, ...pick(prefill) }) : STEPS));
  const steps = continuing ? continued : STEPS;
  const offset = continuing ? INTAKE_STEPS.length : 0;
  const [step, setStep] = useState(0);
  // Messages of the server that name no field of the wizard; shown above the buttons.
  const [formError, setFormError] = useState<string | null>(null);
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

  const set = (key: Key) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  /** Field errors of the given fields, with the server's messages (the server checks again). */
  const problemsIn = (fields: Key[]): Errors => {
    const all: Errors = {
      propertySize: numberError("Property size", values.propertySize, 100, 100_000),
      yearBuilt: numberError("Year built", values.yearBuilt, 1600, nextYear()),
      email: emailError(values.email),
      phone: phoneError(values.phone),
      scheduledDate: leadDateError("Inspection date", values.scheduledDate, minDate, maxDate),
    };
    for (const s of STEPS) for (const key of s.required) if (!values[key].trim()) all[key] = REQUIRED_LABELS[key];
    const found: Errors = {};
    for (const key of fields) if (all[key]) found[key] = all[key];
    return found;
  };

  const missingIn = (index: number) => steps[index]!.required.filter((k) => !values[k].trim());

  /** Shows the errors, goes to the first step that has one and focuses its first invalid field. */
  const showErrors = (found: Errors, keep: Errors = {}): boolean => {
    setErrors({ ...keep, ...found });
    // An error on a field shown read-only (the server refused the intake's property): back to the full wizard.
    const shown = continuing && !steps.some((s) => s.fields.some((f) => found[f])) && STEPS.some((s) => s.fields.some((f) => found[f]));
    const list = shown ? STEPS : steps;
    if (shown) setContinuing(false);
    const first = list.findIndex((s) => s.fields.some((f) => found[f]));
    if (first < 0) return false;
    pendingFocus.current = list[first]!.fields.find((f) => found[f]) ?? null;
    setStep(first);
    setFocusTick((t) => t + 1);
    return true;
  };

  const next = () => {
    if (missingIn(step).length) {
      toast({ title: "Missing Information", description: "Please fill in all required fields before continuing.", variant: "destructive" });
    }
    // This step's errors are checked again; the server's messages for other steps wait there.
    const fields = steps[step]!.fields;
    const others = Object.fromEntries(Object.entries(errors).filter(([key]) => !fields.includes(key as Key))) as Errors;
    if (showErrors(problemsIn(fields), others)) return;
    setStep(step + 1);
  };

  const submissionKey = useRef(newIdempotencyKey());
  const mutation = useMutation({
    mutationFn: () =>
      apiRequest<Booking>(
        "POST",
        "/api/inspection-bookings",
        { ...values, ...(prefill && { customerId: prefill.customerId }) },
        // One key per wizard: a double click or a retry books once.
        { "Idempotency-Key": submissionKey.current },
      ),
    onSuccess: (booking) => {
      toast({ title: "Inspection Scheduled Successfully", description: "You'll receive a confirmation email shortly with all the details." });
      saveConfirmation({
        scheduledDate: booking.scheduledDate,
        selectedTime: booking.timeSlot,
        address: booking.address,
        city: booking.city,
        state: booking.state ?? booking.province ?? "",
        accessMethod: booking.accessMethod ?? undefined,
        email: values.email.trim(),
      });
      setTimeout(() => window.location.assign("/booking-confirmation"), REDIRECT_DELAY);
    },
    onError: (error) => {
      // A 400 names each refused field: show each message under its field, on its step.
      const fields = error instanceof ApiError && error.status === 400 ? error.fields : {};
      const known: Errors = {};
      const other: string[] = [];
      for (const [key, message] of Object.entries(fields)) {
        if (key in EMPTY) known[key as Key] = message;
        else other.push(message);
      }
      showErrors(known);
      setFormError(other.length ? [...new Set(other)].join(" ") : null);
      toast({ title: "Scheduling Error", description: "Failed to schedule inspection. Please try again.", variant: "destructive" });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step < steps.length - 1) return next();
    if (mutation.isPending || mutation.isSuccess) return;
    setFormError(null);
    const found = problemsIn(STEPS.flatMap((s) => s.fields));
    if (steps.some((_, i) => missingIn(i).length)) {
      toast({ title: "Missing Information", description: "Please fill in all required fields.", variant: "destructive" });
      // Every step's errors, so the step it lands on shows its own.
      showErrors(found);
      return;
    }
    if (NEEDS_ACCESS_INFO.includes(values.accessMethod) && !values.accessCode.trim() && !values.accessInstructions.trim()) {
      toast({ title: ACCESS_INFO_TITLE, description: ACCESS_INFO_MESSAGE, variant: "destructive" });
      showErrors({ ...found, accessCode: ACCESS_INFO_MESSAGE });
      return;
    }
    if (showErrors(found)) return;
    mutation.mutate();
  };

  const needsAccess = NEEDS_ACCESS_INFO.includes(values.accessMethod);
  const busy = mutation.isPending || mutation.isSuccess;
  const current = steps[step]!;
  const shows = (key: Key) => current.fields.includes(key);
  /** 'Change': the full wizard at that step, with everything kept. */
  const change = (index: number) => () => {
    setContinuing(false);
    setStep(index);
  };

  return (
    <form ref={form} onSubmit={submit} noValidate className="card mt-6" aria-labelledby="wizard-step-title">
      <ol className="wizard-steps" aria-label="Progress">
        {[...(continuing ? INTAKE_STEPS : []), ...steps.map((s) => s.title)].map((title, n) => {
          const i = n - offset;
          return (
            <li key={title} data-state={i < step ? "done" : i === step ? "current" : "todo"} aria-current={i === step ? "step" : undefined}>
              <span className="wizard-step-number" aria-hidden="true">
                {n + 1}
              </span>
              <span>{title}</span>
            </li>
          );
        })}
      </ol>
      {planLabel && step === 0 && <p className="mt-4 rounded-lg bg-gold-200/50 px-3 py-2 text-sm">Your {planLabel} plan is active. Let's schedule your inspection.</p>}

      {continuing && prefill && step === 0 && (
        <section className="mt-4 grid gap-3 rounded-lg border border-ink/15 p-4 sm:grid-cols-2" aria-label="From your property form" data-testid="wizard-known">
          <div>
            <div className="flex items-baseline justify-between gap-2">
              <h3 className="font-bold text-green-900">Property</h3>
              <button type="button" className="link text-sm" onClick={change(0)} aria-label="Change the property">
                Change
              </button>
            </div>
            <p data-testid="wizard-known-property">{prefill.propertyLine || values.propertyAddress}</p>
            <p className="text-sm text-ink/75">
              {values.propertySize} sq ft{values.yearBuilt && ` · built ${values.yearBuilt}`}
            </p>
          </div>
          {!shows("firstName") && (
            <div>
              <div className="flex items-baseline justify-between gap-2">
                <h3 className="font-bold text-green-900">Contact</h3>
                <button type="button" className="link text-sm" onClick={change(1)} aria-label="Change the contact details">
                  Change
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
      )}

      <h2 id="wizard-step-title" ref={heading} tabIndex={-1} className="mt-6 font-serif text-2xl font-bold text-green-900">
        {current.title}
      </h2>
      <p className="text-sm text-ink/75">
        Step {offset + step + 1} of {offset + steps.length}. Fields marked <span aria-hidden="true">*</span>
        <span className="sr-only">with an asterisk</span> are required.
      </p>

      <div className="mt-5 grid gap-4 sm:grid-cols-2">
        {shows("propertyType") && !shows("propertyAddress") && (
          <div className="sm:col-span-2">
            <SelectField id="propertyType" label="Property type" required value={values.propertyType} options={propertyTypes} labels={TYPE_LABELS} error={errors.propertyType} onChange={set("propertyType")} />
          </div>
        )}
        {shows("propertyAddress") && (
          <>
            <div className="sm:col-span-2">
              <Field id="propertyAddress" label="Property address" required value={values.propertyAddress} error={errors.propertyAddress} onChange={set("propertyAddress")} autoComplete="street-address" hint={`Street, city, province and postal code, e.g. ${SAMPLE_ADDRESS_LINE}`} maxLength={300} />
            </div>
            <SelectField id="propertyType" label="Property type" required value={values.propertyType} options={propertyTypes} labels={TYPE_LABELS} error={errors.propertyType} onChange={set("propertyType")} />
            <Field id="propertySize" label="Property size (sq ft)" required inputMode="numeric" value={values.propertySize} error={errors.propertySize} onChange={set("propertySize")} />
            <Field id="yearBuilt" label="Year built" inputMode="numeric" value={values.yearBuilt} error={errors.yearBuilt} onChange={set("yearBuilt")} hint="Optional" />
          </>
        )}
        {shows("firstName") && (
          <>
            <Field id="firstName" label="First name" required autoComplete="given-name" value={values.firstName} error={errors.firstName} onChange={set("firstName")} />
            <Field id="lastName" label="Last name" required autoComplete="family-name" value={values.lastName} error={errors.lastName} onChange={set("lastName")} />
            <Field id="email" label="Email" type="email" required autoComplete="email" value={values.email} error={errors.email} onChange={set("email")} />
            <Field id="phone" label="Phone" type="tel" required autoComplete="tel" value={values.phone} error={errors.phone} onChange={set("phone")} />
          </>
        )}
        {shows("scheduledDate") && (
          <>
            <Field id="scheduledDate" label="Inspection date" type="date" required min={minDate} max={maxDate} value={values.scheduledDate} error={errors.scheduledDate} onChange={set("scheduledDate")} hint="At least 4 days from today." />
            <div className="field">
              <label htmlFor="timeSlot">
                Time <span aria-hidden="true">*</span>
              </label>
              <select id="timeSlot" name="timeSlot" value={values.timeSlot} onChange={(e) => set("timeSlot")(e.target.value)} aria-required aria-invalid={errors.timeSlot ? true : undefined} aria-describedby={errors.timeSlot ? "timeSlot-error" : undefined}>
                <option value="">Select a time…</option>
                {TIME_SLOTS.map((slot) => (
                  <option key={slot} value={slot}>
                    {slot}
                  </option>
                ))}
              </select>
              {errors.timeSlot && (
                <p id="timeSlot-error" className="field-error">
                  {errors.timeSlot}
                </p>
              )}
            </div>
            <div className="sm:col-span-2">
              <ChoiceCards
                name="accessMethod"
                legend="How will the inspector get in?"
                required
                value={values.accessMethod}
                error={errors.accessMethod}
                onChange={set("accessMethod")}
                options={ACCESS_METHODS.map((m) => ({ value: m, label: ACCESS_METHOD_LABELS[m]! }))}
              />
              {values.accessMethod === "meet-inspector" && <p className="mt-2 text-sm text-ink/75">Your inspector calls 15 to 30 minutes before arriving.</p>}
            </div>
            {needsAccess && (
              <>
                <Field id="accessCode" label="Access code" value={values.accessCode} error={errors.accessCode} onChange={set("accessCode")} autoComplete="off" hint="A code or instructions is required." maxLength={100} />
                <TextAreaField id="accessInstructions" label="Access instructions" value={values.accessInstructions} error={errors.accessInstructions} onChange={set("accessInstructions")} rows={2} maxLength={1000} />
              </>
            )}
            <div className="sm:col-span-2">
              <TextAreaField id="specialRequests" label="Special requests (optional)" value={values.specialRequests} error={errors.specialRequests} onChange={set("specialRequests")} maxLength={2000} />
            </div>
          </>
        )}
      </div>

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

function pick(prefill: WizardPrefill): Partial<Values> {
  const { customerId: _id, ...rest } = prefill;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v)) as Partial<Values>;
}
