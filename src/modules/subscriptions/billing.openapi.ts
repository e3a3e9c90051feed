import { z } from "zod";
import { apiCalls, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { PLAN_TYPES } from "../plans/plans.schemas.js";
import { billingTokenParams, customerCancelSchema, demoCardUpdateSchema, portalSchema } from "./billing.schemas.js";
import { SUBSCRIPTION_STATUSES } from "./subscriptions.constants.js";

// OpenAPI entries of billing.routes.ts: the customer's calls beside the /billing/{token} page; see
// docs/api.md.

const params = billingTokenParams.extend({
  token: billingTokenParams.shape.token.meta({
    description:
      "The signed billing token of an e-mailed link (/billing/{token}); it names one subscription and expires after 30 days",
  }),
});

const billingView = z
  .object({
    subscription: z.object({
      id: idNumber,
      planType: z.enum(PLAN_TYPES),
      planName: z.string(),
      status: z.string().meta({ description: `Stripe's value: ${SUBSCRIPTION_STATUSES.join(", ")}` }),
      statusLabel: z.string().meta({ example: "Past due" }),
      provider: z.enum(["stripe", "demo"]),
      startedAt: dateTimeString,
      currentPeriodStart: dateTimeString,
      currentPeriodEnd: dateTimeString.meta({
        description: "The next charge, unless a cancellation takes effect first",
      }),
      minimumTermEndsAt: dateTimeString,
      cancelAt: dateTimeString
        .nullable()
        .meta({ description: "When a scheduled cancellation takes effect; it can be undone until then" }),
      canceledAt: dateTimeString.nullable(),
      monthlyAmount: z.number().meta({ description: "Dollars a month", example: 370 }),
      scheduledPlanType: z.enum(PLAN_TYPES).nullable(),
      scheduledPlanAt: dateTimeString.nullable(),
      priceList: z.enum(["pricing", "checkout"]).meta({
        description: "The price list it was sold from: another plan costs this subscriber that list's price",
      }),
      cardLast4: z.string().nullable(),
      lastPaymentError: z
        .string()
        .nullable()
        .meta({ description: "Why the last payment failed, while the subscription is past due" }),
      lastPaymentErrorCode: z.string().nullable().meta({
        description: "Stripe's code of that failure (decline_code, else code), while past due",
        example: "insufficient_funds",
      }),
      propertyAddress: z.string().nullable(),
    }),
    invoices: z.array(
      z.object({
        id: idNumber,
        issuedAt: dateTimeString.nullable().meta({
          description:
            "The invoice's date, set once when it was numbered (docs/decisions.md#54); the payment's is paidAt",
        }),
        amount: z.number().meta({ description: "Dollars" }),
        currency: z.string(),
        periodStart: dateTimeString,
        periodEnd: dateTimeString,
        status: z.string(),
        paidAt: dateTimeString.nullable(),
        failureReason: z.string().nullable(),
      }),
    ),
    ended: z.boolean(),
    cancellation: z
      .object({
        takesEffectAt: dateTimeString,
        atMinimumTerm: z
          .boolean()
          .meta({ description: "True before the 3-month minimum ends: the cancellation takes effect when it ends" }),
      })
      .nullable()
      .meta({
        description:
          "When a cancellation asked for now would take effect (docs/decisions.md#25); null once the plan has ended",
      }),
  })
  .meta({ id: "BillingView", description: "The customer's own subscription, without staff-only fields" });

const TAGS = ["Billing (customer)"];
const ACCESS_RULE =
  "No session: the signed token is the credential. A forged or unknown token is 404; an expired one 410.";

export const billingCalls = apiCalls([
  {
    method: "get",
    path: "/api/billing/{token}",
    summary: "The customer's subscription and invoices",
    description: ACCESS_RULE,
    tags: TAGS,
    access: "public",
    params,
    responses: { 200: billingView },
    errors: [404, 410],
  },
  {
    method: "post",
    path: "/api/billing/{token}/cancel",
    summary: "Cancel at the end of the period",
    description: `${ACCESS_RULE} Before the 3-month minimum ends the cancellation takes effect when it ends; after, at the end of the paid period. A customer never cancels at once. An e-mail confirms it.`,
    tags: TAGS,
    access: "public",
    params,
    body: customerCancelSchema,
    responses: { 200: billingView },
    errors: [404, 409, 410, 503],
  },
  {
    method: "post",
    path: "/api/billing/{token}/resume",
    summary: "Undo a scheduled cancellation",
    description: `${ACCESS_RULE} Possible until the cancellation takes effect; 409 when none is scheduled.`,
    tags: TAGS,
    access: "public",
    params,
    responses: { 200: billingView },
    errors: [404, 409, 410, 503],
  },
  {
    method: "post",
    path: "/api/billing/{token}/card",
    summary: "Demo mode: a new card",
    description: `${ACCESS_RULE} Stores the demo card; a past-due subscription's unpaid invoice is paid at once. 4000 0000 0000 0002 is declined (400 on cardNumber); 4000 0000 0000 0341 is accepted and fails its renewals. A Stripe subscription is 409: its card is updated in Stripe's billing portal.`,
    tags: TAGS,
    access: "public",
    params,
    body: demoCardUpdateSchema,
    responses: { 200: billingView },
    errors: [404, 409, 410],
  },
  {
    method: "post",
    path: "/api/billing/{token}/portal",
    summary: "Stripe: a billing portal session",
    description: `${ACCESS_RULE} flow=card opens the portal's payment-method flow, which sets the subscription's default payment method; manage opens its home. A demo subscription is 409.`,
    tags: TAGS,
    access: "public",
    params,
    body: portalSchema,
    responses: { 200: z.object({ url: z.string().meta({ description: "Where to send the customer" }) }) },
    errors: [404, 409, 410, 503],
  },
]);
