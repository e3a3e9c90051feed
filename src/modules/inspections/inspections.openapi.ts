import { z } from "zod";
import { MAX_ID } from "../customers/customers.constants.js";
import {
  apiCalls,
  binary,
  cappedTotalCountHeader,
  dateString,
  dateTimeString,
  idNumber,
} from "../../http/openapi.kit.js";
import { idParams } from "../../http/fields.js";
import {
  INSPECTION_STATUSES,
  type Inspection,
  type InspectionEntry,
  type InspectionWithEntries,
  entryInputSchema,
  inspectionCreateSchema,
  inspectionIdParams,
  inspectionListQuery,
  inspectionStatusSchema,
} from "./inspections.schemas.js";
import { MAX_PHOTO_BYTES, MAX_PHOTO_MEGAPIXELS, PHOTO_TYPES } from "./photos.constants.js";
import type { StoredPhoto } from "./photos.service.js";

// OpenAPI entries of inspections.routes.ts, entries.routes.ts and photos.routes.ts; see docs/api.md.

const score = z
  .union([z.literal(10), z.literal(7), z.literal(4), z.literal(1)])
  .nullable()
  .meta({ description: "10 Excellent, 7 Good, 4 Needs Attention, 1 Immediate Action Required; null is N/A" });

const inspectionEntry: z.ZodType<InspectionEntry> = z
  .object({
    id: idNumber,
    inspectionId: idNumber,
    categoryName: z.string(),
    subcategoryName: z.string(),
    score,
    notes: z.string().nullable(),
    urgent: z.boolean(),
    photoIds: z.array(idNumber),
    photos: z.array(z.string()).meta({ description: "Photo URLs: /api/photos/{id} (staff session)" }),
    updatedAt: dateTimeString,
  })
  .meta({ id: "InspectionEntry" });

const inspectionFields = {
  id: idNumber,
  propertyId: idNumber,
  bookingId: idNumber.nullable(),
  inspectorId: idNumber.nullable(),
  inspectionDate: dateString,
  scheduledDate: dateString.nullable().meta({ description: "The linked booking's date" }),
  status: z.enum(INSPECTION_STATUSES),
  overallScore: z.number().nullable(),
  notes: z.string().nullable(),
  completedAt: dateTimeString.nullable(),
  createdAt: dateTimeString,
  updatedAt: dateTimeString,
  property: z.object({
    id: idNumber,
    address: z.string(),
    city: z.string(),
    province: z.string().nullable(),
    postalCode: z.string().nullable(),
    clientName: z.string(),
    clientEmail: z.string(),
  }),
};
const inspection: z.ZodType<Inspection> = z.object(inspectionFields).meta({ id: "Inspection" });
const inspectionWithEntries: z.ZodType<InspectionWithEntries> = z
  .object({
    ...inspectionFields,
    categories: z
      .array(z.object({ categoryName: z.string(), entries: z.array(inspectionEntry) }))
      .meta({ description: "Every template category, in template order" }),
    visit: z
      .object({
        bookingId: z.number().int().nullable(),
        clientPhone: z.string().nullable(),
        accessMethod: z.string().nullable(),
        accessInstructions: z.string().nullable(),
        specialRequests: z.string().nullable(),
        bookingNotes: z.string().nullable(),
        homeownerNotes: z.string().nullable().meta({ description: "The intake's 'Notes for your inspector'" }),
        hasAccessCode: z.boolean().meta({
          description: "A door code was given: GET /api/inspection-bookings/{bookingId}/access-code reads it",
        }),
      })
      .optional()
      .meta({
        description:
          "GET /api/inspections/{id} only: the client's phone, the homeowner's notes and the booking's access and notes (never the door code)",
      }),
  })
  .meta({ id: "InspectionWithEntries" });

/**
 * The body of the save and complete calls. entries.routes.ts builds it from entryInputSchema but does not
 * export it, so it is restated here with the same fields and limits.
 */
const entryBody = entryInputSchema
  .extend({
    inspectionId: z.coerce.number().int().positive().max(MAX_ID),
    score: z
      .number()
      .nullable()
      .optional()
      .meta({ description: "10, 7, 4, 1, or null for N/A; checked against the template" }),
    photos: z.array(z.string().min(1)).max(200).optional().meta({
      description: "Photo URLs (/api/photos/{id}) or image data strings; replaces the entry's photos in this order",
    }),
  })
  .meta({ id: "InspectionEntryInput" });
const entriesBody = z.array(entryBody).min(1).max(1000).meta({ description: "Entries of one inspection" });

const storedPhoto: z.ZodType<StoredPhoto> = z
  .object({
    id: idNumber,
    url: z.string(),
    thumbnailUrl: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "StoredPhoto" });
/** photos.routes.ts checks these inline (not exported): restated here. */
const photoParams = idParams;
const dataUrlBody = z.object({
  data: z.string().min(1).meta({ description: "data:image/…;base64,…" }),
  clientId: z
    .string()
    .optional()
    .meta({ description: "The browser's id for this upload (8–100 of A-Z a-z 0-9 - _): a retry is a no-op" }),
});

export const inspectionsCalls = apiCalls([
  {
    method: "get",
    path: "/api/inspections",
    summary: "Inspections, newest first",
    description:
      "`q` searches the home's address, city and postal code and its client's name, e-mail and phone, or takes an inspection's number. A search counts its matches up to 1,000: past that, `X-Total-Count` is `1000+` and the pages go on while they are full.",
    tags: ["Inspections"],
    access: "staff",
    query: inspectionListQuery,
    list: true,
    csv: true,
    responses: { 200: { description: "OK", schema: z.array(inspection), headers: cappedTotalCountHeader } },
  },
  {
    method: "get",
    path: "/api/inspections/{id}",
    summary: "One inspection with its categories and entries",
    tags: ["Inspections"],
    access: "staff",
    params: inspectionIdParams,
    responses: { 200: inspectionWithEntries },
    errors: [404],
  },
  {
    method: "post",
    path: "/api/inspections",
    summary: "Start an inspection",
    description: "Created in_progress unless another start status is given; links the property's scheduled booking.",
    tags: ["Inspections"],
    access: "staff",
    body: inspectionCreateSchema,
    responses: { 201: { description: "Created", schema: inspection } },
  },
  {
    method: "patch",
    path: "/api/inspections/{id}",
    summary: "Set an inspection's status",
    description: "scheduled → in_progress → completed (draft is also accepted); an illegal move is a 409.",
    tags: ["Inspections"],
    access: "staff",
    params: inspectionIdParams,
    body: inspectionStatusSchema,
    responses: { 200: inspection },
    errors: [404, 409],
  },
]);

export const entriesCalls = apiCalls([
  {
    method: "post",
    path: "/api/inspection-categories",
    summary: "Save inspection entries",
    description:
      "An upsert per (inspection, category, subcategory); the form sends chunks of 5. Every entry of one call belongs to one inspection.",
    tags: ["Inspection entries"],
    access: "staff",
    body: entriesBody,
    responses: { 200: z.object({ saved: z.number().int().min(0) }) },
    errors: [404, 409, 413],
  },
  {
    method: "post",
    path: "/api/inspection-categories/bulk-complete",
    summary: "Save every entry and complete the inspection",
    description:
      "One transaction: every entry sent needs a score (400 naming it); computes overallScore, marks the inspection and its booking completed.",
    tags: ["Inspection entries"],
    access: "staff",
    body: entriesBody,
    responses: { 200: inspection },
    errors: [404, 409, 413],
  },
]);

export const photosCalls = apiCalls([
  {
    method: "post",
    path: "/api/photos",
    summary: "Upload one photo",
    description: `JPEG, PNG or WebP (checked by magic bytes), at most ${MAX_PHOTO_BYTES / 1024 / 1024} MB (413) and ${MAX_PHOTO_MEGAPIXELS} megapixels (400, read from the header before decoding); stored once, shrunk to 2048 px, with a thumbnail. Raw bytes may carry the client id in X-Client-Id.`,
    tags: ["Photos"],
    access: "staff",
    headers: z.object({
      "x-client-id": z.string().optional().meta({ description: "The browser's id for this upload (raw bytes)" }),
    }),
    bodyContent: Object.fromEntries([
      ...PHOTO_TYPES.map((type) => [type, binary] as const),
      ["application/json", dataUrlBody] as const,
    ]),
    responses: { 201: { description: "Stored (or already stored under this client id)", schema: storedPhoto } },
    errors: [413],
  },
  {
    method: "get",
    path: "/api/photos/{id}",
    summary: "A photo (shrunk to at most 2048 px)",
    tags: ["Photos"],
    access: "staff",
    params: photoParams,
    responses: { 200: { description: "The image", contentType: "image/*", schema: binary } },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/photos/{id}/thumbnail",
    summary: "A photo's thumbnail (320 px, WebP)",
    tags: ["Photos"],
    access: "staff",
    params: photoParams,
    responses: { 200: { description: "The thumbnail", contentType: "image/*", schema: binary } },
    errors: [404],
  },
]);
