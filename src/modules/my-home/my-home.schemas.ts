// Input and answers of My Home's records (Home, Reports, Quotes): zod on the server only.
// Each helper of the portal adds its own section; these are the records'.
import { z } from "zod";
import { idInput, idParams, isMultiLine, multiLineMessage } from "../../http/fields.js";
import {
  CLIENT_DECISIONS,
  type QuoteFigures,
  type QuotePriority,
  type QuoteSource,
  type QuoteStatus,
} from "../quotes/quotes.constants.js";
import type { ClientReportPayload } from "../sharing/sharing.schemas.js";

// --- Records: Home, Reports, Quotes ---

export { idParams as homeIdParams };

export const PHOTO_PARAMS = z.object({ id: idParams.shape.id, photoId: idParams.shape.id });

/** An id in a JSON body or a form field (number or canonical text). */
const bodyId = (label: string) =>
  z.preprocess(
    (value) => (value === "" ? undefined : idInput(value)),
    z
      .number({ message: `${label} must be a number` })
      .int(`${label} is not valid`)
      .positive(`${label} is not valid`)
      .max(2_147_483_647, `${label} is not valid`)
      .optional(),
  );

/**
 * POST /api/my-home/quote-requests (and the Quotes page's form): a quote for an open recommendation of the
 * homeowner's report, or any open task of their home. A recommendation's id is its task's id (reports README),
 * so `recommendationId` and `taskId` name the same thing; give one.
 */
export const askQuoteSchema = z
  .object({
    recommendationId: bodyId("recommendationId"),
    taskId: bodyId("taskId"),
    notes: z.preprocess(
      (value) => (value === "" || value === null ? undefined : value),
      z
        .string({ message: "Notes must be text" })
        .trim()
        .max(2000, "Notes must be at most 2000 characters")
        .refine(isMultiLine, multiLineMessage("Notes"))
        .optional(),
    ),
  })
  .superRefine((input, ctx) => {
    if (input.recommendationId === undefined && input.taskId === undefined)
      ctx.addIssue({ code: "custom", path: ["recommendationId"], message: "Choose the recommendation to quote" });
    if (input.recommendationId !== undefined && input.taskId !== undefined && input.recommendationId !== input.taskId)
      ctx.addIssue({
        code: "custom",
        path: ["taskId"],
        message: "Give recommendationId or taskId, not two different items",
      });
  })
  .transform((input) => ({ taskId: (input.recommendationId ?? input.taskId) as number, notes: input.notes || null }));
export type AskQuoteInput = z.infer<typeof askQuoteSchema>;

/** The Quotes page's one-click form: accept or decline. */
export const quoteDecisionFormSchema = z.object({
  decision: z.enum(CLIENT_DECISIONS, { message: "Decision must be accept or decline" }),
});

/** A property of the homeowner on Home and in GET /api/my-home/properties. */
export interface HomeProperty {
  id: number;
  address: string;
  /** "Ottawa, ON K1S 2B4". */
  addressLine: string;
  planType: string | null;
  latestReport: { id: number; createdAt: string; overallScore: number | null } | null;
  currentScore: number | null;
  /** The client label of the current score (inspections/bands.ts clientLabel), null without one. */
  band: string | null;
  colour: "green" | "yellow" | "red" | null;
  /** Latest score minus the previous one; null with fewer than two scored inspections. */
  trend: number | null;
  /** Open recommendations by priority (high first), none quoted or scheduled yet. */
  openRecommendations: HomeRecommendation[];
  /** The plan's subscription is past due: the card needs updating. */
  pastDue: boolean;
}

export interface HomeRecommendation {
  /** The recommendation's (= its maintenance task's) id. */
  id: number;
  propertyId: number;
  reportId: number | null;
  title: string;
  description: string | null;
  priority: "high" | "medium" | "low";
  status: string;
  /** The task's open quote request, when it has one. */
  quote: { id: number; status: QuoteStatus } | null;
}

/** One report the homeowner may read: of their property, or shared to their e-mail. */
export interface HomeReportItem {
  id: number;
  propertyId: number;
  address: string;
  addressLine: string;
  createdAt: string;
  inspectionDate: string | null;
  overallScore: number | null;
  band: string | null;
  /** Shared to them for someone else's property: that report alone. */
  shared: boolean;
}

/** A quote request of the homeowner, as they see it: never staff notes. */
export interface HomeQuote {
  id: number;
  propertyId: number;
  propertyAddress: string;
  maintenanceTaskId: number;
  taskTitle: string;
  taskDescription: string | null;
  status: QuoteStatus;
  priority: QuotePriority;
  quotedAmount: string | null;
  quotedCents: number | null;
  clientNotes: string | null;
  source: QuoteSource;
  createdAt: string;
  updatedAt: string;
  /** The quote as a document (docs/decisions.md#42): what will be done, figures with tax, validity, after yes. */
  scope: string | null;
  validUntil: string | null;
  expired: boolean;
  totals: QuoteFigures | null;
  afterYes: string;
}

/** GET /api/my-home/reports/{id}: the client report view's payload, without a link (the island's portal mode). */
export interface HomeReportPayload {
  report: ClientReportPayload["report"];
  property: ClientReportPayload["property"];
  /** Shared to the homeowner for someone else's property: that report alone (no history, no quotes). */
  shared: boolean;
  /** Per recommendation of their own property (by id): the task's status now and its open quote request. */
  items: Record<string, { status: string; quote: { id: number; status: QuoteStatus } | null }>;
  /** The two PDF downloads. */
  pdf: { full: string; summary: string };
}
