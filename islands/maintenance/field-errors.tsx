import type { Fields } from "./types";

/**
 * A dialog form's error helpers, its inputs' ids being `${prefix}-${key}`: the message under a field, and the
 * attributes that tie it to its input.
 */
export function fieldErrors(errors: Fields, prefix: string) {
  return {
    error: (key: string) =>
      errors[key] ? (
        <p id={`${prefix}-${key}-error`} className="field-error">
          {errors[key]}
        </p>
      ) : null,
    invalid: (key: string) =>
      errors[key] ? { "aria-invalid": true, "aria-describedby": `${prefix}-${key}-error` } : {},
  };
}
