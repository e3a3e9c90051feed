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
  // Probes for load balancers and orchestrators; /metrics is guarded by METRICS_TOKEN or loopback, not a session
  "GET /livez",
  "GET /readyz",
  "GET /metrics",
  // Marketing site
  "GET /",
  "GET /pricing",
  "GET /haven-health-report",
  "GET /health-report-explainer",
  "GET /sample-report",
  "GET /contact",
  "GET /maintenance-hub",
  "GET /free-report",
  "GET /report-expired",
  "GET /client-report/:id",
  "GET /robots.txt",
  "GET /sitemap.xml",
  // Staff login
  "GET /login",
  "POST /login",
  "POST /logout",
  "GET /api/login",
  "GET /api/auth/user",
  "POST /api/auth/login",
  "POST /api/auth/logout",
  // A staff invitation's or reset's link: the token in it is the proof (docs/decisions.md#38)
  "GET /staff/set-password",
  "POST /staff/set-password",
  // My Day's offline scripts: code, never data (the page itself needs a staff session)
  "GET /my-day-sw.js",
  "GET /my-day.js",
  // Plans, checkout and payment (customers have no login: the payment itself is the proof)
  "GET /api/plans",
  "POST /api/create-checkout-session",
  "GET /api/verify-payment",
  "GET /api/checkout/quote",
  "POST /api/create-payment-intent",
  "POST /api/demo/confirm-payment",
  "POST /api/stripe/webhook",
  "POST /checkout/start",
  "GET /checkout",
  "GET /payment-success",
  "GET /demo-checkout/:sessionId",
  // Intake, scheduling, booking and onboarding: filtered to the session's own records
  "GET /property-intake",
  "POST /api/customers",
  "GET /api/properties",
  "GET /api/properties/:id",
  "GET /api/inspection-bookings",
  "POST /api/inspection-bookings",
  // The free times the wizard and the booking page offer (docs/decisions.md#37)
  "GET /api/inspection-bookings/availability",
  "GET /schedule",
  "GET /schedule-inspection",
  "GET /book-inspection",
  "GET /booking-confirmation",
  "GET /onboarding",
  "GET /onboarding-flow",
  "POST /api/onboarding",
  // The OpenAPI document: the API's shape, never data (docs/api.md)
  "GET /api/openapi.json",
  // One-time client links: the token and the browser's binding cookie are the proof
  "GET /client-report/:token",
  "GET /api/client-report/:token",
  "POST /api/client-report/:token/responses",
  "GET /api/client-report/:token/photos/:photoId",
  "GET /quote-report/:token",
  "POST /quote-report/:token/items/:id",
  // An accepted quote's pay link (docs/decisions.md#43): the token e-mailed to the homeowner is the proof
  "GET /quote-pay/:token",
  "GET /quote-pay/:token/invoice.pdf",
  "POST /api/quote-pay/:token",
  "POST /api/quote-pay/:token/confirm",
  // The staff calendar feed: calendar apps cannot log in; the rotatable secret in the URL is the proof
  "GET /calendar/feed/:file",
  // A homeowner's private calendar feed: the same kind of rotatable secret, one per homeowner
  "GET /my-home/calendar/feed/:file",
  // My Home sign-in: the forms and calls that sign a homeowner in, and sign-out (harmless without a session).
  "GET /my-home/sign-in",
  "POST /my-home/sign-in",
  "POST /my-home/sign-in/code",
  "GET /my-home/sign-in/:token",
  "POST /my-home/sign-in/:token",
  "POST /my-home/sign-out",
  "POST /my-home/sign-out-everywhere",
  "POST /api/my-home/sign-in",
  "POST /api/my-home/passkey-sign-in/options",
  "POST /api/my-home/passkey-sign-in",
];
// A subscription's billing page and its calls: the signed, expiring token in the path is the proof.
const PUBLIC_PREFIXES: string[] = ["GET /billing/", "POST /billing/", "GET /api/billing/", "POST /api/billing/"];

const isPublic = (route: string) => PUBLIC.includes(route) || PUBLIC_PREFIXES.some((p) => route.startsWith(p));
const concrete = (path: string) =>
  path
    .replace(/:(\w+)/g, "1")
    .replace(/\*\w*/g, "x")
    .replace(/[{}]/g, "");

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
        // My Home's pages send a homeowner to their own sign-in; staff pages to the staff login.
        expect(res.headers.location, route.key).toMatch(
          route.path.startsWith("/my-home") ? /^\/my-home\/sign-in\?next=/ : /^\/login\?next=/,
        );
      }
    }
  });
});
