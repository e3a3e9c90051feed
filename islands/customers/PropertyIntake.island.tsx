import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import {
  BATHROOMS_FORM,
  BEDROOMS_FORM,
  COOLING_TYPES,
  ELECTRICAL_PANELS,
  HEATING_TYPES,
  HVAC_UNITS,
  REGION_GROUPS,
  REGION_NAMES,
  REGIONS,
  ROOF_TYPES,
  SAMPLE_POSTAL_CODE,
  STORIES,
  WATER_HEATER_TYPES,
} from "../../src/modules/customers/customers.constants";
import type { VerifyPaymentResponse } from "../../src/modules/payments/checkout.schemas";
import { Field, SelectField } from "../checkout/fields";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";
import { intakeErrors } from "./intake-checks";

/** This island uses react-query: the loader wraps it in the query provider (islands/main.ts). */
export const queries = true;

interface Props {
  sessionId: string;
  plan: string;
  demo: boolean;
  customerName: string;
  customerEmail: string;
}

const EMPTY = {
  name: "",
  email: "",
  phone: "",
  address: "",
  city: "",
  state: "",
  zipCode: "",
  squareFootage: "",
  yearBuilt: "",
  bedrooms: "",
  bathrooms: "",
  stories: "",
  hvacUnits: "",
  electricalPanels: "",
  plumbingSystems: "",
  roofType: "",
  heatingType: "",
  coolingType: "",
  waterHeaterType: "",
  foundationType: "",
  notes: "",
};
type Values = typeof EMPTY;
type Key = keyof Values;
type Errors = Partial<Record<Key, string>>;

const LABELS: Record<string, string> = {
  "3": "3+",
  "central-ac": "Central AC",
  "heat-pump": "Heat pump",
  "mini-split": "Mini-split",
  unknown: "Not sure",
  multiple: "Multiple",
};
const labelsFor = (values: readonly string[]) =>
  Object.fromEntries(values.map((v) => [v, LABELS[v] ?? v.charAt(0).toUpperCase() + v.slice(1).replace(/-/g, " ")]));

const REDIRECT_DELAY = 1500;

/** A visitor who came with only demo and plan gets the spec's fake session id, kept for retries. */
function demoSessionId(plan: string): string {
  const key = `havenDemoSession:${plan}`;
  const existing = sessionStorage.getItem(key);
  if (existing) return existing;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const id = `demo_session_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  sessionStorage.setItem(key, id);
  return id;
}

function payloadOf(values: Values, stripeSessionId: string, planType: string) {
  const { name, email, phone, ...property } = values;
  return { stripeSessionId, planType, name, email, phone, property };
}

/** Maps the API's field paths ("property.city") onto the form's keys ("city"). */
function toErrors(fields: Record<string, string>): Errors {
  const errors: Errors = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = path.split(".").pop() as Key;
    if (key in EMPTY) errors[key] ??= message;
  }
  return errors;
}

export default function PropertyIntake({ sessionId, plan, demo, customerName, customerEmail }: Props) {
  const stripeSessionId = useMemo(() => sessionId || demoSessionId(plan), [sessionId, plan]);
  const [values, setValues] = useState<Values>({ ...EMPTY, name: customerName, email: customerEmail });
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Verify the payment when there is a session to verify (a bare demo visit has none).
  const verification = useQuery<VerifyPaymentResponse>({
    queryKey: [`/api/verify-payment?session_id=${encodeURIComponent(sessionId)}`],
    enabled: Boolean(sessionId),
  });

  useEffect(() => {
    if (verification.data?.success) {
      const { email, name } = verification.data.customer;
      // The home's postal code typed at checkout, and its province (docs/decisions.md#32): prefilled, still editable.
      const { postalCode, province } = verification.data;
      setValues((v) => ({
        ...v,
        email: email || v.email,
        name: v.name || name || "",
        zipCode: v.zipCode || postalCode || "",
        state: v.state || province || "",
      }));
    } else if (verification.data) {
      toast({
        title: "Payment Verification Failed",
        description: "Please contact support if you believe this is an error.",
        variant: "destructive",
      });
      const timer = setTimeout(() => window.location.assign("/pricing"), 2500);
      return () => clearTimeout(timer);
    }
  }, [verification.data]);

  useEffect(() => {
    if (verification.error)
      toast({ title: "Error", description: "Unable to verify payment. Please try again.", variant: "destructive" });
  }, [verification.error]);

  const save = useMutation({
    mutationFn: (payload: ReturnType<typeof payloadOf>) =>
      apiRequest<{ id: number }>("POST", "/api/customers", payload),
    onSuccess: ({ id }) => {
      setSaved(true);
      toast({ title: "Property Information Saved", description: "Redirecting to schedule your inspection..." });
      setTimeout(
        () => window.location.assign(`/schedule-inspection?customer_id=${id}&plan=${encodeURIComponent(plan)}`),
        REDIRECT_DELAY,
      );
    },
    onError: (error) => {
      // 400: bad fields; 409: the paid session already belongs to another e-mail. Both name their fields.
      if (error instanceof ApiError && (error.status === 400 || error.status === 409))
        showErrors(toErrors(error.fields));
      toast({
        title: "Error",
        description: "Failed to save property information. Please try again.",
        variant: "destructive",
      });
    },
  });

  const showErrors = (next: Errors) => {
    setErrors(next);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Light checks first (required and number fields); the server checks everything again.
    const problems = intakeErrors(values);
    if (Object.keys(problems).length) return showErrors(problems);
    setErrors({});
    save.mutate(payloadOf(values, stripeSessionId, plan));
  };

  const set = (key: Key) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const field = (key: Key) => ({ id: `intake-${key}`, value: values[key], error: errors[key], onChange: set(key) });

  if (sessionId && verification.isPending) {
    return (
      <div className="card mt-6 flex items-center gap-3" role="status">
        <span
          className="h-5 w-5 animate-spin rounded-full border-2 border-green-900 border-t-transparent"
          aria-hidden="true"
        />
        Verifying your payment…
      </div>
    );
  }

  if (verification.data && !verification.data.success) {
    return (
      <p className="card mt-6" role="status">
        We could not confirm this payment. Taking you back to pricing…
      </p>
    );
  }

  const pending = save.isPending || saved;
  const emailKnown =
    Boolean(values.email) && (demo || Boolean(customerEmail) || Boolean(verification.data?.customer.email));

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-6 space-y-6" data-testid="intake-form">
      <ContactSection field={field} emailKnown={emailKnown} />
      <AddressSection field={field} />
      <DetailsSection field={field} />
      <SystemsSection field={field} />

      <button type="submit" className="btn btn-gold btn-lg w-full sm:w-auto" disabled={pending}>
        {pending ? "Saving..." : "Save and Schedule Inspection"}
      </button>
    </form>
  );
}

/** A titled group of fields; the legend names the group for screen readers. */
function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="card">
      <legend className="float-left mb-4 w-full text-lg font-bold text-green-900">{title}</legend>
      <div className="clear-both grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

/** What a field needs from the form: its id, value, error and change handler. */
interface FieldBinding {
  id: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
}

interface SectionProps {
  field: (key: Key) => FieldBinding;
}

function ContactSection({ field, emailKnown }: SectionProps & { emailKnown: boolean }) {
  return (
    <Section title="Contact information">
      <Field label="Full name" autoComplete="name" required {...field("name")} />
      <Field
        label="Email"
        type="email"
        autoComplete="email"
        readOnly={emailKnown}
        hint={emailKnown ? "From your payment; it cannot be changed here." : undefined}
        required
        {...field("email")}
      />
      <Field label="Phone" type="tel" autoComplete="tel" required {...field("phone")} />
    </Section>
  );
}

function AddressSection({ field }: SectionProps) {
  return (
    <Section title="Property address">
      <div className="sm:col-span-2">
        <Field label="Street address" autoComplete="street-address" required {...field("address")} />
      </div>
      <Field label="City" autoComplete="address-level2" required {...field("city")} />
      {/* Canadian first (docs/decisions.md#31): the provinces, then the spec's US states; the API keeps state/zipCode. */}
      <SelectField
        label="Province"
        options={REGIONS}
        groups={REGION_GROUPS}
        labels={REGION_NAMES}
        required
        {...field("state")}
      />
      <Field
        label="Postal code"
        autoComplete="postal-code"
        placeholder={SAMPLE_POSTAL_CODE}
        hint="A Canadian postal code (or a US ZIP code)"
        required
        {...field("zipCode")}
      />
    </Section>
  );
}

function DetailsSection({ field }: SectionProps) {
  return (
    <Section title="Property details">
      <Field label="Square footage" inputMode="numeric" required {...field("squareFootage")} />
      <Field label="Year built" inputMode="numeric" required {...field("yearBuilt")} />
      <SelectField label="Bedrooms" options={BEDROOMS_FORM} {...field("bedrooms")} />
      <SelectField label="Bathrooms" options={BATHROOMS_FORM} {...field("bathrooms")} />
      <SelectField label="Stories" options={STORIES} labels={labelsFor(STORIES)} {...field("stories")} />
    </Section>
  );
}

function SystemsSection({ field }: SectionProps) {
  const notes = field("notes");
  return (
    <Section title="Home systems">
      <SelectField label="HVAC units" options={HVAC_UNITS} labels={labelsFor(HVAC_UNITS)} {...field("hvacUnits")} />
      <SelectField
        label="Electrical panels"
        options={ELECTRICAL_PANELS}
        labels={labelsFor(ELECTRICAL_PANELS)}
        {...field("electricalPanels")}
      />
      <Field label="Plumbing systems" placeholder="e.g. copper, PEX, municipal water" {...field("plumbingSystems")} />
      <SelectField label="Roof type" options={ROOF_TYPES} labels={labelsFor(ROOF_TYPES)} {...field("roofType")} />
      <SelectField
        label="Heating type"
        options={HEATING_TYPES}
        labels={labelsFor(HEATING_TYPES)}
        {...field("heatingType")}
      />
      <SelectField
        label="Cooling type"
        options={COOLING_TYPES}
        labels={labelsFor(COOLING_TYPES)}
        {...field("coolingType")}
      />
      <SelectField
        label="Water heater type"
        options={WATER_HEATER_TYPES}
        labels={labelsFor(WATER_HEATER_TYPES)}
        {...field("waterHeaterType")}
      />
      <Field label="Foundation type" placeholder="e.g. poured concrete, block" {...field("foundationType")} />
      <div className="field sm:col-span-2">
        <label htmlFor="intake-notes">Notes for your inspector</label>
        <textarea
          id="intake-notes"
          rows={3}
          value={notes.value}
          onChange={(e) => notes.onChange(e.target.value)}
          aria-invalid={notes.error ? true : undefined}
          aria-describedby={notes.error ? "intake-notes-error" : undefined}
        />
        {notes.error && (
          <p id="intake-notes-error" className="field-error">
            {notes.error}
          </p>
        )}
      </div>
    </Section>
  );
}
