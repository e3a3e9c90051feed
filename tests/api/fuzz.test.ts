// Property-based fuzzing of every registered route: whatever the path parameters, query or
// body, Haven answers with a clear 4xx or a success, never a 5xx. Runs anonymously and as staff.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRoutes } from "../../src/http/routes.js";
import { type TestContext, createTestContext, signInStaff } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.container.plans.seed();
});
afterAll(() => ctx.close());

/** Ends the session, or holds the request open (feeds): not useful to fuzz with a shared agent. */
const SKIP = new Set(["POST /api/auth/logout", "POST /logout"]);

// Path segments a tester would try: escapes, huge and negative numbers, unicode, traversal, NUL.
const segment = fc.oneof(
  fc.constantFrom(
    "%ff",
    "%",
    "%2e%2e",
    "..",
    "-1",
    "0",
    "1",
    "99999999999999999999",
    "1e309",
    "NaN",
    "null",
    "%00",
    "é",
    "😀",
    " ",
    "a%20b",
    "1.5",
    "0x10",
    "'; drop table x;--",
  ),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.integer({ min: -5, max: 3_000_000_000 }).map(String),
);
const query = fc.dictionary(
  fc.constantFrom("q", "limit", "offset", "status", "page", "format", "month", "id", "plan", "session_id"),
  fc.oneof(fc.string({ maxLength: 8 }), fc.integer().map(String), fc.constant("%ff")),
  { maxKeys: 3 },
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      "id",
      "propertyId",
      "status",
      "email",
      "password",
      "responses",
      "clientEmail",
      "score",
      "entries",
      "startDate",
      "notes",
      "quotedAmount",
    ),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 5 },
  ),
  fc.array(
    fc.record({
      inspectionId: fc.jsonValue(),
      categoryName: fc.string(),
      subcategoryName: fc.string(),
      score: fc.jsonValue(),
    }),
    { maxLength: 3 },
  ),
);

const fill = (path: string, values: string[]) => {
  let i = 0;
  return path.replace(/:(\w+)/g, () => values[i++ % values.length] ?? "1").replace(/\*\w*/g, "x");
};

async function fuzz(agent: ReturnType<TestContext["agent"]>, label: string) {
  const routes = listRoutes(ctx.app).filter((r) => !SKIP.has(`${r.method} ${r.path}`));
  expect(routes.length).toBeGreaterThan(20);
  const failures: string[] = [];
  const slow: string[] = [];
  for (const route of routes) {
    const started = Date.now();
    const method = route.method.toLowerCase() as "get" | "post" | "patch" | "put" | "delete";
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 3 }), query, body, async (segments, q, payload) => {
        const search = new URLSearchParams(q).toString().replace(/%25ff/g, "%ff");
        const url = `${fill(route.path, segments)}${search ? `?${search}` : ""}`;
        const request = agent[method](url);
        const res =
          method === "get" || method === "delete"
            ? await request
            : await request.set("Content-Type", "application/json").send(JSON.stringify(payload ?? null));
        if (res.status >= 500)
          failures.push(`${label} ${route.method} ${url} → ${res.status} ${res.text.slice(0, 120)}`);
        return true;
      }),
      { numRuns: 5, seed: 8 },
    );
    if (Date.now() - started > 2000) slow.push(`${route.method} ${route.path} ${Date.now() - started}ms`);
  }
  if (slow.length && process.env.FUZZ_TIMINGS) console.log(slow.join("\n"));
  expect(failures).toEqual([]);
}

describe("fuzzing every route", () => {
  it("never answers 5xx to an anonymous caller", async () => {
    await fuzz(ctx.agent(), "anonymous");
  }, 300_000);

  it("never answers 5xx to a signed-in staff member", async () => {
    const { agent } = await signInStaff(ctx);
    await fuzz(agent, "staff");
  }, 300_000);
});
