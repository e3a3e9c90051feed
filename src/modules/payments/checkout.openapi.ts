import { z } from "zod";
import { apiCalls } from "../../http/openapi.kit.js";
import {
  checkoutSessionSchema,
  demoConfirmSchema,
  paymentIntentSchema,
  priceListSchema,
  taxQuoteQuery,
  verifyPaymentQuery,
} from "./checkout.schemas.js";

// OpenAPI entries of checkout.routes.ts; see docs/api.md.

/** A Stripe event as Stripe sends it; the route checks the signature over the raw bytes, not this shape. */
const stripeEvent = z
  .object({
    id: z.string(),
    type: z.string().meta({ example: "checkout.session.completed" }),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .loose();

export const checkoutCalls = apiCalls([
  {
    method: "post",
    path: "/api/create-checkout-session",
    summary: "Start a checkout for a plan",
    description:
      "A hosted checkout at the pricing page's monthly price (docs/decisions.md#23). With Stripe keys: a Stripe Checkout Session's URL. " +
      "In demo mode: Haven's demo hosted checkout, /demo-checkout/{sessionId}. The optional postalCode is the home's: its " +
      "province's tax is added and shown before the pay button (docs/decisions.md#32); without it, BUSINESS_PROVINCE's. " +
      "A postal code that names no province is a 400 on postalCode.",
    tags: ["Checkout"],
    access: "public",
    body: checkoutSessionSchema,
    responses: { 200: z.object({ url: z.string() }) },
    errors: [502],
  },
  {
    method: "get",
    path: "/api/verify-payment",
    summary: "Whether a checkout session or payment was paid",
    tags: ["Checkout"],
    access: "public",
    query: verifyPaymentQuery,
    responses: {
      200: z.object({
        success: z.boolean(),
        customer: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
        postalCode: z.string().optional().meta({ description: "The home's postal code typed at checkout, once paid" }),
        province: z.string().optional().meta({ description: "That postal code's province" }),
      }),
    },
    errors: [404, 502],
  },
  {
    method: "get",
    path: "/api/checkout/quote",
    summary: "What a pay button will charge: subtotal, each tax, total",
    description:
      "The plan's price on a price list (checkout: the payment page's; pricing: /pricing's), the sales tax of the home's " +
      "province (docs/decisions.md#32) and the total, in cents. Creates nothing. Without postalCode, BUSINESS_PROVINCE's tax.",
    tags: ["Checkout"],
    access: "public",
    query: taxQuoteQuery,
    responses: {
      200: z.object({
        plan: z.string(),
        priceList: priceListSchema,
        postalCode: z.string().nullable(),
        province: z.string(),
        subtotalCents: z.number().int(),
        lines: z.array(z.object({ label: z.string(), amountCents: z.number().int() })),
        taxCents: z.number().int(),
        totalCents: z.number().int(),
      }),
    },
  },
  {
    method: "post",
    path: "/api/create-payment-intent",
    summary: "Create a payment for the payment page",
    description:
      "Called by the payment page on submit, never before (the Payment Element's deferred-intent flow): it makes the " +
      "customer (with the e-mail) and the subscription. The server alone decides the amount: an amount that differs from " +
      "the plan's checkout price (before tax) is a 400; the charge adds the tax of the home's postalCode (docs/decisions.md#32). " +
      "20 calls per client address every 15 minutes; past that a 429 says how long in Retry-After.",
    tags: ["Checkout"],
    access: "public",
    body: paymentIntentSchema,
    responses: { 200: z.object({ clientSecret: z.string() }) },
    errors: [429, 502],
  },
  {
    method: "post",
    path: "/api/demo/confirm-payment",
    summary: "Demo mode: confirm a card payment",
    description:
      "The offline stand-in for Stripe.js, for the payment page's intent (demo_pi_…) or the demo hosted checkout's session (demo_cs_…). " +
      "404 while Stripe keys are set; Stripe's test cards decline with 402.",
    tags: ["Checkout"],
    access: "public",
    body: demoConfirmSchema,
    responses: { 200: z.object({ paymentIntentId: z.string(), status: z.literal("succeeded") }) },
    errors: [402, 404, 409],
  },
  {
    method: "post",
    path: "/api/stripe/webhook",
    summary: "Stripe webhook",
    description:
      "Stripe's events (checkout.session.completed, payment_intent.succeeded) record a payment once per provider id; " +
      "the subscriptions' (invoice.*, customer.subscription.*, customer.updated) and the charge events (charge.refunded, " +
      "charge.dispute.created, .updated, .closed, .funds_withdrawn, .funds_reinstated) are each processed once per event id. " +
      "The body is read raw: the Stripe-Signature header is verified over the exact bytes with STRIPE_WEBHOOK_SECRET.",
    tags: ["Checkout"],
    access: "public",
    headers: z.object({ "stripe-signature": z.string().meta({ description: "Stripe's signature of the raw body" }) }),
    body: stripeEvent,
    responses: { 200: z.object({ received: z.literal(true), recorded: z.boolean() }) },
  },
]);
