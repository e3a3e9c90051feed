import { z } from "zod";
import { localeField } from "../../i18n/schemas.js";
import { isSingleLine, singleLineMessage } from "../../http/fields.js";
import { planTypeSchema } from "../plans/plans.schemas.js";
import { provinceOfPostalCode } from "../tax/index.js";
import {
  POSTAL_CODE_MESSAGE,
  digitsOnly,
  expiryInFuture,
  homePostalCode,
  luhnValid,
  parseExpiry,
} from "./checkout.constants.js";

// Checkout requests and the demo card form's schema. Nothing from the server here. The zod-free
// shapes and card rules live in checkout.constants.ts (for small islands) and are re-exported here.
export * from "./checkout.constants.js";

/**
 * The home's postal code: its province sets the tax (docs/decisions.md#32). Stored as 'K1S 2B4'; one that names no
 * province is refused with the customers module's message.
 */
export const homePostalCodeSchema = z
  .string({ message: POSTAL_CODE_MESSAGE })
  .max(20, POSTAL_CODE_MESSAGE)
  .transform((value, ctx) => {
    const code = homePostalCode(value);
    if (!code || !provinceOfPostalCode(code)) {
      ctx.addIssue({ code: "custom", message: POSTAL_CODE_MESSAGE });
      return z.NEVER;
    }
    return code;
  });

/** The spec's {planType}; the home's postal code comes with it from /pricing's field (absent: the business's province). */
export const checkoutSessionSchema = z.object({
  planType: planTypeSchema,
  postalCode: homePostalCodeSchema.optional(),
});

export const priceListSchema = z.enum(["pricing", "checkout"], { message: "Price list must be pricing or checkout" });

/** GET /api/checkout/quote: what a pay button will charge for this plan and home, before anything is created. */
export const taxQuoteQuery = z.object({
  plan: planTypeSchema,
  priceList: priceListSchema.default("checkout"),
  postalCode: homePostalCodeSchema.optional(),
});

/** Provider ids are opaque tokens: Stripe's (cs_…, pi_…) or the demo provider's (demo_…). */
export const providerIdSchema = z
  .string({ message: "Session id is required" })
  .trim()
  .min(1, "Session id is required")
  .max(255, "Session id is too long")
  .regex(/^[A-Za-z0-9_]+$/, "Session id is not valid");

export const verifyPaymentQuery = z.object({ session_id: providerIdSchema });

/**
 * The spec's {amount, plan}: the amount is the plan's price before tax. The payment page sends the payer and the
 * home's postal code with it on submit (docs/decisions.md#32): nothing is created before then.
 */
export const paymentIntentSchema = z.object({
  amount: z.number({ message: "Amount must be a number" }).positive("Amount must be greater than 0"),
  plan: planTypeSchema,
  postalCode: homePostalCodeSchema.optional(),
  /** The payment page's language (docs/decisions.md#65). */
  locale: localeField.optional(),
  email: z.string().trim().email("Enter a valid email address").max(254).optional(),
  name: z
    .string()
    .trim()
    .max(120, "Name must be at most 120 characters")
    .refine(isSingleLine, singleLineMessage("Name on card"))
    .optional(),
});

/** The demo card form, checked the same way in the browser and on the server. */
export const demoCardSchema = z.object({
  name: z
    .string({ message: "Name on card is required" })
    .trim()
    .min(1, "Name on card is required")
    .max(120, "Name must be at most 120 characters")
    .refine(isSingleLine, singleLineMessage("Name on card")),
  email: z
    .string({ message: "Email is required" })
    .trim()
    .min(1, "Email is required")
    .email("Enter a valid email address")
    .max(254),
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
  cvc: z
    .string({ message: "CVC is required" })
    .trim()
    .min(1, "CVC is required")
    .regex(/^\d{3,4}$/, "Your card's security code is invalid."),
});
export type DemoCard = z.infer<typeof demoCardSchema>;

/** A demo payment intent's secret (/checkout) or a demo checkout session's (/demo-checkout/:id). */
export const demoConfirmSchema = demoCardSchema.extend({
  clientSecret: z
    .string({ message: "Client secret is required" })
    .regex(/^demo_(pi|cs)_[a-f0-9]+_secret_[a-f0-9]+$/, "Client secret is not valid"),
});

/** The demo hosted checkout's path: a session id the demo provider issued. */
export const demoSessionParams = z.object({
  sessionId: z.string().regex(/^demo_cs_[a-f0-9]{24}$/, "Checkout session id is not valid"),
});
