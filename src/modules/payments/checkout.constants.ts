// Checkout shapes and the demo card rules without zod, so the payment and intake islands stay small
// (the JS budget in docs/architecture.md). checkout.schemas.ts re-exports all of it. Nothing from the server here.

export interface VerifyPaymentResponse {
  success: boolean;
  customer: { email: string | null; name: string | null };
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
