// Input schemas of the reports calls (zod only: islands may import this file).
import { z } from "zod";
import { MAX_ID, idParams, pathId } from "../../http/fields.js";

export { idParams };
export const propertyIdParams = z.object({ propertyId: pathId("Id") });

/** docs/decisions.md#15: limit (default 100, at most 500), offset, q. */
export const reportListQuery = z.object({
  limit: z.coerce
    .number({ message: "Limit must be a number" })
    .int("Limit must be a whole number")
    .min(1, "Limit must be at least 1")
    .max(500, "Limit must be at most 500")
    .default(100),
  offset: z.coerce
    .number({ message: "Offset must be a number" })
    .int("Offset must be a whole number")
    .min(0, "Offset must be 0 or more")
    .max(MAX_ID)
    .default(0),
  q: z.string().trim().max(200, "Search is too long").optional(),
});

export const PDF_FORMATS = ["full", "summary"] as const;
export type PdfFormat = (typeof PDF_FORMATS)[number];
export const pdfQuery = z.object({
  format: z.enum(PDF_FORMATS, { message: "Format must be full or summary" }).default("full"),
});

/** The reports list page: 10 a page (staff-side §9). */
export const REPORT_PAGE_SIZE = 10;
export const reportsPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
  q: z.string().trim().max(200).catch("").default(""),
});
