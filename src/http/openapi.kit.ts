// What a module needs to describe its JSON calls for GET /api/openapi.json (docs/api.md). The module's
// `<module>.openapi.ts` imports this file; src/openapi.ts merges the modules. Kept apart from
// openapi.ts so module files never import the registry that imports them (no import cycle).
import "zod-openapi"; // types .meta({ id, param, header, … }) for OpenAPI
import { z } from "zod";

export type ApiMethod = "get" | "post" | "put" | "patch" | "delete";

/**
 * public: anyone, no session. session: anyone, but the answer follows the session (staff see all, a
 * customer session only its own records). staff: a staff session, else 401 (added to the responses).
 */
export type ApiAccess = "public" | "session" | "staff";

/** The error statuses the app answers with the shared `{message, fields?}` body. */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502 | 503;

export interface ApiResponse {
  description?: string;
  /** The body: JSON unless contentType says otherwise; left out for bodiless answers (redirects). */
  schema?: z.ZodType;
  contentType?: string;
  headers?: z.ZodObject;
}

/** One JSON call. Adding a call to the document is adding one of these to the module's list. */
export interface ApiCall {
  method: ApiMethod;
  /** OpenAPI form, with the /api prefix: `/api/properties/{id}`. */
  path: `/api/${string}`;
  summary: string;
  description?: string;
  tags: string[];
  access: ApiAccess;
  /** The zod schemas the route validates with: path params, query, headers, body. */
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** Default application/json. */
  bodyContentType?: string;
  /** A body that comes in more than one media type (e.g. image bytes or JSON): media type → schema. */
  bodyContent?: Record<string, z.ZodType>;
  /** Success answers by status; a bare zod schema is a JSON body described as "OK". */
  responses: Record<number, ApiResponse | z.ZodType>;
  /** Error answers beyond the automatic ones (400 when the call takes input, 401 for staff calls). */
  errors?: ErrorStatus[];
  /**
   * A list call (docs/decisions.md#15): its 200 carries X-Total-Count with the full count. "staff": only
   * a staff session gets pages and the header (a customer session gets all of its own rows).
   */
  list?: boolean | "staff";
  /** Also answers text/csv with `?format=csv` (src/http/csv.ts): the staff list calls that export. */
  csv?: boolean;
}

/** Typed identity: `export const fooCalls = apiCalls([...])` checks every entry where it is written. */
export const apiCalls = (calls: ApiCall[]): ApiCall[] => calls;

// --- Shared pieces of the contract (docs/decisions.md#15) ---

/** Every JSON error: `fields` names each invalid field of a 400 (and of a 409 when a field is the conflict). */
export const errorBody = z
  .object({
    message: z.string().meta({ description: "Safe to show to a person", example: "Invalid input" }),
    fields: z
      .record(z.string(), z.string())
      .optional()
      .meta({
        description: "Field path → message, one per invalid field",
        example: { email: "Enter a valid email address" },
      }),
  })
  .meta({ id: "Error", description: "The body of every JSON error" });

export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: "Bad input: `fields` names every invalid field; nothing was written",
  401: "No session (or not a staff session)",
  402: "The card was declined: `message` gives the reason",
  403: "The session lacks the right",
  404: "Not found (or not this session's)",
  409: "State conflict: the move or write is not allowed now",
  410: "The link was already used or has expired",
  413: "Body too large",
  415: "Unsupported media type",
  429: "Too many attempts; wait and retry",
  502: "An upstream provider failed",
  503: "Temporarily unavailable",
};

export const dateTimeString = z.string().meta({ format: "date-time", example: "2026-02-01T14:30:00.000Z" });
export const dateString = z.string().meta({ format: "date", example: "2026-02-01", description: "YYYY-MM-DD" });
export const idNumber = z.number().int().positive();

/**
 * The list query of docs/decisions.md#15, for documentation where a module validates it inline.
 * Prefer the module's own exported schema: the document should show what the route checks.
 */
const _listQueryDoc = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .meta({ description: "Page size (default 100, at most 500)" }),
  offset: z.coerce.number().int().min(0).default(0).meta({ description: "Rows to skip" }),
  q: z.string().max(200).optional().meta({ description: "Search text" }),
});

/** The header every list call sends: the count of all matching rows, not just this page. */
export const totalCountHeader = z.object({
  "X-Total-Count": z
    .string()
    .regex(/^\d+$/)
    .meta({ description: "Full count of matching rows (all pages)", example: "1234" }),
});

/** A searchable list's header: its count, or "1000+" past a search's count cap (docs/decisions.md#77). */
export const cappedTotalCountHeader = z.object({
  "X-Total-Count": z
    .string()
    .regex(/^\d+\+?$/)
    .meta({
      description: "Full count of matching rows (all pages); a search matching more than 1,000 says 1000+",
      example: "1000+",
    }),
});

/** Customer submissions run once (src/db/idempotency.ts): a retry with the same key gets the first answer. */
export const idempotencyHeaders = z.object({
  "Idempotency-Key": z.string().max(200).optional().meta({
    description:
      "Optional, 1–200 visible ASCII characters: a retry with the same key and payload gets the first answer; the same key with another payload is a 409. Without it, an identical payload from the same browser counts as a retry.",
  }),
});

/** Bytes of a file (an image, a PDF): the body is the file itself. */
export const binary = z.string().meta({ format: "binary" });

/** A path `{id}` documented where the route checks it with an inline, unexported schema. */
export const idParamsDoc = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647).meta({ description: "Record id" }),
});
