import { z } from "zod";
import { apiCalls, idNumber, idempotencyHeaders } from "../../http/openapi.kit.js";
import { PLACEHOLDER_CALENDAR } from "../bookings/index.js";
import { onboardingSchema } from "./onboarding.schemas.js";

// OpenAPI entries of onboarding.routes.ts; see docs/api.md.

export const onboardingCalls = apiCalls([
  {
    method: "post",
    path: "/api/onboarding",
    summary: "Free score onboarding: create the customer and property, and book when a date is given",
    description:
      "Reading A's payload (with completedAt). preferredDate, preferredTime and accessMethod come all together or not at all; " +
      "the date is at least 4 days ahead in the business time zone. Missing required fields are named together in the message. " +
      "Sets the customer session cookie.",
    tags: ["Onboarding"],
    access: "public",
    headers: idempotencyHeaders,
    body: onboardingSchema(PLACEHOLDER_CALENDAR),
    responses: {
      201: z.object({
        propertyId: idNumber,
        bookingId: idNumber.optional().meta({ description: "Present when the inspection was booked" }),
        message: z.string(),
      }),
    },
    errors: [409],
  },
]);
