// The customer's billing page and its JSON calls: input and answer shapes.
import { z } from "zod";
import type { CustomerSubscriptionView } from "./subscriptions.constants.js";
import { multiLineText } from "../../http/fields.js";
import { demoCardSchema } from "../payments/checkout.schemas.js";

/** The signed billing token in the path: checked by billing-links.ts, only its size here. */
export const billingTokenParams = z.object({ token: z.string().max(200) });

/** An empty form field is "not given". */
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

/** POST /api/billing/{token}/cancel. A customer cancels at the end of the period only, never at once. */
export const customerCancelSchema = z.object({
  when: z
    .literal("period_end", {
      message: "A customer's cancellation takes effect at the end of the period: when must be period_end",
    })
    .optional(),
  reason: z.preprocess(blankIsAbsent, multiLineText("Reason", 1000).nullish()),
});

const { cardNumber, expiry, cvc } = demoCardSchema.shape;

/** POST /api/billing/{token}/card (demo mode): the card number decides; expiry and CVC are checked when sent. */
export const demoCardUpdateSchema = z.object({ cardNumber, expiry: expiry.optional(), cvc: cvc.optional() });

/** The demo card page's form: every field of a card, as the checkout's card form asks. */
export const demoCardFormSchema = z.object({ cardNumber, expiry, cvc });

/** POST /api/billing/{token}/portal (Stripe): the portal's card flow, or its home page. */
export const portalSchema = z.object({
  flow: z.enum(["card", "manage"], { message: "Flow must be card or manage" }).default("card"),
});

/** What the customer's billing page shows: the customer's view of the subscription (subscriptions.constants.ts). */
export type BillingView = CustomerSubscriptionView;
