import { z } from "zod";
import { apiCalls, dateString, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { NOTIFICATION_KINDS } from "./notifications.constants.js";

// OpenAPI entry of notifications.routes.ts (src/modules/notifications/README.md); see docs/api.md.

const notification = z
  .object({
    id: idNumber,
    kind: z.enum(NOTIFICATION_KINDS),
    recordType: z.string().meta({ example: "subscription" }),
    recordId: z.string().meta({ example: "42" }),
    link: z.string().meta({ description: "The record's staff page", example: "/admin/subscriptions/42" }),
    text: z.string(),
    createdAt: dateTimeString,
    readAt: dateTimeString.nullable().meta({ description: "When the caller marked it read; null while unread" }),
  })
  .meta({ id: "Notification" });

export const notificationsCalls = apiCalls([
  {
    method: "get",
    path: "/api/notifications",
    summary: "The staff bell's notifications, newest first (owner and office)",
    description:
      "What the office must act on (quote accepted or declined, payment failed, cancellation scheduled or undone, dispute, a homeowner's reschedule or cancellation, a plan visit requested, paid but never booked), each linked to its record. Filter by `kind`, `unread` (true/false, for the caller) and business day (`from`/`to`, YYYY-MM-DD in BUSINESS_TZ, both included): the latest 100.",
    tags: ["Notifications"],
    access: "staff",
    query: z.object({
      kind: z.enum(NOTIFICATION_KINDS).optional(),
      unread: z.enum(["true", "false"]).optional(),
      from: dateString.optional(),
      to: dateString.optional(),
    }),
    responses: { 200: { description: "Notifications", schema: z.array(notification) } },
    errors: [400, 403],
  },
  {
    method: "post",
    path: "/api/notifications/read",
    summary: "Marks notifications read for the caller",
    description: "These `ids`, or every unread one with `all: true`. Another staff user's marks are their own.",
    tags: ["Notifications"],
    access: "staff",
    body: z.object({ ids: z.array(idNumber).max(500).optional(), all: z.boolean().optional() }),
    responses: { 200: { description: "How many were newly marked", schema: z.object({ marked: z.number().int() }) } },
    errors: [400, 403],
  },
]);
