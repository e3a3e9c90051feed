import { z } from "zod";
import { apiCalls } from "../../http/openapi.kit.js";
import {
  bookingParams,
  homeBookingChangeSchema,
  homeCancelSchema,
  homeCardSchema,
  homeChangePlanSchema,
  homeResumeSchema,
  planVisitMoveSchema,
  planVisitParams,
  languageSchema,
  preferencesSchema,
  serviceRequestSchema,
  visitsQuery,
} from "./visits.schemas.js";

// OpenAPI entries of My Home's Visits, Plan and Account (visits.routes.ts, plan.routes.ts, account.routes.ts);
// see src/modules/my-home/README.md, "Visits, plan and account". Every call needs the homeowner's `haven_home`
// session (401 without); anything not the homeowner's is a 404.

const visitItem = z.object({
  kind: z.enum(["inspection", "plan-visit", "maintenance"]),
  id: z.number(),
  propertyId: z.number(),
  propertyAddress: z.string(),
  date: z.string(),
  time: z.string(),
  title: z.string(),
  status: z.string(),
  held: z.boolean(),
  service: z.string().nullable(),
  changeable: z.boolean(),
  timeSlot: z.string().nullable(),
  skipped: z.boolean(),
  canMove: z.boolean(),
  canSkip: z.boolean(),
  canRestore: z.boolean(),
});
const planVisitChanged = z.object({
  task: z.record(z.string(), z.unknown()).meta({ description: "The maintenance task as it is now" }),
  changed: z.boolean().meta({ description: "False for a repeat: the visit already was as asked" }),
  bookingId: z.number().nullable().meta({ description: "The booking a moved annual inspection became" }),
});
const planVisitOptions = z.object({
  visit: visitItem,
  from: z.string(),
  to: z.string(),
  days: z.array(z.object({ date: z.string(), slots: z.array(z.string()) })).nullable(),
  shownDays: z.array(z.object({ date: z.string(), slots: z.array(z.string()) })).nullable(),
  reason: z.string().nullable(),
});
const planVisitRules =
  "Rules (docs/decisions.md#44): a scheduled plan visit, not held, at least 2 days away; a move lands in the visit's window (a weekly visit within 3 days of its date, the lawn within 6, in season; a monthly or seasonal one in its month; the annual inspection within 60 days of its due date, at a time an inspector is free, which books it; an on-request one within a year), never on another visit of the service; the annual inspection is never skipped; a skipped visit is restored until the day before its date. A repeat answers `changed: false` and writes nothing.";
const visitsAnswer = z.object({
  today: z.string(),
  upcoming: z.array(visitItem),
  month: z.string(),
  monthItems: z.array(visitItem),
  requestable: z.array(
    z.object({
      propertyId: z.number(),
      propertyAddress: z.string(),
      subscriptionId: z.number(),
      services: z.array(z.object({ service: z.string(), title: z.string() })),
    }),
  ),
  reschedule: z.object({
    dates: z.array(z.string()),
    slots: z.array(z.string()),
    days: z.array(z.object({ date: z.string(), slots: z.array(z.string()) })),
  }),
  feed: z.object({ active: z.boolean(), since: z.string().nullable() }),
});
const booking = z
  .record(z.string(), z.unknown())
  .meta({ description: "The booking as GET /api/inspection-bookings gives it" });
const task = z
  .record(z.string(), z.unknown())
  .meta({ description: "The maintenance task made for the request (its description says the homeowner asked)" });
const homePlan = z.record(z.string(), z.unknown()).meta({
  description:
    "{subscription, nextCharge, invoices, ended, cancellation: {takesEffectAt, atMinimumTerm}, changes: [{planType, planName, price, direction, appliesAt}]}",
});
const preferences = z.object({ reminders: z.boolean() });

export const homeVisitsCalls = apiCalls([
  {
    method: "get",
    path: "/api/my-home/visits",
    summary: "The homeowner's visits",
    description:
      "Upcoming inspection bookings, plan visits (held ones marked `held`) and maintenance of the homeowner's homes; the calendar month's (`month`, default this month); the on-request services they may ask for; the dates and slots a booking may move to; whether a calendar feed exists.",
    tags: ["My Home"],
    access: "public",
    query: visitsQuery,
    responses: { 200: visitsAnswer },
    errors: [401],
  },
  {
    method: "patch",
    path: "/api/my-home/bookings/{id}",
    summary: "Reschedule or cancel one of the homeowner's inspections",
    description:
      "`{scheduledDate, timeSlot}` moves a scheduled booking at least 4 days away to one of the offered dates and times (the first 14 dates from today + 4 days at which an inspector is free, each with its free parts of the day and the booking's own slot when free: `reschedule.days`, docs/decisions.md#37), and e-mails the new date; `{status: 'cancelled'}` cancels it. The change is noted on the booking for staff. 409 when it is not scheduled or less than 4 days away, and 409 `{message: 'That time was just taken', fields, reschedule}` when the time is not free (any more), with the times still free.",
    tags: ["My Home"],
    access: "public",
    params: bookingParams,
    body: homeBookingChangeSchema,
    responses: { 200: booking },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/service-requests",
    summary: "Request an on-request plan service for a date",
    description:
      "Vacation prep, the concierge line or repairs coordination when the home's plan includes it: a dated task on the staff calendar, marked as requested by the homeowner. 409 when the plan no longer serves or the service is already requested for that date.",
    tags: ["My Home"],
    access: "public",
    body: serviceRequestSchema,
    responses: { 201: task },
    errors: [401, 404, 409],
  },
  {
    method: "get",
    path: "/api/my-home/plan-visits/{id}",
    summary: "A plan visit and where it may move to",
    description: `The visit, its window (\`from\`, \`to\`), for the annual inspection the free times in it, and why it cannot change now when it cannot. ${planVisitRules}`,
    tags: ["My Home"],
    access: "public",
    params: planVisitParams,
    responses: { 200: planVisitOptions },
    errors: [401, 404],
  },
  {
    method: "post",
    path: "/api/my-home/plan-visits/{id}/move",
    summary: "Move a plan visit",
    description: `\`{date, timeSlot?}\` (the time for the annual inspection). 400 outside the window; 409 with the reason otherwise, or \`{message: 'That time was just taken', reschedule}\`. ${planVisitRules}`,
    tags: ["My Home"],
    access: "public",
    params: planVisitParams,
    body: planVisitMoveSchema,
    responses: { 200: planVisitChanged },
    errors: [400, 401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/plan-visits/{id}/skip",
    summary: "Skip a plan visit",
    description: `The visit is kept, marked skipped (status cancelled). ${planVisitRules}`,
    tags: ["My Home"],
    access: "public",
    params: planVisitParams,
    responses: { 200: planVisitChanged },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/plan-visits/{id}/unskip",
    summary: "Restore a skipped plan visit",
    description: `Back on its date, until the day before. ${planVisitRules}`,
    tags: ["My Home"],
    access: "public",
    params: planVisitParams,
    responses: { 200: planVisitChanged },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/calendar-feed",
    summary: "A new private calendar feed URL",
    description:
      "The homeowner's bookings and tasks as ICS at `/my-home/calendar/feed/{secret}.ics` (32 random bytes; only the SHA-256 is stored). Shown once; a new one ends the previous URL.",
    tags: ["My Home"],
    access: "public",
    responses: { 201: z.object({ url: z.string() }) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/my-home/subscription",
    summary: "The homeowner's plans",
    description:
      "The latest subscription of each of the homeowner's homes: plan, status, next charge, minimum term, invoices, when a cancellation would take effect, and the plan changes with when each applies.",
    tags: ["My Home"],
    access: "public",
    responses: { 200: z.object({ subscriptions: z.array(homePlan) }) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/my-home/subscription/cancel",
    summary: "Cancel a plan at the end of its term",
    description:
      "Before the 3-month minimum ends, the cancellation takes effect when it ends; after, at the end of the paid period. It can be undone until then.",
    tags: ["My Home"],
    access: "public",
    body: homeCancelSchema,
    responses: { 200: homePlan },
    errors: [401, 404, 409, 503],
  },
  {
    method: "post",
    path: "/api/my-home/subscription/resume",
    summary: "Undo a scheduled cancellation",
    tags: ["My Home"],
    access: "public",
    body: homeResumeSchema,
    responses: { 200: homePlan },
    errors: [401, 404, 409, 503],
  },
  {
    method: "post",
    path: "/api/my-home/subscription/change-plan",
    summary: "Upgrade or downgrade a plan",
    description:
      "An upgrade applies at once with a prorated invoice, once that charge goes through (declined: a 402 with the card's message, the plan as it was); a downgrade at the end of the period.",
    tags: ["My Home"],
    access: "public",
    body: homeChangePlanSchema,
    responses: { 200: homePlan },
    errors: [401, 402, 404, 409, 503],
  },
  {
    method: "post",
    path: "/api/my-home/subscription/card",
    summary: "Update the card",
    description:
      "Demo mode: `cardNumber` (a declined test card is a 400 on it; a past-due invoice is paid at once) and the plan comes back. Stripe: `{url}`, Stripe's billing portal at its card flow.",
    tags: ["My Home"],
    access: "public",
    body: homeCardSchema,
    responses: { 200: z.union([homePlan, z.object({ url: z.string() })]) },
    errors: [401, 404, 409, 503],
  },
  {
    method: "get",
    path: "/api/my-home/preferences",
    summary: "The homeowner's e-mail preferences",
    tags: ["My Home"],
    access: "public",
    responses: { 200: preferences },
    errors: [401],
  },
  {
    method: "patch",
    path: "/api/my-home/preferences",
    summary: "Set the homeowner's e-mail preferences",
    description: "`reminders: false` stops the day-before reminder e-mails of their inspections and visits.",
    tags: ["My Home"],
    access: "public",
    body: preferencesSchema,
    responses: { 200: preferences },
    errors: [401],
  },
  {
    method: "put",
    path: "/api/my-home/language",
    summary: "Set the language of the homeowner's pages and e-mails",
    description:
      "`locale` ('en-CA' or 'fr-CA') on every customer record of the homeowner's e-mail (docs/decisions.md#65): Haven's e-mails to them follow it; My Home's pages are in the language of their address (/fr/my-home). 400 for another language or another field; 409 when no customer has this e-mail (a report shared to it only).",
    tags: ["My Home"],
    access: "public",
    body: languageSchema,
    responses: { 200: languageSchema },
    errors: [400, 401, 409],
  },
]);
