// Light client-side checks with the server's messages. The server (zod) decides; these only help,
// and keep zod out of the island bundles. Messages come from the `forms` namespace in the page's language
// (docs/decisions.md#64): English is the server's text word for word.
/** The translator a check names its messages with: an island's `t`, given the `forms` namespace. */
export type CheckT = (key: string, values?: Record<string, string | number>) => string;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[+(\d][\d\s().-]{6,}$/;

export const emailError = (t: CheckT, v: string) => (v.trim() && !EMAIL.test(v.trim()) ? t("forms.email") : undefined);
export const phoneError = (t: CheckT, v: string) => (v.trim() && !PHONE.test(v.trim()) ? t("forms.phone") : undefined);
export const requiredError = (t: CheckT, field: string) => t("forms.required", { field });

/** A whole number within bounds, when given. */
export function numberError(t: CheckT, field: string, v: string, min: number, max: number): string | undefined {
  if (!v.trim()) return undefined;
  const n = Number(v.trim().replace(/,/g, ""));
  if (!Number.isFinite(n)) return t("forms.number.nan", { field });
  if (!Number.isInteger(n)) return t("forms.number.whole", { field });
  // As strings: the server's message writes the bound without grouping ("100000").
  if (n < min) return t("forms.number.min", { field, min: String(min) });
  if (n > max) return t("forms.number.max", { field, max: String(max) });
  return undefined;
}

/** A 'YYYY-MM-DD' date at least 4 days ahead (minDate) and within the server's window. */
export function leadDateError(
  t: CheckT,
  field: string,
  v: string,
  minDate: string,
  maxDate: string,
): string | undefined {
  if (!v) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return t("forms.date.format", { field });
  if (v < minDate) return t("forms.date.lead");
  if (v > maxDate) return t("forms.date.max", { field });
  return undefined;
}

export const nextYear = () => new Date().getFullYear() + 1;
