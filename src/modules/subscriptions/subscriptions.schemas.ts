// Staff input of the subscriptions calls and pages. The field rules are src/http/fields.ts's.
import { z } from "zod";
import { dateField, multiLineText, singleLineText } from "../../http/fields.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import { PLAN_TYPES } from "../plans/plans.schemas.js";
import { SUBSCRIPTION_STATUSES } from "./subscriptions.constants.js";

export * from "./subscriptions.constants.js";

/** An empty query value or form field is "not given". */
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);

const statusMessage = `Status must be one of ${SUBSCRIPTION_STATUSES.join(", ")}`;
const planMessage = `Plan must be one of ${PLAN_TYPES.join(", ")}`;

/** GET /api/subscriptions: the staff list query plus Stripe's status values and the plan. */
export const subscriptionListQuerySchema = staffListQuerySchema.extend({
  status: z.preprocess(blankIsAbsent, z.enum(SUBSCRIPTION_STATUSES, { message: statusMessage }).optional()),
  plan: z.preprocess(blankIsAbsent, z.enum(PLAN_TYPES, { message: planMessage }).optional()),
});

export const CANCEL_WHEN = ["period_end", "now"] as const;

const reasonField = multiLineText("Reason", 1000);

/** POST /api/subscriptions/{id}/cancel. The reason is optional in the call; the staff page asks for one. */
export const cancelSchema = z.object({
  when: z.enum(CANCEL_WHEN, { message: "When must be period_end or now" }),
  reason: z.preprocess(blankIsAbsent, reasonField.nullish()),
});

/** The page's cancel form: staff always say why. */
export const cancelFormSchema = cancelSchema.extend({
  reason: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    reasonField.pipe(z.string().min(1, "Reason is required")),
  ),
});

/** POST /api/subscriptions/{id}/change-plan. */
export const changePlanSchema = z.object({
  planType: z.enum(PLAN_TYPES, { message: planMessage }),
});

/** POST /api/subscriptions/{id}/service-requests: one of the plan's on-request services, on a date. */
export const serviceRequestSchema = z.object({
  service: z.preprocess(
    (value) => value ?? "",
    singleLineText("Service", 100).pipe(z.string().min(1, "Service is required")),
  ),
  date: dateField("Date"),
  notes: z.preprocess(blankIsAbsent, multiLineText("Notes", 2000).nullish()),
});

/**
 * The optional Idempotency-Key header of a change (docs/decisions.md#35): a client that sends the same key again
 * gets the first answer.
 */
export const idempotencyKeyHeader = z.object({
  "idempotency-key": z
    .string()
    .max(100, { message: "Idempotency-Key must be at most 100 characters" })
    .regex(/^[\w.:-]+$/, { message: "Idempotency-Key may hold letters, digits and . _ : - only" })
    .optional(),
});
