import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRoutes } from "../../src/http/routes.js";
import { type TestContext, createTestContext } from "../support/context.js";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

/**
 * Routes anyone may call (customer-side §2.1: the public site, checkout, intake, booking and
 * onboarding; the client's one-time report; login). Every other route needs a staff session.
 */
const PUBLIC = [
  "GET /healthz",
  "GET /",
  "GET /login",
  "POST /login",
  "POST /logout",
  "GET /api/login",
  "GET /api/auth/user",
  "POST /api/auth/login",
  "POST /api/auth/logout",
  "GET /api/plans",
];
const PUBLIC_PREFIXES: string[] = [];

const isPublic = (route: string) => PUBLIC.includes(route) || PUBLIC_PREFIXES.some((p) => route.startsWith(p));
const concrete = (path: string) => path.replace(/:(\w+)/g, "1").replace(/\*\w*/g, "x").replace(/[{}]/g, "");

describe("access control", () => {
  const routes = () => listRoutes(ctx.app).map((r) => ({ ...r, key: `${r.method} ${r.path}` }));

  it("finds the app's routes", () => {
    const keys = routes().map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(["GET /api/plans", "GET /admin", "POST /api/auth/login"]));
  });

  it("every route outside the public allowlist refuses a request without a session", async () => {
    const guarded = routes().filter((r) => !isPublic(r.key));
    expect(guarded.length).toBeGreaterThan(0);
    for (const route of guarded) {
      const agent = ctx.agent();
      const method = route.method.toLowerCase() as "get" | "post" | "patch" | "delete" | "put";
      const res = await agent[method](concrete(route.path)).send({});
      if (route.path.startsWith("/api/")) {
        expect(res.status, route.key).toBe(401);
      } else {
        expect([302, 303], route.key).toContain(res.status);
        expect(res.headers.location, route.key).toMatch(/^\/login\?next=/);
      }
    }
  });
});
