import { z } from "zod";
import { apiCalls, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { QUOTE_PRIORITIES, QUOTE_SOURCES, QUOTE_STATUSES } from "../quotes/quotes.constants.js";
import { propertyIdParams } from "../reports/reports.schemas.js";
import {
  PHOTO_PARAMS,
  askQuoteSchema,
  type HomeProperty,
  type HomeQuote,
  type HomeRecommendation,
  type HomeReportItem,
  homeIdParams,
} from "./my-home.schemas.js";

// OpenAPI entries of My Home's JSON calls; see src/modules/my-home/README.md. Each helper adds its section.
// Every call needs the homeowner's `haven_home` session (401 without one) and answers 404 for anything not theirs.

// --- Records: Home, Reports, Quotes (records.routes.ts) ---

const TAG = "My Home";
const band = z
  .string()
  .nullable()
  .meta({ description: "The client label of the score (Excellent … Critical), null without a score" });

const recommendation: z.ZodType<HomeRecommendation> = z
  .object({
    id: idNumber.meta({ description: "The recommendation's id, which is its maintenance task's id" }),
    propertyId: idNumber,
    reportId: idNumber.nullable(),
    title: z.string(),
    description: z.string().nullable(),
    priority: z.enum(["high", "medium", "low"]),
    status: z.string().meta({ description: "The task's status: pending while open" }),
    quote: z
      .object({ id: idNumber, status: z.enum(QUOTE_STATUSES) })
      .nullable()
      .meta({ description: "The task's open quote request" }),
  })
  .meta({ id: "HomeRecommendation" });

const property: z.ZodType<HomeProperty> = z
  .object({
    id: idNumber,
    address: z.string(),
    addressLine: z.string().meta({ example: "Ottawa, ON K1S 2B4" }),
    planType: z.string().nullable(),
    latestReport: z
      .object({ id: idNumber, createdAt: dateTimeString, overallScore: z.number().int().nullable() })
      .nullable(),
    currentScore: z.number().int().nullable().meta({ description: "The latest scored inspection's score" }),
    band,
    colour: z.enum(["green", "yellow", "red"]).nullable(),
    trend: z
      .number()
      .int()
      .nullable()
      .meta({ description: "Latest score minus the previous one; null with fewer than two" }),
    openRecommendations: z.array(recommendation).meta({ description: "Open recommendations, high priority first" }),
    pastDue: z.boolean().meta({ description: "The plan's last payment failed" }),
  })
  .meta({ id: "HomeProperty" });

const reportItem: z.ZodType<HomeReportItem> = z
  .object({
    id: idNumber,
    propertyId: idNumber,
    address: z.string(),
    addressLine: z.string(),
    createdAt: dateTimeString,
    inspectionDate: z.string().nullable(),
    overallScore: z.number().int().nullable(),
    band,
    shared: z.boolean().meta({ description: "Shared to this e-mail for someone else's home: that report alone" }),
  })
  .meta({ id: "HomeReportItem" });

const quote: z.ZodType<HomeQuote> = z
  .object({
    id: idNumber,
    propertyId: idNumber,
    propertyAddress: z.string(),
    maintenanceTaskId: idNumber,
    taskTitle: z.string(),
    taskDescription: z.string().nullable(),
    status: z.enum(QUOTE_STATUSES),
    priority: z.enum(QUOTE_PRIORITIES),
    quotedAmount: z.string().nullable(),
    quotedCents: z.number().int().nullable(),
    clientNotes: z.string().nullable(),
    source: z.enum(QUOTE_SOURCES).meta({ description: "link: a report link's answer; portal: asked in My Home" }),
    createdAt: dateTimeString,
    updatedAt: dateTimeString,
    scope: z.string().nullable().meta({ description: "What will be done" }),
    validUntil: z.string().nullable().meta({ description: "YYYY-MM-DD: the last day it can be accepted" }),
    expired: z.boolean().meta({ description: "Quoted and past validUntil: it cannot be accepted (409)" }),
    totals: z
      .object({
        subtotalCents: z.number().int(),
        taxLines: z.array(
          z.object({ kind: z.string(), label: z.string(), percent: z.number(), amountCents: z.number().int() }),
        ),
        taxCents: z.number().int(),
        totalCents: z.number().int(),
      })
      .nullable()
      .meta({ description: "Before tax, each tax line of the home's province, the total; null for a range" }),
    afterYes: z.string().meta({ description: "What happens after yes: when it is booked, and who comes" }),
  })
  .meta({ id: "HomeQuote", description: "A quote request as the homeowner sees it: never staff notes" });

const reportPayload = z
  .object({
    report: z.object({
      id: idNumber,
      createdAt: dateTimeString,
      overallScore: z.number().int().nullable(),
      reportData: z.object({}).loose(),
    }),
    property: z.object({
      id: idNumber,
      address: z.string(),
      city: z.string(),
      province: z.string().nullable(),
      postalCode: z.string(),
      clientName: z.string(),
    }),
    shared: z.boolean(),
    items: z.record(
      z.string(),
      z.object({ status: z.string(), quote: z.object({ id: idNumber, status: z.enum(QUOTE_STATUSES) }).nullable() }),
    ),
    pdf: z.object({ full: z.string(), summary: z.string() }),
  })
  .meta({
    id: "HomeReport",
    description: "The client report view's payload (the client whitelist of the snapshot, photos under My Home)",
  });

export const myHomeCalls = apiCalls([
  {
    method: "get",
    path: "/api/my-home/properties",
    summary: "The homeowner's properties",
    description:
      "Each home with its latest score, band and trend, open recommendations by priority and whether the plan is past due.",
    tags: [TAG],
    access: "public",
    responses: { 200: z.array(property) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/my-home/properties/{propertyId}/history",
    summary: "A property's history",
    description:
      "Scores over time and what changed between the latest two inspections. Own properties only (404 otherwise, also for a home whose report was only shared).",
    tags: [TAG],
    access: "public",
    params: propertyIdParams,
    responses: { 200: z.object({}).loose().meta({ description: "PropertyHistory (reports/history.ts)" }) },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/api/my-home/reports",
    summary: "The homeowner's reports",
    description: "Every report of their properties and the reports shared to their e-mail, newest first.",
    tags: [TAG],
    access: "public",
    responses: { 200: z.array(reportItem) },
    errors: [401],
  },
  {
    method: "get",
    path: "/api/my-home/reports/{id}",
    summary: "One report in the client view",
    description:
      "Not one-time: readable as often as wanted while signed in. `items` says where each recommendation of their own home stands.",
    tags: [TAG],
    access: "public",
    params: homeIdParams,
    responses: { 200: reportPayload },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/api/my-home/reports/{id}/photos/{photoId}",
    summary: "A photo of a report",
    description:
      "Only a photo the report shows (404 otherwise). The PDFs are at /my-home/reports/{id}/pdf[?format=summary].",
    tags: [TAG],
    access: "public",
    params: PHOTO_PARAMS,
    responses: {
      200: { description: "The image", contentType: "image/jpeg", schema: z.string().meta({ format: "binary" }) },
    },
    errors: [401, 404],
  },
  {
    method: "get",
    path: "/api/my-home/quotes",
    summary: "The homeowner's quote requests",
    description: "Every status; quoted ones (awaiting an answer) first, then newest.",
    tags: [TAG],
    access: "public",
    responses: { 200: z.array(quote) },
    errors: [401],
  },
  {
    method: "post",
    path: "/api/my-home/quotes/{id}/accept",
    summary: "Accept a quoted item",
    description:
      "Only a quoted item (409 otherwise), and not past its validUntil (409 'This quote expired on …; ask us for a new one'); " +
      "its task is scheduled, as from the quote report.",
    tags: [TAG],
    access: "public",
    params: homeIdParams,
    responses: { 200: quote },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/quotes/{id}/decline",
    summary: "Decline a quoted item",
    description: "Only a quoted item (409 otherwise).",
    tags: [TAG],
    access: "public",
    params: homeIdParams,
    responses: { 200: quote },
    errors: [401, 404, 409],
  },
  {
    method: "post",
    path: "/api/my-home/quote-requests",
    summary: "Ask for a quote",
    description:
      "On an open recommendation (or any open task) of their own home: a quote request marked `source: portal`, which staff see at once " +
      "('From My Home'). 201 when new; 200 when the item already had an open request, which gets the note appended. 409 for a done or cancelled item.",
    tags: [TAG],
    access: "public",
    body: askQuoteSchema,
    responses: { 200: quote, 201: quote },
    errors: [401, 404, 409],
  },
]);
