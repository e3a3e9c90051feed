import { z } from "zod";
import { isIsoDate } from "../../shared/business-time.js";
import { csvFormatField } from "../../http/csv.js";
import { optionalQueryId } from "../../http/fields.js";
import type { Json } from "./audit.diff.js";

/** One audit event as the API and the CSV give it (docs/decisions.md#39). */
export interface AuditEvent {
  id: number;
  createdAt: string;
  actorId: number | null;
  actorEmail: string | null;
  actor: string;
  action: string;
  recordType: string;
  recordId: string;
  before: Json;
  after: Json;
}

const blankAsUndefined = (v: unknown) => (v === "" ? undefined : v);
const day = z.preprocess(
  blankAsUndefined,
  z
    .string()
    .refine((v) => isIsoDate(v), "Enter a date as YYYY-MM-DD")
    .optional(),
);

/** GET /api/audit-events and /admin/audit: by person, record and business day; keyset pages of 50. */
export const auditQuerySchema = z.object({
  actorId: optionalQueryId("Person"),
  recordType: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .trim()
      .max(40)
      .regex(/^[a-z_]+$/, "Unknown record type")
      .optional(),
  ),
  recordId: z.preprocess(
    blankAsUndefined,
    z
      .string()
      .trim()
      .max(40)
      .regex(/^[\w-]+$/, "Enter a record id")
      .optional(),
  ),
  from: day,
  to: day,
  before: optionalQueryId("before").meta({ description: "Events older than this id (keyset)" }),
  limit: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).max(200).default(50)),
  offset: z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(100_000).default(0)),
  format: csvFormatField,
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const RANGE_MESSAGE = "From must be on or before To";

/** The range's one rule the fields alone cannot say (kept out of the schema, which OpenAPI extends). */
export const rangeProblem = (q: Pick<AuditQuery, "from" | "to">): Record<string, string> =>
  q.from && q.to && q.from > q.to ? { from: RANGE_MESSAGE } : {};
