import { z } from "zod";
import { csvFormatField } from "../../http/csv.js";
import { isIsoDate } from "../../shared/business-time.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";

// The bookings desk's filters (/admin/bookings and GET /api/inspection-bookings for staff), docs/decisions.md#58.

export const BOOKING_STATUSES = ["scheduled", "completed", "cancelled"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

const blank = (v: unknown) => (v === "" ? undefined : v);
const day = (label: string) =>
  z.preprocess(
    blank,
    z
      .string({ message: `${label} must be a date (YYYY-MM-DD)` })
      .refine(isIsoDate, `${label} must be a date (YYYY-MM-DD)`)
      .optional(),
  );

/** What the staff list filters by, besides its page and search. */
export interface BookingsFilter {
  q?: string;
  /** Dated on or after / on or before ('YYYY-MM-DD'). */
  from?: string;
  to?: string;
  status?: BookingStatus;
  /** One inspector's, or 'unassigned': those given to nobody. */
  inspector?: number | "unassigned";
  /** An inspector's own list (docs/decisions.md#36), whatever `inspector` asks. */
  inspectorId?: number;
  /** `created`: newest first (the spec's list); `time`: by the date and time of the visit. */
  sort?: "created" | "time";
}

/** GET /api/inspection-bookings (staff): the list's page and search, and the desk's filters. */
export const staffBookingsQuerySchema = staffListQuerySchema
  .extend({
    from: day("From"),
    to: day("To"),
    status: z.preprocess(
      blank,
      z.enum(BOOKING_STATUSES, { message: "Status must be scheduled, completed or cancelled" }).optional(),
    ),
    inspector: z.preprocess(
      blank,
      z
        .union(
          [
            z.literal("unassigned"),
            z.coerce
              .number({ message: "Inspector must be an inspector's id or unassigned" })
              .int("Inspector must be an inspector's id or unassigned")
              .positive("Inspector must be an inspector's id or unassigned")
              .max(2_147_483_647, "Inspector must be an inspector's id or unassigned"),
          ],
          { message: "Inspector must be an inspector's id or unassigned" },
        )
        .optional()
        .meta({ description: "An inspector's id, or `unassigned`: the bookings given to nobody" }),
    ),
    sort: z.preprocess(
      blank,
      z
        .enum(["created", "time"], { message: "Sort must be created or time" })
        .optional()
        .meta({ description: "`created` (default): newest first; `time`: by the visit's date and time" }),
    ),
    format: csvFormatField,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "From must be on or before To", path: ["to"] });
