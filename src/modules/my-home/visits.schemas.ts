// Input of My Home's Visits, Plan and Account calls: zod on the server only.
import { z } from "zod";
import { localeField } from "../../i18n/schemas.js";
import { dateField, idInput, monthField, multiLineText, pathId } from "../../http/fields.js";
import { DAY_PART_VALUES } from "../../shared/business-time.js";
import { BOOKING_SLOTS } from "../bookings/booking-changes.schemas.js";
import { planTypeSchema } from "../plans/plans.schemas.js";
import { customerCancelSchema, demoCardFormSchema, demoCardUpdateSchema } from "../subscriptions/billing.schemas.js";

/** An empty form field is "not given". */
const blankIsAbsent = (value: unknown) => (value === "" ? undefined : value);
/** An id in a JSON body or a form (number or canonical text). */
const bodyId = (label: string) =>
  z.preprocess(
    idInput,
    z
      .number({ message: `${label} is required` })
      .int()
      .positive(`${label} is not valid`)
      .max(2_147_483_647, `${label} is not valid`),
  );

export const PORTAL_RESCHEDULE_MESSAGE = "Choose one of the offered dates: at least 4 days from today";

/**
 * PATCH /api/my-home/bookings/{id}: `{scheduledDate, timeSlot}` moves a scheduled booking to one of the offered
 * dates (see VisitsService.rescheduleOptions) and slots; `{status: 'cancelled'}` cancels it. Not both. The
 * offered dates depend on today, so the service checks them; here only the shape.
 */
export const homeBookingChangeSchema = z
  .object({
    scheduledDate: dateField("Inspection date").optional(),
    timeSlot: z.enum(BOOKING_SLOTS, { message: "Time slot must be morning, afternoon or evening" }).optional(),
    status: z.literal("cancelled", { message: "Status may only be cancelled" }).optional(),
  })
  .superRefine((input, ctx) => {
    const moves = input.scheduledDate !== undefined || input.timeSlot !== undefined;
    if (input.status && moves)
      ctx.addIssue({ code: "custom", path: ["status"], message: "Cancel or reschedule, not both" });
    if (!input.status && input.scheduledDate === undefined)
      ctx.addIssue({ code: "custom", path: ["scheduledDate"], message: "Inspection date is required" });
    if (!input.status && input.timeSlot === undefined)
      ctx.addIssue({ code: "custom", path: ["timeSlot"], message: "Time slot is required" });
  });
export type HomeBookingChange = z.infer<typeof homeBookingChangeSchema>;

/** The booking page's parts of the day: the slots My Home offers. */
export const PORTAL_SLOTS: readonly string[] = DAY_PART_VALUES;

/** POST /api/my-home/service-requests: an on-request plan service of one of the homeowner's properties, for a date. */
export const serviceRequestSchema = z.object({
  propertyId: bodyId("Property"),
  service: z
    .string({ message: "Service is required" })
    .trim()
    .min(1, "Service is required")
    .max(100, "Service is not valid"),
  date: dateField("Date"),
  notes: z.preprocess(blankIsAbsent, multiLineText("Notes", 2000).nullish()),
});
export type ServiceRequestInput = z.infer<typeof serviceRequestSchema>;

/**
 * POST /api/my-home/plan-visits/{id}/move: a plan visit's new date (docs/decisions.md#44), and for the annual
 * inspection the time (a part of the day the inspectors' calendars offer). The window and the lead depend on the
 * visit and today, so the service checks them; here only the shape.
 */
export const planVisitMoveSchema = z.object({
  date: dateField("Date"),
  timeSlot: z.preprocess(
    blankIsAbsent,
    z.enum(DAY_PART_VALUES, { message: "Choose one of the offered times" }).optional(),
  ),
});
export type PlanVisitChangeInput = { action: "move" | "skip" | "unskip"; date?: string; timeSlot?: string };
export const planVisitParams = z.object({ id: pathId("Visit") });

/** GET /api/my-home/visits: an optional month ('YYYY-MM') for the calendar; the list is always the upcoming visits. */
export const visitsQuery = z.object({ month: z.preprocess(blankIsAbsent, monthField().optional()) });

/** Which of the homeowner's subscriptions an action is for. */
const subscriptionRef = { subscriptionId: bodyId("Subscription") };

export const homeCancelSchema = customerCancelSchema.extend(subscriptionRef);
export const homeResumeSchema = z.object(subscriptionRef);
export const homeChangePlanSchema = z.object({ ...subscriptionRef, planType: planTypeSchema });
/** JSON: in demo mode the card number (expiry, CVC checked when sent); with Stripe nothing more (the answer is the portal URL). */
export const homeCardSchema = demoCardUpdateSchema.partial({ cardNumber: true }).extend(subscriptionRef);
/** The demo card page's form. */
export const homeCardFormSchema = demoCardFormSchema;

/** GET/PATCH /api/my-home/preferences. */
/** My Home's language (Account page): the customer's locale (docs/decisions.md#65). Nothing else is accepted. */
export const languageSchema = z.object({ locale: localeField }).strict();

export const preferencesSchema = z.object({
  reminders: z.preprocess(
    (v) => (v === "true" || v === "on" ? true : v === "false" || v === "off" ? false : v),
    z.boolean({ message: "Reminders must be true or false" }),
  ),
});

export const subscriptionParams = z.object({ id: pathId("Subscription") });
export const invoiceParams = z.object({ id: pathId("Invoice") });
export const bookingParams = z.object({ id: pathId("Booking") });
/** Page query strings naming a subscription (`?subscription=`). */
export const subscriptionQuery = z.object({
  subscription: pathId("Subscription").optional().catch(undefined),
  plan: planTypeSchema.optional().catch(undefined),
});
