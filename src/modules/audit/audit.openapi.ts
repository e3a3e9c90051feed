import { z } from "zod";
import { apiCalls, dateTimeString, idNumber, totalCountHeader } from "../../http/openapi.kit.js";
import { auditQuerySchema } from "./audit.schemas.js";

// OpenAPI entry of audit.routes.ts (docs/decisions.md#39); see docs/api.md.

const changes = z.record(z.string(), z.unknown()).nullable();

const auditEvent = z
  .object({
    id: idNumber,
    createdAt: dateTimeString,
    actorId: z.number().int().nullable().meta({ description: "The staff user; null for cli, system or stripe" }),
    actorEmail: z.string().nullable().meta({ description: "The staff user's e-mail when the event was written" }),
    actor: z.string().meta({ example: "staff:3" }),
    action: z.string().meta({ example: "property.update" }),
    recordType: z.string().meta({ example: "property" }),
    recordId: z.string().meta({ example: "42" }),
    before: changes.meta({ description: "The changed fields as they were; null on a creation" }),
    after: changes.meta({ description: "The changed fields as they are; null on a deletion" }),
  })
  .meta({ id: "AuditEvent" });

export const auditCalls = apiCalls([
  {
    method: "get",
    path: "/api/audit-events",
    summary: "The audit trail, newest first (owners only)",
    description:
      "Filter by person (`actorId`), record (`recordType`, `recordId`) and business day (`from`/`to`, YYYY-MM-DD in BUSINESS_TZ, both included). Keyset pages: `limit` (default 50) events with an id below `before`; the `X-Next-Before` header gives the next page's `before` (`offset` also works, counted after `before`). X-Total-Count counts every matching event. `?format=csv` gives every matching event, before and after as one JSON cell each.",
    tags: ["Audit"],
    access: "staff",
    query: auditQuerySchema,
    csv: true,
    responses: {
      200: {
        description: "A page of events",
        schema: z.array(auditEvent),
        headers: totalCountHeader.extend({
          "X-Next-Before": z
            .string()
            .optional()
            .meta({ description: "The next page's `before`; absent on the last page" }),
        }),
      },
    },
    errors: [403],
  },
]);
