import { z } from "zod";
import { MAX_ID, idParams, isMultiLine, multiLineMessage } from "../../http/fields.js";

// Zod schemas and payload types of sharing. Islands import this file: nothing from the server here.

export const RESPONSE_ACTIONS = ["request_quote", "ignore"] as const;
export type ResponseAction = (typeof RESPONSE_ACTIONS)[number];

export const shareInputSchema = z.object({
  clientEmail: z
    .string({ message: "Client email is required" })
    .trim()
    .min(1, "Client email is required")
    .max(254, "Client email must be at most 254 characters")
    .email("Enter a valid email address"),
});

const responseSchema = z
  .object({
    maintenanceTaskId: z.number({ message: "maintenanceTaskId must be a number" }).int().positive().max(MAX_ID),
    action: z.enum(RESPONSE_ACTIONS, { message: "action must be request_quote or ignore" }),
    notes: z
      .string()
      .trim()
      .max(2000, "Notes must be at most 2000 characters")
      .refine(isMultiLine, multiLineMessage("Notes"))
      .nullish(),
  })
  // Notes belong to a quote request only (staff-side §4).
  .transform((r) => ({ ...r, notes: r.action === "request_quote" && r.notes ? r.notes : null }));

export const responsesInputSchema = z.object({
  responses: z
    .array(responseSchema, { message: "responses must be a list" })
    .min(1, "Please select at least one response before submitting.")
    .max(500),
});
export type ClientResponseInput = z.infer<typeof responseSchema>;

/** A recommendation as the client sees it: no staff-only field. */
export interface ClientRecommendation {
  id: number;
  category: string;
  subcategory: string;
  description: string;
  notes: string;
  score: number | null;
  priority: "high" | "medium" | "low";
  urgency: string;
  photos: string[];
  /**
   * The point's name and the description in the language the answer was asked in (docs/decisions.md#74, #78);
   * absent in English, where the stored text is the one to show.
   */
  said?: { subcategory: string; description: string };
}

export interface ClientCategory {
  categoryName: string;
  score: number | null;
  subcategoryCount: number;
}

/** GET /api/client-report/{token}: {report, share, property}. */
export interface ClientReportPayload {
  report: {
    id: number;
    createdAt: string;
    overallScore: number | null;
    reportData: {
      overallScore: number | null;
      summary: {
        highPriority: number;
        mediumPriority: number;
        lowPriority: number;
        totalIssues: number;
        overallScore: number | null;
      };
      allCategories: ClientCategory[];
      categories: ClientCategory[];
      recommendations: ClientRecommendation[];
      issues: ClientRecommendation[];
    };
  };
  share: {
    clientEmail: string;
    createdAt: string;
    expiresAt: string;
    respondedAt: string | null;
    responses: { maintenanceTaskId: number; action: ResponseAction; notes: string | null }[];
  };
  property: {
    id: number;
    address: string;
    city: string;
    province: string | null;
    postalCode: string;
    clientName: string;
  };
}

export interface ShareSummary {
  id: number;
  reportId: number;
  propertyId: number;
  propertyAddress: string;
  clientEmail: string;
  createdAt: string;
  openedAt: string | null;
  respondedAt: string | null;
  expiresAt: string;
  revoked: boolean;
  status: "unopened" | "opened" | "responded" | "expired" | "revoked";
}

/** `{ id }` of /api/reports/:id/share and /api/quote-requests/:id: a canonical id (src/http/fields.ts). */
export const idParamsSchema = idParams;

/** A report snapshot as sharing reads it: what ReportsService.get answers, and the sample (sample.ts). */
export interface StoredReport {
  id: number;
  propertyId: number;
  inspectionId: number;
  createdAt: string;
  overallScore: number | null;
  /** Read field by field, defensively: snapshots of every age (and the sample) pass through the client whitelist. */
  reportData: object;
}
