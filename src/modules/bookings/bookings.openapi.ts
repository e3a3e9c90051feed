import { z } from "zod";
import { apiCalls, dateString, dateTimeString, idNumber, idempotencyHeaders } from "../../http/openapi.kit.js";
import { staffBookingsQuerySchema } from "./bookings-desk.schemas.js";
import {
  type Booking,
  type BookingAvailability,
  type BookingCalendar,
  availabilityQuerySchema,
  pageBookingSchema,
  wizardBookingSchema,
} from "./bookings.schemas.js";
import { bookingChangeSchema } from "./booking-changes.schemas.js";
import { idParams } from "../../http/fields.js";

// OpenAPI entries of bookings.routes.ts; see docs/api.md.

/**
 * The booking schemas take today's calendar, but its dates only feed refinements that JSON Schema cannot
 * express (the 4-day lead, the 14 offered weekdays): the document describes those rules in words.
 */
export const PLACEHOLDER_CALENDAR: BookingCalendar = { today: "", minDate: "", maxDate: "", bookingDates: [] };

const text = z.string().nullable();
export const bookingResponse: z.ZodType<Booking> = z
  .object({
    id: idNumber,
    propertyId: idNumber,
    customerId: idNumber,
    scheduledDate: dateString,
    timeSlot: z.string(),
    preferredTime: z.string().meta({ description: "The admin views' name for timeSlot" }),
    notes: text,
    accessMethod: text,
    accessCode: text,
    accessInstructions: text,
    specialRequests: text,
    status: z.string(),
    source: z.string(),
    createdAt: dateTimeString,
    address: z.string(),
    city: z.string(),
    state: text,
    province: text,
    postalCode: text,
    clientName: z.string(),
    clientEmail: z.string(),
    clientPhone: text,
    preferredContact: text,
    subscriptionPlan: z.string(),
    inspectorId: idNumber.nullable().meta({ description: "The inspector it is given to; null when nobody is" }),
    inspectorName: text,
  })
  .meta({
    id: "InspectionBooking",
    description: "A booking with its property's and client's fields joined (staff-side §3)",
  });

const availabilityResponse: z.ZodType<BookingAvailability> = z
  .object({
    from: dateString,
    to: dateString,
    calendar: z
      .enum(["inspectors", "open"])
      .meta({ description: "'open': no inspector is set up, every time is offered" }),
    durationMinutes: z.number().int().meta({ description: "How long the inspection of a home of that size lasts" }),
    days: z.array(
      z.object({
        date: dateString,
        slots: z
          .array(z.string())
          .meta({ description: "The wizard's half-hour times at which some inspector is free" }),
        parts: z.array(z.string()).meta({ description: "The parts of the day some inspector is free for, whole" }),
      }),
    ),
  })
  .meta({ id: "BookingAvailability", description: "Free times of inspectors (docs/decisions.md#37)" });

export const bookingsCalls = apiCalls([
  {
    method: "get",
    path: "/api/inspection-bookings/availability",
    summary: "The times at which some inspector is free, day by day, for a home of this size",
    description:
      "from and to (at most 31 days); size in square feet sets the inspection's length (2 h up to 2,000 sq ft, 3 h up " +
      "to 3,500, 4 h above or unknown size: 3 h). With no inspector set up, every time is offered.",
    tags: ["Bookings"],
    access: "public",
    query: availabilityQuerySchema(PLACEHOLDER_CALENDAR),
    responses: { 200: availabilityResponse },
  },
  {
    method: "get",
    path: "/api/inspectors",
    summary: "Active inspectors, for giving a booking to one (staff)",
    tags: ["Bookings"],
    access: "staff",
    responses: { 200: z.array(z.object({ id: idNumber, name: z.string() })) },
  },
  {
    method: "get",
    path: "/api/inspection-bookings",
    summary: "Inspection bookings, newest first: staff see all, a page at a time; a customer session only its own",
    description:
      "Staff: limit/offset/q and X-Total-Count; accessMethod reads as the admin labels. The bookings desk's filters " +
      "(docs/decisions.md#58): from/to (the visit's date), status, inspector (an id or `unassigned`), sort=time (by the " +
      "visit's date and time); format=csv gives every booking of the filter, without door codes. A customer session " +
      "gets all of its own bookings; the query is ignored.",
    tags: ["Bookings"],
    access: "session",
    query: staffBookingsQuerySchema,
    list: "staff",
    responses: { 200: z.array(bookingResponse) },
  },
  {
    method: "post",
    path: "/api/inspection-bookings",
    summary: "Book an inspection (scheduling wizard, or the booking page for an existing property)",
    description:
      "Two payloads share this call: the booking page's carries propertyId (a property of this session, one of the 14 weekdays " +
      "from tomorrow, a part of the day); the wizard's creates or reuses the customer and property (a date at least 4 days " +
      "ahead, a half-hour slot; lockbox and smart-lock need an access code or instructions). Sets the customer session cookie.",
    tags: ["Bookings"],
    access: "session",
    headers: idempotencyHeaders,
    body: z.union([pageBookingSchema(PLACEHOLDER_CALENDAR), wizardBookingSchema(PLACEHOLDER_CALENDAR)]),
    responses: {
      201: { description: "Booked (or the first answer to this submission, when retried)", schema: bookingResponse },
    },
    // 409 'That time was just taken' carries availability: fresh times of that date and the six after it.
    errors: [404, 409],
  },
  {
    method: "get",
    path: "/api/inspection-bookings/{id}/access-code",
    summary: "A booking's lockbox or door code, for the inspector at the door (staff; an inspector only their own)",
    description:
      "Asked for on demand by My Day and the inspection form, answered with Cache-Control: no-store: the code is never " +
      "part of their pages, which are kept on the device for offline use. accessCode is null when the homeowner gave none.",
    tags: ["Bookings"],
    access: "staff",
    params: idParams,
    responses: {
      200: z.object({
        bookingId: idNumber,
        label: z.string().meta({ description: "'Lockbox code' or 'Door code'" }),
        accessCode: z.string().nullable(),
      }),
    },
    errors: [404],
  },
  {
    method: "patch",
    path: "/api/inspection-bookings/{id}",
    summary: "Reschedule or cancel a scheduled booking (staff, from the calendar)",
    description:
      "{scheduledDate, timeSlot?} moves it under the wizard's date rule (at least 4 days ahead, within a year; a half-hour " +
      "slot or morning/afternoon/evening) and mails the client the new date; {status: 'cancelled'} cancels it. A booking " +
      "that is completed or cancelled already is a 409. {inspectorId} gives it to that inspector (null: nobody). A time no " +
      "inspector is free at, or an inspector already booked then, is a 409 with fresh times (availability).",
    tags: ["Bookings"],
    access: "staff",
    params: idParams,
    body: bookingChangeSchema(PLACEHOLDER_CALENDAR),
    responses: { 200: bookingResponse },
    errors: [404, 409],
  },
]);
