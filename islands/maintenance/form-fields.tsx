// The labelled fields of the calendar's dialogs and filters: each input's id is `${prefix}-${name}`, its message
// sits under it and is tied to it (field-errors.tsx), so every form row is written once.
import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import { fieldErrors } from "./field-errors";
import type { FieldSetter, Fields } from "./types";

/** One field of a form, bound: what its input needs, and its message when it has one. */
export interface BoundField {
  id: string;
  value: string;
  onChange: (e: { target: { value: string } }) => void;
  invalid: Record<string, unknown>;
  error: ReactNode;
}

/**
 * Binds a form's text values to its inputs. `field(name)` shows the field's message; `field(name, false)` leaves
 * it out, for a field that the form never marks.
 */
export function bindFields<K extends string>(
  prefix: string,
  form: Record<K, string>,
  set: FieldSetter<K>,
  errors: Fields = {},
) {
  const { error, invalid } = fieldErrors(errors, prefix);
  return (name: K, marked = true): BoundField => ({
    id: `${prefix}-${name}`,
    value: form[name],
    onChange: set(name),
    invalid: marked ? invalid(name) : {},
    error: marked ? error(name) : null,
  });
}

/** A whole number of at least 1 (an interval, a duration in minutes). */
export const WHOLE_NUMBER = { type: "number", min: 1, step: 1, inputMode: "numeric" } as const;

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">;

export function InputField({ label, field, ...input }: { label: string; field: BoundField } & InputProps) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <input id={field.id} value={field.value} onChange={field.onChange} {...input} {...field.invalid} />
      {field.error}
    </div>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "value" | "onChange">;

export function TextAreaField({ label, field, ...area }: { label: string; field: BoundField } & TextAreaProps) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <textarea id={field.id} value={field.value} onChange={field.onChange} {...area} {...field.invalid} />
      {field.error}
    </div>
  );
}

/** A labelled select of `[value, label]` options; `empty` labels a first choice of "" (none, any). */
export function SelectField({
  label,
  field,
  options,
  empty,
}: {
  label: string;
  field: BoundField;
  options: readonly (readonly [string, string])[];
  empty?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select id={field.id} value={field.value} onChange={field.onChange} {...field.invalid}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
      {field.error}
    </div>
  );
}
