import { z } from "zod";
import { apiCalls } from "../../http/openapi.kit.js";
import {
  checkoutSessionSchema,
  demoConfirmSchema,
  paymentIntentSchema,
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
      "In demo mode: Haven's demo hosted checkout, /demo-checkout/{sessionId}.",
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
      }),
    },
    errors: [404, 502],
  },
  {
    method: "post",
    path: "/api/create-payment-intent",
    summary: "Create a payment for the payment page",
    description: "The server alone decides the amount: an amount that differs from the plan's checkout price is a 400.",
    tags: ["Checkout"],
    access: "public",
    body: paymentIntentSchema,
    responses: { 200: z.object({ clientSecret: z.string() }) },
    errors: [502],
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
      "Stripe's events (checkout.session.completed, payment_intent.succeeded) record a payment once per provider id. " +
      "The body is read raw: the Stripe-Signature header is verified over the exact bytes with STRIPE_WEBHOOK_SECRET.",
    tags: ["Checkout"],
    access: "public",
    headers: z.object({ "stripe-signature": z.string().meta({ description: "Stripe's signature of the raw body" }) }),
    body: stripeEvent,
    responses: { 200: z.object({ received: z.literal(true), recorded: z.boolean() }) },
  },
]);
