import { z } from "zod";
import { apiCalls, binary, dateTimeString, idNumber } from "../../http/openapi.kit.js";
import { pathId } from "../../http/fields.js";
import { staffListQuerySchema } from "../customers/customers.schemas.js";
import {
  type ClientReportPayload,
  RESPONSE_ACTIONS,
  type ShareSummary,
  idParamsSchema,
  responsesInputSchema,
  shareInputSchema,
} from "./sharing.schemas.js";

// OpenAPI entries of sharing.routes.ts; see docs/api.md.

/** sharing.routes.ts checks the token and photo id inline (not exported): restated here. */
const tokenParams = z.object({ token: z.string().max(200).meta({ description: "The one-time link's token" }) });
const photoParams = tokenParams.extend({ photoId: pathId("Photo id") });

const priority = z.enum(["high", "medium", "low"]);
const clientCategory = z.object({
  categoryName: z.string(),
  score: z.number().nullable(),
  subcategoryCount: z.number().int(),
});
const clientRecommendation = z.object({
  id: idNumber.meta({ description: "The maintenance task's id: a response's maintenanceTaskId" }),
  category: z.string(),
  subcategory: z.string(),
  description: z.string(),
  notes: z.string(),
  score: z.number().nullable(),
  priority,
  urgency: z.string(),
  photos: z
    .array(z.string())
    .meta({ description: "Photo URLs under this link: /api/client-report/{token}/photos/{photoId}" }),
  said: z.object({ subcategory: z.string(), description: z.string() }).optional().meta({
    description: "The point's name and the description in the Accept-Language asked (fr-CA); absent in English",
  }),
});

const clientReport: z.ZodType<ClientReportPayload> = z
  .object({
    report: z.object({
      id: idNumber,
      createdAt: dateTimeString,
      overallScore: z.number().nullable(),
      reportData: z.object({
        overallScore: z.number().nullable(),
        summary: z.object({
          highPriority: z.number().int(),
          mediumPriority: z.number().int(),
          lowPriority: z.number().int(),
          totalIssues: z.number().int(),
          overallScore: z.number().nullable(),
        }),
        allCategories: z.array(clientCategory),
        categories: z.array(clientCategory),
        recommendations: z.array(clientRecommendation),
        issues: z.array(clientRecommendation),
      }),
    }),
    share: z.object({
      clientEmail: z.string(),
      createdAt: dateTimeString,
      expiresAt: dateTimeString,
      respondedAt: dateTimeString.nullable(),
      responses: z.array(
        z.object({ maintenanceTaskId: idNumber, action: z.enum(RESPONSE_ACTIONS), notes: z.string().nullable() }),
      ),
    }),
    property: z.object({
      id: idNumber,
      address: z.string(),
      city: z.string(),
      province: z.string().nullable(),
      postalCode: z.string(),
      clientName: z.string(),
    }),
  })
  .meta({ id: "ClientReport", description: "What the client sees: never staff-only fields" });

const shareSummary: z.ZodType<ShareSummary> = z
  .object({
    id: idNumber,
    reportId: idNumber,
    propertyId: idNumber,
    propertyAddress: z.string(),
    clientEmail: z.string(),
    createdAt: dateTimeString,
    openedAt: dateTimeString.nullable(),
    respondedAt: dateTimeString.nullable(),
    expiresAt: dateTimeString,
    revoked: z.boolean(),
    status: z.enum(["unopened", "opened", "responded", "expired", "revoked"]),
  })
  .meta({ id: "ShareSummary" });

const LINK_RULE =
  "The first view claims the link for this browser (an httpOnly cookie); any other browser, or an expired or revoked link, gets 410.";

export const sharingCalls = apiCalls([
  {
    method: "post",
    path: "/api/reports/{id}/share",
    summary: "Share a report: a new one-time link, e-mailed to the client",
    tags: ["Sharing"],
    access: "staff",
    params: idParamsSchema,
    body: shareInputSchema,
    responses: {
      201: {
        description: "Shared",
        schema: z.object({ reportLink: z.string(), testLink: z.string().meta({ description: "Same as reportLink" }) }),
      },
    },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/client-report-shares",
    summary: "Report links, newest first",
    tags: ["Sharing"],
    access: "staff",
    query: staffListQuerySchema,
    list: true,
    responses: { 200: z.array(shareSummary) },
  },
  {
    method: "get",
    path: "/api/client-report/{token}",
    summary: "The client's report, by its one-time link (no login)",
    description: `${LINK_RULE} The token \`sample\` is the fixed marketing sample: any browser, any number of times.`,
    tags: ["Client report"],
    access: "public",
    params: tokenParams,
    responses: { 200: clientReport },
    errors: [404, 410],
  },
  {
    method: "post",
    path: "/api/client-report/{token}/responses",
    summary: "The client's responses: request a quote for, or ignore, each recommendation",
    description: `${LINK_RULE} Responses are taken once (409 after). Notes are kept only with request_quote. The sample (\`sample\`) is read-only: 403.`,
    tags: ["Client report"],
    access: "public",
    params: tokenParams,
    body: responsesInputSchema,
    responses: {
      201: {
        description: "Recorded",
        schema: z.object({ recorded: z.number().int(), quoteRequests: z.number().int() }),
      },
    },
    errors: [403, 404, 409, 410],
  },
  {
    method: "get",
    path: "/api/client-report/{token}/photos/{photoId}",
    summary: "A photo of the shared report, under its link",
    description: LINK_RULE,
    tags: ["Client report"],
    access: "public",
    params: photoParams,
    responses: { 200: { description: "The image", contentType: "image/*", schema: binary } },
    errors: [404, 410],
  },
]);
