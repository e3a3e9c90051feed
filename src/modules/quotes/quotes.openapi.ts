import { z } from "zod";
import { idParams } from "../../http/fields.js";
import { apiCalls, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import { QUOTE_SOURCES } from "./quotes.constants.js";
import {
  type ClientQuoteItem,
  QUOTE_PRIORITIES,
  QUOTE_STATUSES,
  type QuoteRequest,
  quoteUpdateSchema,
} from "./quotes.schemas.js";

// OpenAPI entries of quotes.routes.ts; see docs/api.md.

/** quotes.routes.ts extends the staff list query inline (not exported): restated here. */
const quoteListQuery = staffListQuerySchema.extend({
  status: z.enum(QUOTE_STATUSES).optional(),
  propertyId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});

/** A quote's figures (docs/decisions.md#32, #42): null unless quotedAmount reads as one dollar figure. */
const quoteFigures = z
  .object({
    subtotalCents: z.number().int().meta({ description: "The price before tax" }),
    taxLines: z.array(
      z.object({
        kind: z.string(),
        label: z.string().meta({ description: "HST 13%, QST 9.975%" }),
        percent: z.number(),
        amountCents: z.number().int(),
      }),
    ),
    taxCents: z.number().int(),
    totalCents: z.number().int(),
  })
  .nullable()
  .meta({ id: "QuoteFigures", description: "Before tax, each tax line of the home's province and the total" });

const quoteRequest: z.ZodType<QuoteRequest> = z
  .object({
    id: idNumber,
    propertyId: idNumber,
    maintenanceTaskId: idNumber,
    propertyAddress: z.string(),
    clientName: z.string(),
    clientEmail: z.string(),
    taskTitle: z.string(),
    taskDescription: z.string().nullable(),
    status: z.enum(QUOTE_STATUSES),
    priority: z.enum(QUOTE_PRIORITIES),
    quotedAmount: z.string().nullable().meta({ description: "Free text, as staff typed it" }),
    quotedCents: z
      .number()
      .int()
      .nullable()
      .meta({ description: "quotedAmount in cents when it reads as one dollar figure" }),
    adminNotes: z.string().nullable().meta({ description: "Internal: never shown to the homeowner" }),
    clientNotes: z.string().nullable(),
    scope: z.string().nullable().meta({ description: "What will be done, shown to the homeowner" }),
    validUntil: z.string().nullable().meta({ description: "YYYY-MM-DD: the last day it can be accepted" }),
    taxProvince: z.string().meta({ description: "Stored when quoted: the home's province, else BUSINESS_PROVINCE" }),
    quotedAt: dateTimeString.nullable(),
    assigneeName: z.string().nullable().meta({ description: "Who the task is assigned to" }),
    totals: quoteFigures,
    version: z
      .number()
      .int()
      .min(1)
      .meta({ description: "Grows with every update; send it back in PATCH to refuse a stale edit" }),
    clientNotedAt: dateTimeString.meta({
      description: "When the client last added to it: made it, or asked again (the new note appended to clientNotes)",
    }),
    source: z
      .enum(QUOTE_SOURCES)
      .meta({ description: "link: a client report link's answer; portal: asked in My Home (labelled 'From My Home')" }),
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
  })
  .meta({ id: "QuoteRequest" });

const clientQuoteItem: z.ZodType<ClientQuoteItem> = z.object({
  id: idNumber,
  taskTitle: z.string(),
  taskDescription: z.string().nullable(),
  priority: z.enum(QUOTE_PRIORITIES),
  quotedAmount: z.string().nullable(),
  quotedCents: z.number().int().nullable(),
  status: z.enum(QUOTE_STATUSES),
  scope: z.string().nullable(),
  validUntil: z.string().nullable(),
  expired: z.boolean().meta({ description: "Quoted and past validUntil: it cannot be accepted" }),
  totals: quoteFigures,
  afterYes: z.string().meta({ description: "What happens after yes: when it is booked, and who comes" }),
});

export const quotesCalls = apiCalls([
  {
    method: "get",
    path: "/api/quote-requests",
    summary: "Quote requests, newest first",
    tags: ["Quote requests"],
    access: "staff",
    query: quoteListQuery,
    list: true,
    csv: true,
    responses: { 200: z.array(quoteRequest) },
  },
  {
    method: "patch",
    path: "/api/quote-requests/{id}",
    summary: "Move a quote request: Quote, Decline, Accept, Edit quote, Complete",
    description:
      "pending → quoted (with quotedAmount) or declined; quoted → accepted or quoted again; accepted → completed. Any other move is a 409. " +
      "With `version` (the one the caller read), a request changed since is a 409 `{message, current}` whose `current` is the " +
      "request as it is now, and nothing is written. Quoting (and quoting again) takes `scope` (what will be done, " +
      "shown to the homeowner) and `validUntil` (default: 30 days from today in BUSINESS_TZ; not before today), stores " +
      "the home's tax province and e-mails the homeowner once. Accepting a quote past its validUntil is a 409 " +
      "(docs/decisions.md#42).",
    tags: ["Quote requests"],
    access: "staff",
    params: idParams,
    body: quoteUpdateSchema,
    responses: { 200: quoteRequest },
    errors: [404, 409],
  },
  {
    method: "delete",
    path: "/api/quote-requests/{id}",
    summary: "Delete a quote request",
    tags: ["Quote requests"],
    access: "staff",
    params: idParams,
    responses: { 204: { description: "Deleted" } },
    errors: [404],
  },
  {
    method: "post",
    path: "/api/properties/{id}/generate-quote-report",
    summary: "Generate the property's quote report and e-mail its link to the client",
    tags: ["Quote requests"],
    access: "staff",
    params: idParams,
    responses: {
      201: {
        description: "Generated and sent",
        schema: z.object({
          reportLink: z.string(),
          items: z.array(clientQuoteItem),
          totalCents: z.number().int().nullable().meta({ description: "Before tax; each item carries its tax" }),
          clientEmail: z.string(),
        }),
      },
    },
    errors: [404, 409],
  },
]);
