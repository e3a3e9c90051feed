import { compileErrors, validate } from "@readme/openapi-parser";
// ajv comes with @readme/openapi-parser: it checks real answers against the document's own JSON Schemas.
import Ajv2020 from "ajv/dist/2020.js";
import express, { type Express } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSchema, type oas31 } from "zod-openapi";
import { buildOpenApiDocument } from "../../src/openapi.js";
import { listRoutes } from "../../src/http/routes.js";
import { loginSchema } from "../../src/modules/auth/auth.schemas.js";
import { seedDemo } from "../../seeds/demo/index.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
let doc: oas31.OpenAPIObject;
beforeAll(async () => {
  ctx = await createTestContext();
  doc = (await ctx.agent().get("/api/openapi.json").expect(200)).body;
});
afterAll(() => ctx.close());

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** Express `/api/properties/:id` → OpenAPI `/api/properties/{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

/** "METHOD /path" of every /api route the app registers, in OpenAPI form. */
const apiRoutes = (app: Express) =>
  [
    ...new Set(
      listRoutes(app)
        .filter((r) => r.path === "/api" || r.path.startsWith("/api/"))
        .map((r) => `${r.method} ${openApiPath(r.path)}`),
    ),
  ].sort();

/** "METHOD /path" of every operation in the document. */
const documented = (document: oas31.OpenAPIObject) =>
  Object.entries(document.paths ?? {})
    .flatMap(([path, item]) => METHODS.filter((m) => item?.[m]).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();

const missingAndStale = (app: Express, document: oas31.OpenAPIObject) => {
  const routes = apiRoutes(app);
  const ops = documented(document);
  return { missing: routes.filter((r) => !ops.includes(r)), stale: ops.filter((o) => !routes.includes(o)) };
};

const operations = (document: oas31.OpenAPIObject) =>
  Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item?.[m]).map((m) => ({
      key: `${m.toUpperCase()} ${path}`,
      op: item?.[m] as oas31.OperationObject,
    })),
  );

describe("GET /api/openapi.json", () => {
  it("is public and serves a valid OpenAPI 3.1 document", async () => {
    const res = await ctx.agent().get("/api/openapi.json").expect(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const result = await validate(structuredClone(res.body));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("documents every registered /api route with its method, and nothing that is not a route", () => {
    const { missing, stale } = missingAndStale(ctx.app, doc);
    expect(missing, "routes without an entry in a <module>.openapi.ts (docs/api.md)").toEqual([]);
    expect(stale, "documented calls that no route serves").toEqual([]);
    expect(documented(doc)).toEqual(
      expect.arrayContaining([
        "GET /api/plans",
        "POST /api/auth/login",
        "GET /api/properties/{id}",
        "POST /api/stripe/webhook",
      ]),
    );
  });

  it("the coverage check catches an undocumented route and a stale entry", () => {
    const app = express();
    const api = express.Router();
    api.get("/plans", (_req, res) => void res.json([]));
    api.patch("/widgets/:widgetId", (_req, res) => void res.json({}));
    app.use("/api", api);
    const { missing, stale } = missingAndStale(app, doc);
    expect(missing).toEqual(["PATCH /api/widgets/{widgetId}"]);
    expect(stale).toContain("POST /api/auth/login");
    expect(stale).not.toContain("GET /api/plans");
  });

  it("is built from the zod schemas the routes validate with", () => {
    const login = doc.paths?.["/api/auth/login"]?.post?.requestBody as oas31.RequestBodyObject;
    expect(login.content["application/json"]?.schema).toEqual(createSchema(loginSchema, { io: "input" }).schema);
    expect(login.content["application/json"]?.schema).toMatchObject({ required: ["email", "password"] });
  });

  it("gives errors the shared {message, fields?} shape, 400 wherever input is checked and 401 on staff calls", () => {
    const error = doc.components?.schemas?.Error as oas31.SchemaObject;
    expect(error).toMatchObject({ type: "object", required: ["message"] });
    expect(Object.keys(error.properties ?? {})).toEqual(["message", "fields"]);
    const refsError = (op: oas31.OperationObject, status: string) =>
      (
        (op.responses?.[status] as oas31.ResponseObject | undefined)?.content?.["application/json"]?.schema as
          | oas31.ReferenceObject
          | undefined
      )?.$ref;
    for (const { key, op } of operations(doc)) {
      const hasInput = Boolean(op.requestBody) || (op.parameters ?? []).length > 0;
      if (hasInput) expect(refsError(op, "400"), key).toBe("#/components/schemas/Error");
      const staffOnly = op.security?.length === 1 && Object.keys(op.security[0] ?? {}).length > 0;
      if (staffOnly) expect(refsError(op, "401"), key).toBe("#/components/schemas/Error");
      for (const status of Object.keys(op.responses ?? {}).filter((s) => Number(s) >= 400)) {
        expect(refsError(op, status), `${key} ${status}`).toBe("#/components/schemas/Error");
      }
    }
  });

  it("list calls that take limit/offset/q send X-Total-Count", () => {
    const lists = operations(doc).filter(({ op }) =>
      (op.parameters ?? []).some((p) => (p as oas31.ParameterObject).name === "limit"),
    );
    expect(lists.map((l) => l.key)).toEqual(expect.arrayContaining(["GET /api/properties", "GET /api/inspections"]));
    for (const { key, op } of lists) {
      const names = (op.parameters ?? []).map((p) => (p as oas31.ParameterObject).name);
      expect(names, key).toEqual(expect.arrayContaining(["limit", "offset"]));
      const ok = op.responses?.["200"] as oas31.ResponseObject;
      expect(Object.keys(ok.headers ?? {}), key).toContain("X-Total-Count");
    }
  });

  it("every operation has a summary and a tag, and its security matches the route: staff-only calls answer 401 without a session", async () => {
    const staffOnly = operations(doc).filter(
      ({ op }) => op.security?.length === 1 && Object.keys(op.security[0] ?? {}).length > 0,
    );
    expect(staffOnly.map((s) => s.key)).toEqual(
      expect.arrayContaining(["GET /api/dashboard/stats", "GET /api/inspections"]),
    );
    for (const { key, op } of operations(doc)) {
      expect(op.summary, key).toBeTruthy();
      expect(op.tags?.length, key).toBeGreaterThan(0);
    }
    for (const { key } of staffOnly) {
      const [method, path] = key.split(" ") as [string, string];
      const res = await ctx
        .agent()
        [method.toLowerCase() as "get"](path.replace(/\{\w+\}/g, "1"))
        .send({});
      expect(res.status, key).toBe(401);
    }
  });

  it("real answers match the documented response schemas (no missing, extra or mistyped field)", async () => {
    await seedDemo(ctx.container, { properties: 6, now: new Date(Date.now() - 60_000) });
    const { agent } = await signInStaff(ctx);
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(doc as object, "doc");
    const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
    const check = async (
      method: "get" | "post" | "patch",
      path: string,
      url: string,
      status: number,
      payload: object = {},
      as = agent,
    ) => {
      const res = await as[method](url).send(payload);
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
      const validator = ajv.getSchema(
        `doc#/${pointer("paths", path, method, "responses", String(status), "content", "application/json", "schema")}`,
      );
      expect(validator, `${method} ${path} documents a ${status} JSON body`).toBeTruthy();
      const ok = validator?.(res.body);
      expect(ok, `${method} ${url}: ${ajv.errorsText(validator?.errors, { separator: "\n" })}`).toBe(true);
      return res.body;
    };

    const completed = await ctx.db("inspections").where({ status: "completed" }).first("id", "property_id");
    expect(completed, "the demo seed completes an inspection").toBeTruthy();
    // The demo may have reported on it already: one report per inspection, so delete that one first.
    const previous = await ctx.db("reports").where({ inspection_id: completed.id }).first("id");
    if (previous) expect((await agent.delete(`/api/reports/${previous.id}`)).status).toBe(204);
    const report = await check(
      "post",
      "/api/inspections/{id}/generate-report",
      `/api/inspections/${completed.id}/generate-report`,
      201,
    );
    const month = new Date().toISOString().slice(0, 7);
    // A shared report, the client's answer and the quote request it makes, and a schedule: rows for those lists.
    const { reportLink } = await check("post", "/api/reports/{id}/share", `/api/reports/${report.id}/share`, 201, {
      clientEmail: "client@haven.test",
    });
    const token = new URL(reportLink, "http://x").pathname.split("/").pop() as string;
    const client = ctx.agent();
    const shared = await check("get", "/api/client-report/{token}", `/api/client-report/${token}`, 200, {}, client);
    const taskId = shared.report.reportData.recommendations[0]?.id;
    expect(taskId, "the demo's completed inspection has a recommendation").toBeTruthy();
    const responses = [{ maintenanceTaskId: taskId, action: "request_quote", notes: "Soon, please" }];
    await check(
      "post",
      "/api/client-report/{token}/responses",
      `/api/client-report/${token}/responses`,
      201,
      { responses },
      client,
    );
    const [quote] = await check("get", "/api/quote-requests", "/api/quote-requests", 200);
    await check("patch", "/api/quote-requests/{id}", `/api/quote-requests/${quote.id}`, 200, {
      status: "quoted",
      quotedAmount: "$450",
      adminNotes: "Two hours",
    });
    const schedule = { propertyId: completed.property_id, title: "Furnace filter", category: "hvac" };
    await check("post", "/api/maintenance-schedules", "/api/maintenance-schedules", 201, schedule);
    for (const path of [
      "/api/auth/user",
      "/api/plans",
      "/api/dashboard/stats",
      "/api/properties",
      "/api/inspection-bookings",
      "/api/inspections",
      "/api/reports",
      "/api/maintenance-tasks",
      "/api/maintenance-schedules",
      "/api/quote-requests",
      "/api/client-report-shares",
    ]) {
      const body = await check("get", path, path, 200);
      if (!["/api/auth/user", "/api/dashboard/stats"].includes(path)) {
        expect(body.length, `${path} has rows to check`).toBeGreaterThan(0);
      }
    }
    await check("get", "/api/maintenance-calendar", `/api/maintenance-calendar?month=${month}`, 200);
    await check("get", "/api/properties/{id}", `/api/properties/${completed.property_id}`, 200);
    await check("get", "/api/inspections/{id}", `/api/inspections/${completed.id}`, 200);
    await check("get", "/api/reports/{id}", `/api/reports/${report.id}`, 200);
    await check("get", "/api/property-history/{propertyId}", `/api/property-history/${completed.property_id}`, 200);
  });

  it("refuses a call declared twice", () => {
    const call = {
      method: "get" as const,
      path: "/api/x" as const,
      summary: "x",
      tags: ["x"],
      access: "public" as const,
      responses: {},
    };
    expect(() => buildOpenApiDocument([call, call])).toThrow(/declared twice/);
  });
});
