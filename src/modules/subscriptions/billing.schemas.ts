// The customer's billing page and its JSON calls (issue 19, items 4 and 6): input and answer shapes.
import { z } from "zod";
import { multiLineText } from "../../http/fields.js";
import { demoCardSchema } from "../plans/checkout.schemas.js";

/** The signed billing token in the path: checked by billing-links.ts, only its size here. */
export const billingTokenParams = z.object({ token: z.string().max(200) });

/** An empty form field is "not given". */
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** POST /api/billing/{token}/cancel. A customer cancels at the end of the period only, never at once. */
export const customerCancelSchema = z.object({
  when: z.literal("period_end", { message: "A customer's cancellation takes effect at the end of the period: when must be period_end" }).optional(),
  reason: z.preprocess(blankIsAbsent, multiLineText("Reason", 1000).nullish()),
});
export type CustomerCancelInput = z.infer<typeof customerCancelSchema>;

const { cardNumber, expiry, cvc } = demoCardSchema.shape;

/** POST /api/billing/{token}/card (demo mode): the card number decides; expiry and CVC are checked when sent. */
export const demoCardUpdateSchema = z.object({ cardNumber, expiry: expiry.optional(), cvc: cvc.optional() });

/** The demo card page's form: every field of a card, as the checkout's card form asks. */
export const demoCardFormSchema = z.object({ cardNumber, expiry, cvc });

/** POST /api/billing/{token}/portal (Stripe): the portal's card flow, or its home page. */
export const portalSchema = z.object({
  flow: z.enum(["card", "manage"], { message: "Flow must be card or manage" }).default("card"),
});

/** What the customer's billing page shows: the subscription without staff-only fields, its invoices, and the cancellation rule for today. */
export interface BillingView {
  subscription: {
    id: number;
    planType: string;
    planName: string;
    status: string;
    statusLabel: string;
    provider: "stripe" | "demo";
    startedAt: string;
    currentPeriodStart: string;
    currentPeriodEnd: string;
    minimumTermEndsAt: string;
    cancelAt: string | null;
    canceledAt: string | null;
    monthlyAmount: number;
    scheduledPlanType: string | null;
    scheduledPlanAt: string | null;
    cardLast4: string | null;
    lastPaymentError: string | null;
    propertyAddress: string | null;
  };
  invoices: { id: number; amount: number; currency: string; periodStart: string; periodEnd: string; status: string; paidAt: string | null; failureReason: string | null }[];
  /** Whether the plan has ended; nothing can be changed then. */
  ended: boolean;
  /** When a cancellation asked for now would take effect, and whether that is the minimum term's end. */
  cancellation: { takesEffectAt: string; atMinimumTerm: boolean } | null;
}
