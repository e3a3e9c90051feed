// Checkout shapes and the demo card rules without zod, so the payment and intake islands stay small
// (the JS budget in docs/architecture.md). checkout.schemas.ts re-exports all of it. Nothing from the server here.

export interface VerifyPaymentResponse {
  success: boolean;
  customer: { email: string | null; name: string | null };
  /** The home's postal code typed at checkout, so intake can prefill it (docs/decisions.md#32); null when unknown. */
  postalCode?: string | null;
  /** That postal code's province ("ON"). */
  province?: string | null;
}

/** The demo provider's test cards (same numbers as Stripe's test cards) and their decline reasons. */
export const DEMO_DECLINES: Record<string, string> = {
  "4000000000000002": "Your card was declined.",
  "4000000000009995": "Your card has insufficient funds.",
  "4000000000000069": "Your card has expired.",
};

export const digitsOnly = (value: string) => value.replace(/[\s-]/g, "");

/** The Luhn checksum every real card number passes. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** "MM / YY" (or MM/YY, MM/YYYY) → {month, year}, or null. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** A card is good through the last day of its expiry month. */
export function expiryInFuture(value: string, now = new Date()): boolean {
  const expiry = parseExpiry(value);
  if (!expiry) return false;
  const current = now.getFullYear() * 12 + now.getMonth() + 1;
  return expiry.year * 12 + expiry.month >= current;
}

export const DEMO_CUSTOMER = { email: "demo@example.com", name: "Demo Customer" } as const;

/** Which price a purchase was sold at (docs/decisions.md#23): /pricing's hosted checkout or /checkout's page. */
export type PriceList = "pricing" | "checkout";

/**
 * The customers module's refusal of a postal code, word for word (payments sits beside customers and may not import
 * it): a home's postal code that names no province is refused with it (docs/decisions.md#32).
 */
export const POSTAL_CODE_MESSAGE = "Enter a valid postal code, like K1S 2B4";

/** A Canadian postal code in any case, with one space, a dash or nothing in the middle (Canada Post's letters). */
const HOME_POSTAL_CODE = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z])[ -]?(\d[ABCEGHJ-NPRSTV-Z]\d)$/i;

/**
 * The same rule as an HTML `pattern` (anchored by the browser, spaces around allowed as homePostalCode trims them; the
 * `v` flag, so the hyphen is escaped; no `i` flag, so both cases): /pricing's field checks itself and its script
 * needs no copy of the rule (its 2 KB budget).
 */
export const HOME_POSTAL_CODE_PATTERN =
  "\\s*[ABCEGHJ-NPRSTVXYabceghj-nprstvxy]\\d[ABCEGHJ-NPRSTV-Zabceghj-nprstv-z][ \\-]?\\d[ABCEGHJ-NPRSTV-Zabceghj-nprstv-z]\\d\\s*";

/** 'k1s2b4' → 'K1S 2B4'; anything that is no Canadian postal code is null. */
export function homePostalCode(value: string): string | null {
  const match = HOME_POSTAL_CODE.exec(value.trim());
  return match ? `${match[1]} ${match[2]}`.toUpperCase() : null;
}

/** A price before tax, each tax and the total, as every pay button shows them (GET /api/checkout/quote). */
export interface TaxQuote {
  plan: string;
  priceList: PriceList;
  /** The home's postal code as stored ("K1S 2B4"), null when none was given (the business's province is used). */
  postalCode: string | null;
  province: string;
  subtotalCents: number;
  lines: { label: string; amountCents: number }[];
  taxCents: number;
  totalCents: number;
}

/**
 * A tax line's label ("HST 13%", "QST 9.975%", as src/modules/tax writes it) as the kind and rate a page names in its
 * own language (checkout.tax.line: "TVH 13 %"); null for a label of another shape, shown as it is.
 */
export function taxLineParts(label: string): { kind: string; rate: number } | null {
  const match = /^([A-Z]+) (\d+(?:\.\d+)?)%$/.exec(label);
  return match ? { kind: match[1]!, rate: Number(match[2]) } : null;
}
