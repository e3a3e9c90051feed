// Light client-side checks with the server's messages. The server (zod) decides; these only help,
// and keep zod out of the island bundles.
import { LEAD_MESSAGE } from "../../src/modules/bookings/bookings.constants";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[+(\d][\d\s().-]{6,}$/;

export const emailError = (v: string) =>
  v.trim() && !EMAIL.test(v.trim()) ? "Enter a valid email address" : undefined;
export const phoneError = (v: string) => (v.trim() && !PHONE.test(v.trim()) ? "Enter a valid phone number" : undefined);

/** A whole number within bounds, when given. */
export function numberError(label: string, v: string, min: number, max: number): string | undefined {
  if (!v.trim()) return undefined;
  const n = Number(v.trim().replace(/,/g, ""));
  if (!Number.isFinite(n)) return `${label} must be a number`;
  if (!Number.isInteger(n)) return `${label} must be a whole number`;
  if (n < min) return `${label} must be at least ${min}`;
  if (n > max) return `${label} must be at most ${max}`;
  return undefined;
}

/** A 'YYYY-MM-DD' date at least 4 days ahead (minDate) and within the server's window. */
export function leadDateError(label: string, v: string, minDate: string, maxDate: string): string | undefined {
  if (!v) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return `${label} must be a date (YYYY-MM-DD)`;
  if (v < minDate) return LEAD_MESSAGE;
  if (v > maxDate) return `${label} must be within a year from today`;
  return undefined;
}

export const nextYear = () => new Date().getFullYear() + 1;
