import { z } from "zod";
import { isIsoDate } from "../../shared/business-time.js";
import { isMultiLine, isSingleLine, multiLineMessage, singleLineMessage } from "../../http/fields.js";
import { CLIENT_DECISIONS, QUOTE_STATUSES } from "./quotes.constants.js";

export * from "./quotes.constants.js";

/**
 * PATCH /api/quote-requests/{id}: a status, or 'quoted' with quotedAmount and adminNotes, and (docs/decisions.md#42)
 * the homeowner's `scope` and `validUntil` (default: 30 days from the day it is quoted).
 */
export const quoteUpdateSchema = z
  .object({
    status: z.enum(QUOTE_STATUSES, { message: `status must be one of ${QUOTE_STATUSES.join(", ")}` }),
    // The amount is printed into the client's e-mail: one line, no control character.
    quotedAmount: z
      .string()
      .trim()
      .max(100, "Quoted amount must be at most 100 characters")
      .refine(isSingleLine, singleLineMessage("Quoted amount"))
      .nullish(),
    adminNotes: z
      .string()
      .trim()
      .max(4000, "Admin notes must be at most 4000 characters")
      .refine(isMultiLine, multiLineMessage("Admin notes"))
      .nullish(),
    // What will be done, shown to the homeowner (their page, PDF and e-mail): several lines, no other control character.
    scope: z
      .string()
      .trim()
      .max(4000, "What will be done must be at most 4000 characters")
      .refine(isMultiLine, multiLineMessage("What will be done"))
      .nullish(),
    // The last day the quote can be accepted (BUSINESS_TZ); the service refuses a day before today.
    validUntil: z
      .string()
      .trim()
      .refine((v) => v === "" || isIsoDate(v), "Valid until must be a date (YYYY-MM-DD)")
      .nullish(),
    // The version the dialog was opened with: a request changed since is a 409 (optional for plain calls).
    version: z
      .number({ message: "Version must be a whole number" })
      .int("Version must be a whole number")
      .min(1, "Version must be at least 1")
      .max(2_147_483_647, "Version is not valid")
      .optional(),
  })
  .superRefine((input, ctx) => {
    if (input.status === "quoted" && !input.quotedAmount)
      ctx.addIssue({ code: "custom", path: ["quotedAmount"], message: "Quoted amount is required" });
  });
export type QuoteUpdate = z.infer<typeof quoteUpdateSchema>;

export const clientDecisionSchema = z.object({
  decision: z.enum(CLIENT_DECISIONS, { message: "decision must be accept or decline" }),
});

/** The bell's client rows seen up to `until` (the newest the page showed); `back` the list's filters. */
export const bellSeenBody = z.object({
  until: z.coerce.date({ message: "Say up to when the rows were seen" }),
  back: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(500).startsWith("?").optional()),
});
