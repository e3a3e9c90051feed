import { z } from "zod";
import { CLIENT_DECISIONS, QUOTE_STATUSES } from "./quotes.constants.js";

export * from "./quotes.constants.js";

/** PATCH /api/quote-requests/{id}: a status, or 'quoted' with quotedAmount and adminNotes. */
export const quoteUpdateSchema = z
  .object({
    status: z.enum(QUOTE_STATUSES, { message: `status must be one of ${QUOTE_STATUSES.join(", ")}` }),
    quotedAmount: z.string().trim().max(100, "Quoted amount must be at most 100 characters").nullish(),
    adminNotes: z.string().trim().max(4000, "Admin notes must be at most 4000 characters").nullish(),
  })
  .superRefine((input, ctx) => {
    if (input.status === "quoted" && !input.quotedAmount) ctx.addIssue({ code: "custom", path: ["quotedAmount"], message: "Quoted amount is required" });
  });
export type QuoteUpdate = z.infer<typeof quoteUpdateSchema>;

export const clientDecisionSchema = z.object({
  decision: z.enum(CLIENT_DECISIONS, { message: "decision must be accept or decline" }),
});
