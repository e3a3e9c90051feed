import { z } from "zod";
import { planTypeSchema } from "./plans.schemas.js";

// Checkout requests and the demo card rules. Imported by islands too: nothing from the server here.

export const checkoutSessionSchema = z.object({ planType: planTypeSchema });

/** Provider ids are opaque tokens: Stripe's (cs_…, pi_…) or the demo provider's (demo_…). */
export const providerIdSchema = z
  .string({ message: "Session id is required" })
  .trim()
  .min(1, "Session id is required")
  .max(255, "Session id is too long")
  .regex(/^[A-Za-z0-9_]+$/, "Session id is not valid");

export const verifyPaymentQuery = z.object({ session_id: providerIdSchema });

export const paymentIntentSchema = z.object({
  amount: z.number({ message: "Amount must be a number" }).positive("Amount must be greater than 0"),
  plan: planTypeSchema,
});

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

/** The demo card form, checked the same way in the browser and on the server. */
export const demoCardSchema = z.object({
  name: z.string({ message: "Name on card is required" }).trim().min(1, "Name on card is required").max(120, "Name must be at most 120 characters"),
  email: z.string({ message: "Email is required" }).trim().min(1, "Email is required").email("Enter a valid email address").max(254),
  cardNumber: z
    .string({ message: "Card number is required" })
    .transform(digitsOnly)
    .pipe(z.string().min(1, "Card number is required").refine(luhnValid, "Your card number is invalid.")),
  expiry: z
    .string({ message: "Expiry date is required" })
    .trim()
    .min(1, "Expiry date is required")
    .refine((v) => parseExpiry(v) !== null, "Enter the expiry date as MM / YY.")
    .refine((v) => parseExpiry(v) === null || expiryInFuture(v), "Your card's expiration date is in the past."),
  cvc: z.string({ message: "CVC is required" }).trim().min(1, "CVC is required").regex(/^\d{3,4}$/, "Your card's security code is invalid."),
});
export type DemoCard = z.infer<typeof demoCardSchema>;

export const demoConfirmSchema = demoCardSchema.extend({
  clientSecret: z.string({ message: "Client secret is required" }).regex(/^demo_pi_[a-f0-9]+_secret_[a-f0-9]+$/, "Client secret is not valid"),
});

export const DEMO_CUSTOMER = { email: "demo@example.com", name: "Demo Customer" } as const;
