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
import { intlLocale } from "../../src/i18n/locales";
import type { VerifyPaymentResponse } from "../../src/modules/payments/checkout.schemas";
import { Field, SelectField } from "../checkout/fields";
import { ApiError, apiRequest } from "../ui/api";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { useData, useSubmission } from "../ui/data";
import { toast } from "../ui/toast";
import { intakeErrors } from "./intake-checks";

interface Props {
  sessionId: string;
  plan: string;
  demo: boolean;
  customerName: string;
  customerEmail: string;
  /** The `intake` and `forms` namespaces in the page's language (docs/decisions.md#64). */
  i18n: IslandMessages;
  /** /pricing and /schedule-inspection in the page's language (from the server: no address code in this bundle). */
  paths: { pricing: string; schedule: string };
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

/** Each choice in words (intake.option.*); a count ("1", "2", "4+") stays as it is. */
const labelsFor = (t: IslandT, values: readonly string[]) =>
  Object.fromEntries(values.map((v) => [v, /^\d/.test(v) && v !== "3" ? v : t(`intake.option.${v}`)]));

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

/** The customer is stored with the page's language (docs/decisions.md#65): their e-mails follow it. */
function payloadOf(values: Values, stripeSessionId: string, planType: string, locale: "en-CA" | "fr-CA") {
  const { name, email, phone, ...property } = values;
  return { stripeSessionId, planType, name, email, phone, property, locale };
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

export default function PropertyIntake({ sessionId, plan, demo, customerName, customerEmail, i18n, paths }: Props) {
  const t = useMemo(() => islandTranslator(i18n), [i18n]);
  const locale = intlLocale(t.locale);
  const stripeSessionId = useMemo(() => sessionId || demoSessionId(plan), [sessionId, plan]);
  const [values, setValues] = useState<Values>({ ...EMPTY, name: customerName, email: customerEmail });
  const [errors, setErrors] = useState<Errors>({});
  const [saved, setSaved] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  // Verify the payment when there is a session to verify (a bare demo visit has none).
  const verification = useData<VerifyPaymentResponse>(
    sessionId ? `/api/verify-payment?session_id=${encodeURIComponent(sessionId)}` : null,
  );

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
        title: t("intake.toast.unverified"),
        description: t("intake.toast.unverifiedHelp"),
        variant: "destructive",
      });
      const timer = setTimeout(() => window.location.assign(paths.pricing), 2500);
      return () => clearTimeout(timer);
    }
  }, [verification.data, t, paths]);

  useEffect(() => {
    if (verification.error)
      toast({ title: t("intake.toast.error"), description: t("intake.toast.verifyFailed"), variant: "destructive" });
  }, [verification.error, t]);

  const save = useSubmission(
    (payload: ReturnType<typeof payloadOf>) => apiRequest<{ id: number }>("POST", "/api/customers", payload),
    {
      onSuccess: ({ id }) => {
        setSaved(true);
        toast({ title: t("intake.toast.saved"), description: t("intake.toast.redirecting") });
        const next = `${paths.schedule}?customer_id=${id}&plan=${encodeURIComponent(plan)}`;
        setTimeout(() => window.location.assign(next), REDIRECT_DELAY);
      },
      onError: (error) => {
        // 400: bad fields; 409: the paid session already belongs to another e-mail. Both name their fields.
        if (error instanceof ApiError && (error.status === 400 || error.status === 409))
          showErrors(toErrors(error.fields));
        toast({ title: t("intake.toast.error"), description: t("intake.toast.saveFailed"), variant: "destructive" });
      },
    },
  );

  const showErrors = (next: Errors) => {
    setErrors(next);
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus());
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Light checks first (required and number fields); the server checks everything again.
    const problems = intakeErrors(t, values);
    if (Object.keys(problems).length) return showErrors(problems);
    setErrors({});
    void save.mutate(payloadOf(values, stripeSessionId, plan, locale));
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
        {t("intake.verifying")}
      </div>
    );
  }

  if (verification.data && !verification.data.success) {
    return (
      <p className="card mt-6" role="status">
        {t("intake.notConfirmed")}
      </p>
    );
  }

  const pending = save.isPending || saved;
  const emailKnown =
    Boolean(values.email) && (demo || Boolean(customerEmail) || Boolean(verification.data?.customer.email));

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="mt-6 space-y-6" data-testid="intake-form">
      <ContactSection t={t} field={field} emailKnown={emailKnown} />
      <AddressSection t={t} field={field} />
      <DetailsSection t={t} field={field} />
      <SystemsSection t={t} field={field} />

      <button type="submit" className="btn btn-gold btn-lg w-full sm:w-auto" disabled={pending}>
        {pending ? t("intake.saving") : t("intake.submit")}
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
  t: IslandT;
  field: (key: Key) => FieldBinding;
}

function ContactSection({ t, field, emailKnown }: SectionProps & { emailKnown: boolean }) {
  return (
    <Section title={t("intake.section.contact")}>
      <Field label={t("intake.field.name")} autoComplete="name" required {...field("name")} />
      <Field
        label={t("intake.field.email")}
        type="email"
        autoComplete="email"
        readOnly={emailKnown}
        hint={emailKnown ? t("intake.field.emailKnown") : undefined}
        required
        {...field("email")}
      />
      <Field label={t("intake.field.phone")} type="tel" autoComplete="tel" required {...field("phone")} />
    </Section>
  );
}

/** The provinces in the page's language; the US states by their own names. */
function regionNames(t: IslandT): Record<string, string> {
  const names = { ...REGION_NAMES };
  for (const code of REGION_GROUPS[0]!.options) names[code] = t(`intake.province.${code}`);
  return names;
}

function AddressSection({ t, field }: SectionProps) {
  const groups = [
    { ...REGION_GROUPS[0]!, label: t("intake.region.canada") },
    { ...REGION_GROUPS[1]!, label: t("intake.region.us") },
  ];
  return (
    <Section title={t("intake.section.address")}>
      <div className="sm:col-span-2">
        <Field label={t("intake.field.address")} autoComplete="street-address" required {...field("address")} />
      </div>
      <Field label={t("intake.field.city")} autoComplete="address-level2" required {...field("city")} />
      {/* Canadian first (docs/decisions.md#31): the provinces, then the spec's US states; the API keeps state/zipCode. */}
      <SelectField
        label={t("intake.field.province")}
        options={REGIONS}
        groups={groups}
        labels={regionNames(t)}
        emptyLabel={t("forms.select")}
        required
        {...field("state")}
      />
      <Field
        label={t("intake.field.postalCode")}
        autoComplete="postal-code"
        placeholder={SAMPLE_POSTAL_CODE}
        hint={t("intake.field.postalCodeHint")}
        required
        {...field("zipCode")}
      />
    </Section>
  );
}

function DetailsSection({ t, field }: SectionProps) {
  const skip = t("forms.skip");
  return (
    <Section title={t("intake.section.details")}>
      <Field label={t("intake.field.squareFootage")} inputMode="numeric" required {...field("squareFootage")} />
      <Field label={t("intake.field.yearBuilt")} inputMode="numeric" required {...field("yearBuilt")} />
      <SelectField
        label={t("intake.field.bedrooms")}
        options={BEDROOMS_FORM}
        emptyLabel={skip}
        {...field("bedrooms")}
      />
      <SelectField
        label={t("intake.field.bathrooms")}
        options={BATHROOMS_FORM}
        emptyLabel={skip}
        {...field("bathrooms")}
      />
      <SelectField
        label={t("intake.field.stories")}
        options={STORIES}
        labels={labelsFor(t, STORIES)}
        emptyLabel={skip}
        {...field("stories")}
      />
    </Section>
  );
}

function SystemsSection({ t, field }: SectionProps) {
  const notes = field("notes");
  const skip = t("forms.skip");
  const choice = (key: Key, label: string, options: readonly string[]) => (
    <SelectField label={t(label)} options={options} labels={labelsFor(t, options)} emptyLabel={skip} {...field(key)} />
  );
  return (
    <Section title={t("intake.section.systems")}>
      {choice("hvacUnits", "intake.field.hvacUnits", HVAC_UNITS)}
      {choice("electricalPanels", "intake.field.electricalPanels", ELECTRICAL_PANELS)}
      <Field
        label={t("intake.field.plumbingSystems")}
        placeholder={t("intake.field.plumbingPlaceholder")}
        {...field("plumbingSystems")}
      />
      {choice("roofType", "intake.field.roofType", ROOF_TYPES)}
      {choice("heatingType", "intake.field.heatingType", HEATING_TYPES)}
      {choice("coolingType", "intake.field.coolingType", COOLING_TYPES)}
      {choice("waterHeaterType", "intake.field.waterHeaterType", WATER_HEATER_TYPES)}
      <Field
        label={t("intake.field.foundationType")}
        placeholder={t("intake.field.foundationPlaceholder")}
        {...field("foundationType")}
      />
      <div className="field sm:col-span-2">
        <label htmlFor="intake-notes">{t("intake.field.notes")}</label>
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
