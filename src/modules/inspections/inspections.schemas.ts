import { z } from "zod";
import {
  MAX_ID,
  dateProblem,
  idInput,
  idParams,
  isMultiLine,
  isSingleLine,
  multiLineMessage,
  singleLineMessage,
} from "../../http/fields.js";

// Zod schemas and shapes of inspections (staff-side §3, §4, §7). Islands may import this file:
// nothing from the server here. The template itself is in template.ts (zod-free).

export const INSPECTION_STATUSES = ["scheduled", "in_progress", "completed", "draft"] as const;
export type InspectionStatus = (typeof INSPECTION_STATUSES)[number];
/** Statuses a new inspection may start in; completing goes through complete(). */
export const CREATE_STATUSES = ["in_progress", "scheduled", "draft"] as const;

/** An unknown value is displayed as draft (staff-side §4). */
export const displayStatus = (status: string): InspectionStatus =>
  (INSPECTION_STATUSES as readonly string[]).includes(status) ? (status as InspectionStatus) : "draft";

export const STATUS_LABELS: Record<InspectionStatus, string> = {
  scheduled: "Scheduled",
  in_progress: "In Progress",
  completed: "Completed",
  draft: "Draft",
};

/** An id in a body: a number, or canonical text ('12'; never '012', ' 12' or '0xc'). */
const idNumber = (label: string) =>
  z.preprocess(
    idInput,
    z
      .number({ message: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .positive(`${label} must be positive`)
      .max(MAX_ID, `${label} is not valid`),
  );

export const inspectionIdParams = idParams;

/** 'YYYY-MM-DD' (a longer ISO timestamp gives its date), a real date in years 1900 to 2200. */
const isoDate = z
  .string({ message: "Inspection date is required" })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}/, "Inspection date must be a date (YYYY-MM-DD)")
  .transform((value) => value.slice(0, 10))
  .superRefine((value, ctx) => {
    const problem = dateProblem(value, "Inspection date");
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const inspectionCreateSchema = z.object({
  propertyId: z.preprocess(
    (v) => (v === "" || v === null ? undefined : idInput(v)),
    z
      .number({
        error: (issue) => (issue.input === undefined ? "Please select a property" : "Property must be a number"),
      })
      .int("Property must be a whole number")
      .positive("Please select a property")
      .max(MAX_ID, "Property is not valid"),
  ),
  status: z.enum(CREATE_STATUSES, { message: `Status must be one of ${CREATE_STATUSES.join(", ")}` }).optional(),
  inspectionDate: isoDate,
});

export const inspectionStatusSchema = z.object({
  status: z.enum(INSPECTION_STATUSES, { message: `Status must be one of ${INSPECTION_STATUSES.join(", ")}` }),
});

/** List query: docs/decisions.md#15 (limit default 100, at most 500). */
export const inspectionListQuery = z.object({
  limit: z.coerce
    .number({ message: "Limit must be a number" })
    .int("Limit must be a whole number")
    .min(1, "Limit must be at least 1")
    .max(500, "Limit must be at most 500")
    .default(100),
  offset: z.coerce
    .number({ message: "Offset must be a number" })
    .int("Offset must be a whole number")
    .min(0, "Offset must be at least 0")
    .max(MAX_ID)
    .default(0),
  q: z.string().trim().max(200, "Search must be at most 200 characters").optional(),
  status: z
    .enum(INSPECTION_STATUSES, { message: `Status must be one of ${INSPECTION_STATUSES.join(", ")}` })
    .optional(),
});

/**
 * One entry as the form sends it. The score's set (10, 7, 4, 1, null) and the names are checked
 * against the template by InspectionsService.validateEntries, which names the field.
 */
export const entryInputSchema = z.object({
  categoryName: z
    .string({ message: "Category is required" })
    .trim()
    .min(1, "Category is required")
    .max(200)
    .refine(isSingleLine, singleLineMessage("Category")),
  subcategoryName: z
    .string({ message: "Subcategory is required" })
    .trim()
    .min(1, "Subcategory is required")
    .max(200)
    .refine(isSingleLine, singleLineMessage("Subcategory")),
  score: z.number({ message: "Score must be 10, 7, 4, 1 or null" }).nullable(),
  notes: z
    .string({ message: "Notes must be text" })
    .max(10_000, "Notes must be at most 10000 characters")
    .refine(isMultiLine, multiLineMessage("Notes"))
    .nullable()
    .optional(),
  urgent: z.boolean({ message: "Urgent must be true or false" }).optional(),
  photoIds: z.array(idNumber("Photo id")).max(200, "At most 200 photos per entry").optional(),
});

export type EntryScore = 10 | 7 | 4 | 1;

export interface EntryInput {
  categoryName: string;
  subcategoryName: string;
  score: EntryScore | null;
  notes?: string | null;
  urgent?: boolean;
  /** When present, replaces the entry's photos in this order. */
  photoIds?: number[];
}

export interface InspectionEntry {
  id: number;
  inspectionId: number;
  categoryName: string;
  subcategoryName: string;
  score: EntryScore | null;
  notes: string | null;
  urgent: boolean;
  photoIds: number[];
  /** "/api/photos/{id}" (staff session). */
  photos: string[];
  updatedAt: string;
}

export interface InspectionProperty {
  id: number;
  address: string;
  city: string;
  province: string | null;
  postalCode: string | null;
  clientName: string;
  clientEmail: string;
}

export interface Inspection {
  id: number;
  propertyId: number;
  bookingId: number | null;
  inspectorId: number | null;
  /** YYYY-MM-DD */
  inspectionDate: string;
  /** The linked booking's date. */
  scheduledDate: string | null;
  status: InspectionStatus;
  overallScore: number | null;
  notes: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  property: InspectionProperty;
}

/**
 * What the inspector needs at the door (the form's header): the client's phone and what the homeowner wrote when
 * booking. Only on the single inspection (GET /api/inspections/{id}), never in lists or CSV. The access code stays
 * out (only whether there is one): the form is kept on the device for offline use.
 */
export interface InspectionVisit {
  /** The linked booking, whose door code the form asks for on a tap (GET /api/inspection-bookings/{id}/access-code). */
  bookingId: number | null;
  clientPhone: string | null;
  accessMethod: string | null;
  accessInstructions: string | null;
  specialRequests: string | null;
  /** The booking's notes: the homeowner's from the booking page, and the office's. */
  bookingNotes: string | null;
  /** What the homeowner wrote at intake, "Notes for your inspector" (the property's notes). */
  homeownerNotes: string | null;
  /** Whether the booking has a door code: the form shows it only on a tap, never keeps it. */
  hasAccessCode: boolean;
}

export interface InspectionWithEntries extends Inspection {
  /** Every template category, in template order, with its entries. */
  categories: { categoryName: string; entries: InspectionEntry[] }[];
  visit?: InspectionVisit;
}
