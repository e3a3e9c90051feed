import type { InputHTMLAttributes } from "react";
import type { IslandT } from "../ui/i18n";

/** sessionStorage key: the payer's name and e-mail, carried from /checkout to the property form. */
export const CHECKOUT_CUSTOMER_KEY = "havenCheckoutCustomer";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id">;

interface FieldProps extends InputProps {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onChange: (value: string) => void;
}

/** A labelled input whose error is announced and tied to it (the app.css .field pattern). */
export function Field({ id, label, value, error, hint, onChange, required, ...input }: FieldProps) {
  const described = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        aria-required={required || undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-ink/70">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

interface SelectProps {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  labels?: Record<string, string>;
  /** Named groups of the options (an `<optgroup>` each); options in no group are listed first. */
  groups?: { label: string; options: readonly string[] }[];
  error?: string;
  required?: boolean;
  /** The empty option's words in the page's language (forms.select / forms.skip); English when not given. */
  emptyLabel?: string;
  onChange: (value: string) => void;
}

export function SelectField({
  id,
  label,
  value,
  options,
  labels = {},
  groups = [],
  error,
  required,
  emptyLabel,
  onChange,
}: SelectProps) {
  const grouped = new Set(groups.flatMap((group) => group.options));
  const optionOf = (option: string) => (
    <option key={option} value={option}>
      {labels[option] ?? option}
    </option>
  );
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <select
        id={id}
        name={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        aria-required={required || undefined}
      >
        <option value="">{emptyLabel ?? (required ? "Select…" : "Not sure / skip")}</option>
        {options.filter((option) => !grouped.has(option)).map(optionOf)}
        {groups.map((group) => (
          <optgroup key={group.label} label={group.label}>
            {group.options.map(optionOf)}
          </optgroup>
        ))}
      </select>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * "Fields marked * are required.": one message (forms.requiredNote) whose {mark} is the asterisk, hidden from screen
 * readers, with its words ("with an asterisk") for them.
 */
export function RequiredNote({ t }: { t: IslandT }) {
  const [before, after] = t("forms.requiredNote", { mark: "\uE000" }).split("\uE000");
  return (
    <>
      {before}
      <span aria-hidden="true">*</span>
      <span className="sr-only">{t("forms.requiredMark")}</span>
      {after}
    </>
  );
}
