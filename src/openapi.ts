import { readFileSync } from "node:fs";
import path from "node:path";
import type { Router } from "express";
import { z } from "zod";
import {
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
  createDocument,
  type oas31,
} from "zod-openapi";
import { auditCalls } from "./modules/audit/audit.openapi.js";
import { notificationsCalls } from "./modules/notifications/notifications.openapi.js";
import { authCalls } from "./modules/auth/auth.openapi.js";
import { staffAccountsCalls } from "./modules/auth/staff-accounts.openapi.js";
import { bookingsCalls } from "./modules/bookings/bookings.openapi.js";
import { customersCalls } from "./modules/customers/customers.openapi.js";
import { dashboardCalls } from "./modules/dashboard/dashboard.openapi.js";
import { entriesCalls, inspectionsCalls, photosCalls } from "./modules/inspections/inspections.openapi.js";
import { maintenanceCalls } from "./modules/maintenance/maintenance.openapi.js";
import { onboardingCalls } from "./modules/onboarding/onboarding.openapi.js";
import { plansCalls } from "./modules/plans/plans.openapi.js";
import { checkoutCalls } from "./modules/payments/checkout.openapi.js";
import { quotesCalls } from "./modules/quotes/quotes.openapi.js";
import { quotePaymentsCalls } from "./modules/quotes/quote-payments.openapi.js";
import { reportsCalls } from "./modules/reports/reports.openapi.js";
import { sharingCalls } from "./modules/sharing/sharing.openapi.js";
import { subscriptionsCalls } from "./modules/subscriptions/subscriptions.openapi.js";
import { billingCalls } from "./modules/subscriptions/billing.openapi.js";
import { invoicesCalls } from "./modules/invoices/invoices.openapi.js";
import { homeSignInCalls } from "./modules/my-home/home-sign-in.openapi.js";
import { homeVisitsCalls } from "./modules/my-home/visits.openapi.js";
import { myHomeCalls } from "./modules/my-home/my-home.openapi.js";
import { ROOT_DIR } from "./http/assets.js";
import { csvFormatField } from "./http/csv.js";
import {
  type ApiCall,
  ERROR_DESCRIPTIONS,
  type ErrorStatus,
  apiCalls,
  errorBody,
  totalCountHeader,
} from "./http/openapi.kit.js";
import { SESSION_COOKIE } from "./http/session.js";
import { createRouter } from "./http/router.js";

// GET /api/openapi.json: the OpenAPI 3.1 document of every JSON call, built from the zod schemas the
// routes validate with. Each module lists its calls in <module>.openapi.ts; a new module adds one line
// to MODULE_CALLS. tests/api/openapi.test.ts fails when a registered /api route is not documented.

const documentCalls = apiCalls([
  {
    method: "get",
    path: "/api/openapi.json",
    summary: "This OpenAPI 3.1 document",
    description: "Public: it documents the API's shape, never data. Built once per process.",
    tags: ["Documentation"],
    access: "public",
    responses: { 200: { description: "The OpenAPI document", schema: z.object({ openapi: z.string() }).loose() } },
  },
]);

/** Every module's calls, in the order the document lists its tags. */
const MODULE_CALLS: ApiCall[][] = [
  authCalls,
  staffAccountsCalls,
  plansCalls,
  checkoutCalls,
  customersCalls,
  bookingsCalls,
  onboardingCalls,
  dashboardCalls,
  inspectionsCalls,
  entriesCalls,
  photosCalls,
  reportsCalls,
  sharingCalls,
  quotesCalls,
  quotePaymentsCalls,
  maintenanceCalls,
  subscriptionsCalls,
  invoicesCalls,
  billingCalls,
  homeSignInCalls,
  homeVisitsCalls,
  myHomeCalls,
  auditCalls,
  notificationsCalls,
  documentCalls,
];

const SECURITY_SCHEME = "session";

const staffTotalCountHeader = z.object({
  "X-Total-Count": totalCountHeader.shape["X-Total-Count"]
    .optional()
    .meta({ description: "Staff sessions: the full count of matching rows (all pages)" }),
});

function responsesOf(call: ApiCall): ZodOpenApiResponsesObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, answer] of Object.entries(call.responses)) {
    const response = "_zod" in answer ? { schema: answer as z.ZodType } : answer;
    const count = call.list === "staff" ? staffTotalCountHeader : totalCountHeader;
    const headers =
      call.list && status === "200"
        ? response.headers
          ? count.extend(response.headers.shape)
          : count
        : response.headers;
    responses[status as `2${string}`] = {
      description: response.description ?? "OK",
      ...(headers && { headers }),
      ...(response.schema && {
        content: {
          [response.contentType ?? "application/json"]: { schema: response.schema },
          ...(call.csv &&
            status === "200" && {
              "text/csv": {
                schema: z.string().meta({
                  description: "With format=csv: a header row of the JSON field names, then every matching row",
                }),
              },
            }),
        },
      }),
    };
  }
  const errors = new Set<ErrorStatus>(call.errors ?? []);
  if (call.params || call.query || call.body || call.bodyContent || call.headers) errors.add(400);
  if (call.access === "staff") errors.add(401);
  for (const status of [...errors].sort((a, b) => a - b)) {
    responses[`${status}` as `4${string}`] = {
      description: ERROR_DESCRIPTIONS[status],
      content: { "application/json": { schema: errorBody } },
    };
  }
  return responses;
}

function operationOf(call: ApiCall): ZodOpenApiOperationObject {
  const requestParams = {
    ...(call.params && { path: call.params }),
    ...(call.query && { query: call.csv ? call.query.extend({ format: csvFormatField }) : call.query }),
    ...(call.headers && { header: call.headers }),
  };
  const bodies = call.bodyContent ?? (call.body && { [call.bodyContentType ?? "application/json"]: call.body });
  const content = bodies && Object.fromEntries(Object.entries(bodies).map(([type, schema]) => [type, { schema }]));
  return {
    operationId: `${call.method}${call.path.replace(/^\/api/, "").replace(/[^A-Za-z0-9]+(\w?)/g, (_m, c: string) => c.toUpperCase())}`,
    summary: call.summary,
    ...(call.description && { description: call.description }),
    tags: call.tags,
    ...(Object.keys(requestParams).length && { requestParams }),
    ...(content && { requestBody: { required: true, content } }),
    responses: responsesOf(call),
    // staff: the session is required; session: optional, it only narrows what the answer holds.
    ...(call.access === "staff" && { security: [{ [SECURITY_SCHEME]: [] }] }),
    ...(call.access === "session" && { security: [{}, { [SECURITY_SCHEME]: [] }] }),
    ...(call.access === "public" && { security: [] }),
  };
}

const version = () => {
  try {
    return (
      (JSON.parse(readFileSync(path.join(ROOT_DIR, "package.json"), "utf8")) as { version?: string }).version ?? "0.0.0"
    );
  } catch {
    return "0.0.0";
  }
};

/** The document for these calls (all modules' by default). Throws when a method and path are declared twice. */
export function buildOpenApiDocument(calls: ApiCall[] = MODULE_CALLS.flat()): oas31.OpenAPIObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const call of calls) {
    const item = paths[call.path] ?? {};
    paths[call.path] = item;
    if (item[call.method]) throw new Error(`OpenAPI: ${call.method.toUpperCase()} ${call.path} is declared twice`);
    item[call.method] = operationOf(call);
  }
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Haven API",
      version: version(),
      description:
        "The JSON API of Haven (docs/api.md). Errors are `{message, fields?}`. List calls return a JSON array, " +
        "newest first, take optional `limit` (default 100, at most 500), `offset` and `q`, and send the full count in `X-Total-Count`.",
    },
    servers: [{ url: "/", description: "This server" }],
    // Viewers list the tags in this order: the modules' order in MODULE_CALLS.
    tags: [...new Set(calls.flatMap((call) => call.tags))].map((name) => ({ name })),
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "apiKey",
          in: "cookie",
          name: SESSION_COOKIE,
          description:
            "Sealed session cookie: staff get it from POST /api/auth/login; customers from checkout, intake and onboarding.",
        },
      },
    },
    paths,
  });
  normaliseParameters(document);
  return document;
}

const LIST_PARAMETERS: Record<string, string> = {
  limit: "Page size: default 100, at most 500",
  offset: "Rows to skip (default 0)",
  q: "Search text",
};

/**
 * A path parameter is always required (OpenAPI), even when its schema preprocesses an absent value; the
 * list convention's parameters read the same everywhere, whatever schema declared them.
 */
function normaliseParameters(document: oas31.OpenAPIObject) {
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      for (const param of ((op as oas31.OperationObject).parameters ?? []) as oas31.ParameterObject[]) {
        if (param.in === "path") param.required = true;
        if (param.in === "query" && !param.description && LIST_PARAMETERS[param.name])
          param.description = LIST_PARAMETERS[param.name];
      }
    }
  }
}

let cached: string | undefined;

/** The document as JSON text, built on first use and kept for the life of the process. */
export const openApiJson = () => (cached ??= JSON.stringify(buildOpenApiDocument()));

export function openApiRouter(): Router {
  const router = createRouter();
  router.get("/openapi.json", (_req, res) => {
    res.type("application/json").set("Cache-Control", "public, max-age=300").send(openApiJson());
  });
  return router;
}
