import { z } from "zod";
import { apiCalls, cappedTotalCountHeader, dateString, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { idParams } from "../../http/fields.js";
import { PLAN_TYPES } from "../plans/plans.schemas.js";
import {
  INVOICE_STATUSES,
  SUBSCRIPTION_STATUSES,
  cancelSchema,
  changePlanSchema,
  idempotencyKeyHeader,
  serviceRequestSchema,
  subscriptionListQuerySchema,
} from "./subscriptions.schemas.js";

// OpenAPI entries of subscriptions.routes.ts (the staff calls); see docs/api.md.

/** docs/decisions.md#35 and #76, said on every change call. */
const ONE_AT_A_TIME =
  "One change at a time: the change is claimed under the subscription's lock, sent to the provider with no lock held, then applied; a repeat with the same `Idempotency-Key` (or sent together with an identical one) gets the first answer, and a different change while one is pending is a 409 ('Another change to this plan is in progress'). A 409 body also carries `subscription`, as it is now. " +
  "503: 'Nothing was changed' when the provider could not be reached before the change was sent, or refused it (the same request may be sent again). 202 `pending`: the change was sent and not confirmed; it is being checked and settled within minutes (the same request again, or a job, sends it again with its key).";

const status = z.string().meta({
  description: `Stripe's value: ${SUBSCRIPTION_STATUSES.join(", ")}. An unknown value is kept as the provider sent it`,
  example: "active",
});

const subscription = z
  .object({
    id: idNumber,
    customerId: idNumber.nullable().meta({ description: "Null until the purchase's intake is done" }),
    propertyId: idNumber.nullable(),
    planType: z.enum(PLAN_TYPES),
    status,
    provider: z.enum(["stripe", "demo"]),
    startedAt: dateTimeString,
    currentPeriodStart: dateTimeString,
    currentPeriodEnd: dateTimeString,
    minimumTermEndsAt: dateTimeString.meta({
      description:
        "Three months after the start (docs/decisions.md#25): a cancellation asked for before then takes effect then",
    }),
    cancelAt: dateTimeString.nullable().meta({ description: "When a scheduled cancellation takes effect" }),
    canceledAt: dateTimeString.nullable(),
    monthlyAmount: z.number().meta({ description: "Dollars a month", example: 370 }),
    cancellationReason: z.string().nullable(),
    scheduledPlanType: z
      .enum(PLAN_TYPES)
      .nullable()
      .meta({ description: "A downgrade waiting for the end of the period" }),
    scheduledPlanAt: dateTimeString.nullable(),
    customerName: z.string().nullable(),
    customerEmail: z.string().nullable(),
    propertyAddress: z.string().nullable(),
    cardLast4: z.string().nullable().meta({ description: "Demo provider: the card on file" }),
    lastPaymentError: z.string().nullable().meta({ description: "Why the last payment failed, while it is not paid" }),
    version: z.number().int().min(1),
  })
  .meta({ id: "Subscription" });

/** 202: sent to the provider and not confirmed yet (change-runner.ts). */
const pending = z
  .object({
    status: z.literal("pending"),
    message: z.string().meta({ example: "The change is pending: the payment provider has not confirmed it yet. …" }),
    subscription,
  })
  .meta({ description: "The change is pending: the subscription as it is now, before the change" });

const invoice = z
  .object({
    id: idNumber,
    subscriptionId: idNumber.nullable().meta({ description: "Null on an accepted quote's invoice" }),
    quoteRequestId: idNumber
      .nullable()
      .meta({ description: "The accepted quote it bills (docs/decisions.md#43); null on a subscription's" }),
    providerInvoiceId: z.string(),
    issuedAt: dateTimeString.nullable().meta({
      description:
        "The invoice's date: when it was issued, set once with its number, never moved by the payment (docs/decisions.md#54); null on a draft",
    }),
    recordedLateAt: dateTimeString.nullable().meta({
      description:
        "When Haven numbered it, set only when that came after invoices of its year issued on a later day (a missed invoice reconciliation recorded): the exception to the numbers' order (docs/decisions.md#54)",
    }),
    amount: z.number().meta({ description: "Dollars" }),
    currency: z.string(),
    periodStart: dateTimeString,
    periodEnd: dateTimeString,
    status: z.string().meta({ description: INVOICE_STATUSES.join(", ") }),
    billingReason: z
      .string()
      .nullable()
      .meta({ description: "subscription_create, subscription_cycle or subscription_update (a prorated upgrade)" }),
    paidAt: dateTimeString.nullable(),
    failureReason: z.string().nullable(),
  })
  .meta({ id: "Invoice" });

const event = z
  .object({
    id: idNumber,
    kind: z.string().meta({
      description:
        "created, activated, plan_changed, plan_change_scheduled, plan_change_undone, plan_change_declined, cancel_scheduled, cancel_undone, canceled, payment_failed, payment_recovered, status_changed, card_updated",
    }),
    fromPlan: z.string().nullable(),
    toPlan: z.string().nullable(),
    actor: z.string().meta({ description: "customer, staff:<id>, cli, stripe or system" }),
    detail: z.record(z.string(), z.unknown()).nullable(),
    createdAt: dateTimeString,
  })
  .meta({ id: "SubscriptionEvent" });

const planService = z
  .object({
    scheduleId: idNumber,
    service: z.string().meta({ example: "hvac-maintenance/furnace" }),
    title: z.string(),
    rrule: z.string().nullable(),
    nextDate: dateString.nullable(),
    held: z.boolean().meta({ description: "Future visits are held while the subscription is past due" }),
    endedAt: dateTimeString.nullable(),
    onRequest: z.boolean().meta({ description: "No cadence: requested as a dated task (POST …/service-requests)" }),
  })
  .meta({ id: "PlanServiceSchedule" });

const detail = z
  .object({
    subscription,
    priceList: z.enum(["pricing", "checkout"]).meta({
      description: "The price list it was sold from (/pricing or /checkout); plan changes bill from the same list",
    }),
    invoices: z.array(invoice).meta({ description: "Newest period first" }),
    events: z
      .array(event)
      .meta({ description: "The events log, newest first: plan changes, cancellations, failed payments…" }),
    services: z.array(planService).meta({ description: "The plan services' schedules on the property" }),
  })
  .meta({ id: "SubscriptionDetail" });

const metrics = z
  .object({
    mrr: z
      .number()
      .meta({ description: "Monthly recurring revenue in dollars: active, trialing and past-due subscriptions" }),
    active: z.number().int().meta({ description: "Active and trialing subscriptions" }),
    pastDue: z.number().int(),
    canceledThisMonth: z
      .number()
      .int()
      .meta({ description: "Cancellations that took effect this month (BUSINESS_TZ)" }),
  })
  .meta({ id: "SubscriptionMetrics" });

const task = z
  .object({ id: idNumber })
  .loose()
  .meta({ description: "The maintenance task created (the maintenance module's MaintenanceTask)" });

const tags = ["Subscriptions"];

export const subscriptionsCalls = apiCalls([
  {
    method: "get",
    path: "/api/subscriptions",
    summary: "Subscriptions, newest first",
    description:
      "`q` searches the customer's name and e-mail and the property's address; `status` takes Stripe's values, `plan` basic, standard or premium. A search counts its matches up to 1,000: past that, `X-Total-Count` is `1000+` and the pages go on while they are full. `?format=csv` streams every row of the filter (no paging), with a `priceList` column.",
    tags,
    access: "staff",
    query: subscriptionListQuerySchema,
    list: true,
    csv: true,
    responses: {
      200: {
        description: "OK",
        schema: z.array(subscription),
        headers: cappedTotalCountHeader,
      },
    },
  },
  {
    method: "get",
    path: "/api/subscriptions/metrics",
    summary: "MRR, active and past-due counts, cancellations this month",
    tags,
    access: "staff",
    responses: { 200: metrics },
  },
  {
    method: "get",
    path: "/api/subscriptions/{id}",
    summary: "One subscription with its invoices, events log and plan services' schedules",
    tags,
    access: "staff",
    params: idParams,
    responses: { 200: detail },
    errors: [404],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/cancel",
    summary: "Cancel at period end or at once",
    description:
      "`period_end`: before the 3-month minimum ends, the cancellation takes effect when it ends (`cancelAt` = `minimumTermEndsAt`); after, at the end of the paid period. " +
      "`now` ends it at once. An ended subscription is a 409. " +
      ONE_AT_A_TIME,
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyKeyHeader,
    body: cancelSchema,
    responses: { 200: subscription, 202: pending },
    errors: [404, 409, 503],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/resume",
    summary: "Undo a scheduled cancellation",
    description:
      "Possible until the cancellation takes effect; 409 when none is scheduled or the subscription has ended. " +
      ONE_AT_A_TIME,
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyKeyHeader,
    responses: { 200: subscription, 202: pending },
    errors: [404, 409, 503],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/change-plan",
    summary: "Upgrade (at once, prorated) or downgrade (at period end)",
    description:
      "A downgrade sets `scheduledPlanType`/`scheduledPlanAt` (Stripe: a Subscription Schedule); asking for the current plan while one waits takes it back; an upgrade is prorated from the plan paid for, and applies once that charge goes through: declined, it is a 402 with the card's message and the plan stays as it was. The same plan, or a past-due plan, is a 409. " +
      ONE_AT_A_TIME,
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyKeyHeader,
    body: changePlanSchema,
    responses: { 200: subscription, 202: pending },
    errors: [402, 404, 409, 503],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/retry-payment",
    summary: "Retry a past-due plan's failed payment now",
    description:
      "Charges the open invoice again with the card on file (Stripe: `POST /v1/invoices/{id}/pay` with an idempotency key; demo: a card whose renewals fail declines again). Paid: the invoice is paid and the plan active again, with the receipt and the events a webhook would give. Declined: a 402 with the card's message, and nothing changes but an audit event. Not past due (or no open invoice): 409. A repeat with the same `Idempotency-Key` gets the first answer, so a double click is one charge (docs/decisions.md#62).",
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyKeyHeader,
    responses: { 200: subscription },
    errors: [402, 404, 409, 503],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/card-update-link",
    summary: "E-mail the customer the billing link to update the card",
    description:
      "Queues an e-mail to the customer with the signed billing link (its card page pays the open invoice once the card is updated), and records an audit event. 409 when the plan has ended or has no customer e-mail. A repeat with the same `Idempotency-Key` sends nothing more (docs/decisions.md#62).",
    tags,
    access: "staff",
    params: idParams,
    headers: idempotencyKeyHeader,
    responses: {
      200: z
        .object({ message: z.string().meta({ example: "Sent to the customer's e-mail" }) })
        .meta({ id: "CardLinkSent" }),
    },
    errors: [404, 409],
  },
  {
    method: "post",
    path: "/api/subscriptions/{id}/service-requests",
    summary: "Request an on-request plan service for a date",
    description:
      "Services without a cadence (vacation prep, concierge line, repairs coordination) become a dated maintenance task on the property.",
    tags,
    access: "staff",
    params: idParams,
    body: serviceRequestSchema,
    responses: { 201: task },
    errors: [404, 409, 503],
  },
]);
