// One id parser for every id in a path or a query (src/http/fields.ts, docs/decisions.md#45): text that is not an
// id's canonical decimal, or past Postgres' integer range, is a 4xx before any query, never a 500 or a 2xx.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { oas31 } from "zod-openapi";
import { buildOpenApiDocument } from "../../src/openapi.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";
import { signInHome } from "../support/home.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const BAD_IDS = ["2147483648", String(2 ** 53), "-1", "0", "1e3", "07"];

/** Ids by name; not the ones that are text by design (Stripe's session id, an audit record's key, an upload's id). */
const isIdParameter = (p: oas31.ParameterObject) =>
  (p.in === "path" || p.in === "query") && /(^id|Id)$/.test(p.name) && p.name !== "recordId";

interface IdCall {
  method: "get" | "post" | "patch" | "put" | "delete";
  path: string;
  name: string;
  in: "path" | "query";
}

function idCalls(): IdCall[] {
  const doc: oas31.OpenAPIObject = buildOpenApiDocument();
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    (["get", "post", "patch", "put", "delete"] as const).flatMap((method) =>
      ((item?.[method]?.parameters ?? []) as oas31.ParameterObject[]).filter(isIdParameter).map((p) => ({
        method,
        path: `/api${path.replace(/^\/api/, "")}`,
        name: p.name,
        in: p.in as "path" | "query",
      })),
    ),
  );
}

/** The call with `value` as this id, every other path parameter a good id. */
const urlOf = (call: IdCall, value: string) => {
  const path = call.path.replace(/{(\w+)}/g, (_, name: string) =>
    name === call.name && call.in === "path" ? value : "1",
  );
  return call.in === "query" ? `${path}?${call.name}=${encodeURIComponent(value)}` : path;
};

describe("every id of the OpenAPI document", () => {
  it("refuses an id out of range or not in canonical decimal with a 4xx, for staff and homeowners", async () => {
    const staff = (await signInStaff(ctx)).agent;
    const home = await signInHome(ctx, "ids@haven.test");
    const calls = idCalls();
    expect(calls.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const call of calls) {
      const agent = call.path.startsWith("/api/my-home/") ? home : staff;
      for (const value of BAD_IDS) {
        const url = urlOf(call, value);
        const res = await agent[call.method](url).send({});
        if (res.status < 400 || res.status >= 500) wrong.push(`${call.method.toUpperCase()} ${url} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the audit trail's person filter, in the API, its CSV and its page", async () => {
    const owner = (await signInStaff(ctx)).agent;
    for (const value of BAD_IDS)
      for (const url of [
        `/api/audit-events?actorId=${value}`,
        `/api/audit-events?actorId=${value}&format=csv`,
        `/admin/audit?actorId=${value}`,
      ]) {
        const res = await owner.get(url);
        expect(res.status, url).toBeGreaterThanOrEqual(400);
        expect(res.status, url).toBeLessThan(500);
      }
  });
});
