import type { ReactNode } from "react";
import { CONFIRMATION_STORAGE_KEY, type ConfirmationRecord } from "../../src/modules/bookings/bookings.constants";

/** Writes the record the confirmation page reads once (customer-side §2.11). */
export function saveConfirmation(record: ConfirmationRecord): void {
  sessionStorage.setItem(CONFIRMATION_STORAGE_KEY, JSON.stringify(record));
}

interface TextAreaProps {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  rows?: number;
  maxLength?: number;
  onChange: (value: string) => void;
}

export function TextAreaField({ id, label, value, error, hint, rows = 3, maxLength, onChange }: TextAreaProps) {
  const described = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={id}
        rows={rows}
        maxLength={maxLength}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
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

interface ChoiceProps {
  name: string;
  legend: string;
  value: string;
  options: readonly { value: string; label: string; detail?: string }[];
  error?: string;
  required?: boolean;
  columns?: string;
  onChange: (value: string) => void;
}

/** A radio group drawn as cards; arrow keys move between them as in any radio group. */
export function ChoiceCards({
  name,
  legend,
  value,
  options,
  error,
  required,
  columns = "sm:grid-cols-3",
  onChange,
}: ChoiceProps) {
  return (
    <fieldset
      className="choice-group"
      aria-describedby={error ? `${name}-error` : undefined}
      aria-invalid={error ? true : undefined}
    >
      <legend className="mb-2 font-semibold">
        {legend}
        {required && <span aria-hidden="true"> *</span>}
      </legend>
      <div className={`grid gap-2 ${columns}`}>
        {options.map((option) => (
          <label key={option.value} className="choice-card" data-checked={value === option.value}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              className="sr-only"
            />
            <span className="font-semibold">{option.label}</span>
            {option.detail && <span className="text-sm text-ink/75">{option.detail}</span>}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${name}-error`} className="field-error mt-1">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Focuses a field by its id, or the first control of its radio group (checked one first). */
export function focusField(root: ParentNode | null, key: string): boolean {
  if (!root) return false;
  const target =
    root.querySelector<HTMLElement>(`#${CSS.escape(key)}`) ??
    root.querySelector<HTMLElement>(`[name="${CSS.escape(key)}"]:checked`) ??
    root.querySelector<HTMLElement>(`[name="${CSS.escape(key)}"]`);
  target?.focus();
  return Boolean(target);
}

export function Spinner({ label }: { label: string }): ReactNode {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-16 text-ink/80">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** The round check mark above a confirmation (a booked inspection, a completed onboarding). */
export function ConfirmBadge(): ReactNode {
  return (
    <span className="confirm-badge" aria-hidden="true">
      <svg viewBox="0 0 24 24" className="h-8 w-8">
        <path
          d="M5 12.5l4.5 4.5L19 7.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </span>
  );
}
