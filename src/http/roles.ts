import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ForbiddenError } from "./errors.js";
import { isApiPath } from "./errors.js";
import { wantsCsv } from "./csv.js";
import { MAX_ID, parseId } from "./fields.js";

/** Staff roles (docs/decisions.md#36). */
export type StaffRole = "owner" | "office" | "inspector";

/** What an inspector may touch only when it is theirs: the id in the path names it. */
export type OwnedKind = "inspection" | "report" | "task" | "photo" | "property";

export interface StaffRule {
  roles: readonly StaffRole[];
  /** Said in the 403: "Your role (inspector) cannot <what>." */
  what: string;
  /** For an inspector: the path's `:id` (or the body's inspectionId) must name their own inspection, report or task. */
  own?: OwnedKind;
  /** Where the id is: the path's `:id` (default), or the body's `inspectionId` (the form's entries). */
  ownFrom?: "path" | "body";
}

/** No staff rule: public, or guarded by the route's own proof (customer cookie, homeowner session, token). */
export const ANYONE = "anyone" as const;
export type RoleRule = typeof ANYONE | StaffRule;

const ALL: readonly StaffRole[] = ["owner", "office", "inspector"];
const OFFICE: readonly StaffRole[] = ["owner", "office"];
const OWNER: readonly StaffRole[] = ["owner"];

/** Every role; an inspector's lists are scoped to their own work (inspectorScopeOf). */
const everyone = (what: string, own?: OwnedKind, ownFrom?: "body"): StaffRule => ({ roles: ALL, what, own, ownFrom });
const office = (what: string): StaffRule => ({ roles: OFFICE, what });
const owner = (what: string): StaffRule => ({ roles: OWNER, what });

const CUSTOMERS = "work with customers and properties";
const BOOKINGS = "change bookings";
const QUOTES = "work with quotes and client requests";
const SHARING = "share reports";
const SCHEDULES = "manage maintenance schedules";
const BILLING = "see subscriptions, invoices or billing";
const REVENUE = "see revenue figures";
const REFUNDS = "refund payments";
const TAX = "see the tax report";
const DELETE_REPORTS = "delete reports";
const STAFF = "manage staff accounts";

/**
 * Every route the app registers, "METHOD /path" as Express knows it, and who may call it
 * (docs/decisions.md#36). tests/api/roles.test.ts fails on a route missing here, and the app refuses to
 * start outside production with one (assertEveryRouteHasARule).
 */
export const ROLE_RULES: Readonly<Record<string, RoleRule>> = {
  // Probes, the public site, login, checkout, intake and the customer's booking: no staff rule.
  "GET /livez": ANYONE,
  "GET /readyz": ANYONE,
  "GET /healthz": ANYONE,
  "GET /metrics": ANYONE,
  "GET /api/auth/user": ANYONE,
  "POST /api/auth/login": ANYONE,
  "POST /api/auth/logout": ANYONE,
  "GET /api/login": ANYONE,
  "GET /login": ANYONE,
  "POST /login": ANYONE,
  "POST /logout": ANYONE,
  "GET /api/plans": ANYONE,
  "POST /api/create-checkout-session": ANYONE,
  "GET /api/checkout/quote": ANYONE,
  "GET /api/verify-payment": ANYONE,
  "POST /api/create-payment-intent": ANYONE,
  "POST /api/demo/confirm-payment": ANYONE,
  "POST /api/stripe/webhook": ANYONE,
  "POST /api/customers": ANYONE,
  "GET /api/inspection-bookings/availability": ANYONE,
  "POST /api/onboarding": ANYONE,
  "GET /api/openapi.json": ANYONE,
  "GET /": ANYONE,
  "GET /pricing": ANYONE,
  "GET /haven-health-report": ANYONE,
  "GET /health-report-explainer": ANYONE,
  "GET /sample-report": ANYONE,
  "GET /contact": ANYONE,
  "GET /maintenance-hub": ANYONE,
  "GET /free-report": ANYONE,
  "GET /report-expired": ANYONE,
  "GET /robots.txt": ANYONE,
  "GET /sitemap.xml": ANYONE,
  "POST /checkout/start": ANYONE,
  "GET /checkout": ANYONE,
  "GET /demo-checkout/:sessionId": ANYONE,
  "GET /payment-success": ANYONE,
  "GET /property-intake": ANYONE,
  "GET /schedule": ANYONE,
  "GET /schedule-inspection": ANYONE,
  "GET /book-inspection": ANYONE,
  "GET /booking-confirmation": ANYONE,
  "GET /onboarding": ANYONE,
  "GET /onboarding-flow": ANYONE,
  // One-time client links and the calendar feeds: the token or secret is the proof.
  "GET /api/client-report/:token": ANYONE,
  "POST /api/client-report/:token/responses": ANYONE,
  "GET /api/client-report/:token/photos/:photoId": ANYONE,
  "GET /client-report/:token": ANYONE,
  "GET /quote-report/:token": ANYONE,
  "POST /quote-report/:token/items/:id": ANYONE,
  // An accepted quote's pay link (docs/decisions.md#43): the token is the proof.
  "GET /quote-pay/:token": ANYONE,
  "GET /quote-pay/:token/invoice.pdf": ANYONE,
  "POST /api/quote-pay/:token": ANYONE,
  "POST /api/quote-pay/:token/confirm": ANYONE,
  "GET /calendar/feed/:file": ANYONE,
  // A staff invitation's or reset's link: the token in it is the proof (docs/decisions.md#38).
  "GET /staff/set-password": ANYONE,
  "POST /staff/set-password": ANYONE,

  // Customers and properties. The list and one property also answer a customer's own records; staff of every
  // role may read them (the inspection form picks a property), an inspector only the homes of their own bookings
  // and inspections (the list is filtered by customers.routes.ts), and exports nothing (no CSV).
  "GET /api/properties": everyone(CUSTOMERS),
  "GET /api/properties/:id": everyone("open the homes of other inspectors' visits", "property"),
  "PATCH /api/properties/:id": office(CUSTOMERS),
  "POST /api/properties/:id/send-sign-in-link": office(CUSTOMERS),
  "GET /admin/properties": office(CUSTOMERS),
  "GET /admin/properties-simple": office(CUSTOMERS),
  "GET /admin/properties/:id": office(CUSTOMERS),
  "GET /admin/properties/:id/edit": office(CUSTOMERS),
  "POST /admin/properties/:id": office(CUSTOMERS),
  "POST /admin/properties/:id/send-sign-in-link": office(CUSTOMERS),
  "GET /admin/property-history/:propertyId": office(CUSTOMERS),
  "GET /api/property-history/:propertyId": office(CUSTOMERS),

  // Bookings: an inspector reads their own; the office books, moves and reassigns.
  "GET /api/inspectors": office(BOOKINGS),
  "GET /api/inspection-bookings": everyone(BOOKINGS),
  "POST /api/inspection-bookings": office(BOOKINGS),
  "PATCH /api/inspection-bookings/:id": office(BOOKINGS),

  // Inspections, the form, photos and entries: an inspector works on their own.
  "GET /api/inspections": everyone("see inspections"),
  "POST /api/inspections": everyone("start inspections"),
  "GET /api/inspections/:id": everyone("open another inspector's inspection", "inspection"),
  "PATCH /api/inspections/:id": everyone("change another inspector's inspection", "inspection"),
  "POST /api/photos": everyone("add photos"),
  "GET /api/photos/:id": everyone("see another inspector's photos", "photo"),
  "GET /api/photos/:id/thumbnail": everyone("see another inspector's photos", "photo"),
  "POST /api/inspection-categories": everyone("fill in another inspector's inspection", "inspection", "body"),
  "POST /api/inspection-categories/bulk-complete": everyone(
    "fill in another inspector's inspection",
    "inspection",
    "body",
  ),
  "GET /admin/inspections": everyone("see inspections"),
  "GET /admin/inspections/new": everyone("start inspections"),
  "GET /admin/inspections/view/:id": everyone("open another inspector's inspection", "inspection"),
  "GET /admin/inspections/edit/:id": everyone("open another inspector's inspection", "inspection"),
  "POST /admin/inspections/:id/generate-report": everyone("report on another inspector's inspection", "inspection"),
  "POST /api/inspections/:id/generate-report": everyone("report on another inspector's inspection", "inspection"),

  // Reports: an inspector reads the reports of their inspections; sharing and deleting are the office's.
  "GET /api/reports": everyone("see reports"),
  "GET /api/reports/:id": everyone("open another inspector's report", "report"),
  "GET /api/reports/:id/pdf": everyone("open another inspector's report", "report"),
  "DELETE /api/reports/:id": office(DELETE_REPORTS),
  "GET /admin/reports": everyone("see reports"),
  "GET /admin/reports/:id": everyone("open another inspector's report", "report"),
  "POST /admin/reports/generate": office("generate reports of other inspectors' work"),
  "POST /admin/reports/:id/delete": office(DELETE_REPORTS),
  "POST /api/reports/:id/share": office(SHARING),
  "GET /api/client-report-shares": office(SHARING),

  // Quotes and client requests (the header bell's list).
  "GET /api/quote-requests": office(QUOTES),
  "PATCH /api/quote-requests/:id": office(QUOTES),
  "DELETE /api/quote-requests/:id": office(QUOTES),
  "POST /api/properties/:id/generate-quote-report": office(QUOTES),
  "GET /api/quotes-to-book": office(QUOTES),
  "GET /admin/quotes-to-book": office(QUOTES),
  "GET /admin/quote-requests": office(QUOTES),
  "GET /admin/notifications": office(QUOTES),
  "POST /admin/notifications/read": office(QUOTES),
  "GET /api/notifications": office(QUOTES),
  "POST /api/notifications/read": office(QUOTES),

  // Maintenance: an inspector sees and works the tasks assigned to them; the office plans schedules.
  "GET /api/maintenance-tasks": everyone("see maintenance tasks"),
  "PATCH /api/maintenance-tasks/:id": everyone("change a task assigned to someone else", "task"),
  "GET /api/maintenance-tasks/:id/ics": everyone("open a task assigned to someone else", "task"),
  "GET /api/maintenance-schedules": office(SCHEDULES),
  "POST /api/maintenance-schedules": office(SCHEDULES),
  "GET /api/maintenance-calendar": everyone("see the calendar"),
  "GET /admin/maintenance-schedule": everyone("see the calendar"),

  // My Day: each staff user's own visits of the day, and its offline scripts (the page reads its own bookings).
  "GET /admin/my-day": everyone("open My Day"),
  // Each staff user's own authenticator app (docs/decisions.md#38).
  "GET /admin/account/two-step": everyone("set up two-step sign-in"),
  "POST /admin/account/two-step/start": everyone("set up two-step sign-in"),
  "POST /admin/account/two-step/confirm": everyone("set up two-step sign-in"),
  "POST /admin/account/two-step/remove": everyone("set up two-step sign-in"),
  "GET /api/auth/passkeys": everyone("set up two-step sign-in"),
  "POST /api/auth/passkeys/options": everyone("set up two-step sign-in"),
  "POST /api/auth/passkeys": everyone("set up two-step sign-in"),
  "DELETE /api/auth/passkeys/:id": everyone("set up two-step sign-in"),
  "POST /admin/my-day/:bookingId/start": everyone("start inspections"),
  "GET /my-day-sw.js": ANYONE,
  "GET /my-day.js": ANYONE,

  // Dashboard: every role opens the page; an inspector's shows no revenue (src/modules/dashboard).
  "GET /admin": everyone("open the dashboard"),
  "GET /admin/dashboard": everyone("open the dashboard"),
  "GET /api/dashboard/stats": office("see the dashboard's figures"),

  // Subscriptions, invoices and billing: the office's, except refunds, revenue and tax (the owner's).
  "GET /api/subscriptions": office(BILLING),
  "GET /api/subscriptions/metrics": owner(REVENUE),
  "GET /api/subscriptions/:id": office(BILLING),
  "POST /api/subscriptions/:id/cancel": office(BILLING),
  "POST /api/subscriptions/:id/resume": office(BILLING),
  "POST /api/subscriptions/:id/change-plan": office(BILLING),
  "POST /api/subscriptions/:id/service-requests": office(BILLING),
  "GET /api/invoices": office(BILLING),
  "GET /api/invoices/:id": office(BILLING),
  "GET /api/invoices/:id/pdf": office(BILLING),
  "POST /api/invoices/:id/refund": owner(REFUNDS),
  "POST /api/invoices/:id/resend-receipt": office(BILLING),
  "GET /api/tax-report": owner(TAX),
  "GET /admin/subscriptions": office(BILLING),
  "GET /admin/subscriptions/:id": office(BILLING),
  "POST /admin/subscriptions/:id/cancel": office(BILLING),
  "POST /admin/subscriptions/:id/resume": office(BILLING),
  "POST /admin/subscriptions/:id/change-plan": office(BILLING),
  "POST /admin/subscriptions/:id/service-request": office(BILLING),
  "POST /admin/subscriptions/:id/refund": owner(REFUNDS),
  "GET /admin/invoices": office(BILLING),
  "POST /admin/invoices/:id/resend-receipt": office(BILLING),
  "GET /admin/tax": owner(TAX),
};

/**
 * Whole areas under one rule, every method and path below the prefix: the billing page's signed links and
 * My Home (the homeowner's own session), and the owner's staff accounts and audit trail (docs/decisions.md#38,
 * #39), whose routes are still being added.
 */
const ROLE_PREFIX_RULES: readonly { prefix: string; rule: RoleRule }[] = [
  { prefix: "/billing/", rule: ANYONE },
  { prefix: "/api/billing/", rule: ANYONE },
  { prefix: "/my-home", rule: ANYONE },
  { prefix: "/api/my-home/", rule: ANYONE },
  // Each staff user's own account (their second sign-in step): every role, for themselves only.
  { prefix: "/admin/account", rule: everyone("change this account") },
  { prefix: "/admin/staff", rule: owner(STAFF) },
  { prefix: "/api/staff-users", rule: owner(STAFF) },
  { prefix: "/admin/audit", rule: owner("read the audit trail") },
  { prefix: "/api/audit-events", rule: owner("read the audit trail") },
];

/** "/admin/staff" covers itself and what is below it; "/billing/" only what is below it. */
const prefixRuleOf = (path: string): RoleRule | undefined =>
  ROLE_PREFIX_RULES.find(({ prefix }) =>
    prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
  )?.rule;

/** The rule of a route as registered ("GET", "/api/reports/:id"), or undefined when it has none. */
export function ruleOf(method: string, path: string): RoleRule | undefined {
  return ROLE_RULES[`${method} ${path}`] ?? prefixRuleOf(path);
}

interface CompiledRule {
  method: string;
  pattern: RegExp;
  keys: string[];
  rule: RoleRule;
}

const literal = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * "/api/reports/:id" → a regular expression with one group per parameter (Express 5 paths of this app), by exact
 * case and without a trailing slash, as the routers route (src/http/router.ts).
 */
function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return literal(segment);
      keys.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}$`), keys };
}

// Paths with fewer parameters first, as Express's order has them: "/api/subscriptions/metrics" before ":id".
const COMPILED: CompiledRule[] = Object.entries(ROLE_RULES)
  .map(([key, rule]) => {
    const [method, path] = key.split(" ") as [string, string];
    return { method, rule, ...compile(path) };
  })
  .sort((a, b) => a.keys.length - b.keys.length);

/** The rule of a request (its method and path), with the path's parameters. */
function ruleOfRequest(method: string, path: string): { rule: RoleRule; params: Record<string, string> } | undefined {
  // HEAD is answered by the GET route.
  const m = method === "HEAD" ? "GET" : method;
  // Exact paths before patterns: "/api/inspection-bookings/availability" is not ":id".
  const exact = ROLE_RULES[`${m} ${path}`];
  if (exact) return { rule: exact, params: {} };
  for (const c of COMPILED) {
    if (c.method !== m) continue;
    const found = c.pattern.exec(path);
    if (found) return { rule: c.rule, params: Object.fromEntries(c.keys.map((k, i) => [k, decoded(found[i + 1])])) };
  }
  const rule = prefixRuleOf(path);
  return rule && { rule, params: {} };
}

/** A parameter as the router hands it to the route: decoded once (the URL's escapes are valid: malformedUrlGuard). */
const decoded = (value: string | undefined) => decodeURIComponent(value ?? "");

/** Whether an inspector owns the inspection, report or task of this id (the container answers from Postgres). */
type OwnershipCheck = (kind: OwnedKind, id: number, staffUserId: number) => Promise<boolean>;

declare global {
  namespace Express {
    interface Request {
      /** Set for an inspector: lists, exports and the calendar show only this staff user's work. */
      inspectorScope?: number;
    }
  }
}

/** The staff user whose work an inspector's lists are limited to; undefined for the office and the owner. */
export const inspectorScopeOf = (req: Request): number | undefined => req.inspectorScope;

/** Whether this role may call this method and path (ownership aside): pages hide the links and buttons it may not. */
export function mayCall(role: string, method: string, path: string): boolean {
  const found = ruleOfRequest(method, path);
  if (!found) return role === "owner";
  return found.rule === ANYONE || found.rule.roles.includes(role as StaffRole);
}

/** Whether this role may open a page at this path: the sidebar and header hide the others. */
export const mayOpen = (role: string, path: string): boolean => mayCall(role, "GET", path);

/**
 * Whether this role sees revenue figures (Total Revenue, MRR) in any page or call: the roles of the revenue
 * call's rule, owner(REVENUE) (docs/decisions.md#36).
 */
export const maySeeRevenue = (role: string): boolean => mayCall(role, "GET", "/api/subscriptions/metrics");

const roleRefusal = (role: string, what: string) => `Your role (${role}) cannot ${what}.`;

/**
 * After the staff-session check: a staff request is looked up in ROLE_RULES and refused with a 403 (JSON for
 * /api, the error page otherwise) when the user's role is not listed, when an inspector asks for a CSV export,
 * or names someone else's inspection, report or task. A staff request for a path with no rule is refused for
 * every role but the owner (a new route stays closed until it has one).
 */
export function enforceRoles(owns: OwnershipCheck): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const user = req.staffUser;
    if (!user) return next();
    const role = user.role as StaffRole;
    if (role === "inspector") req.inspectorScope = user.id;
    const found = ruleOfRequest(req.method, req.path);
    if (!found) {
      if (role === "owner") return next();
      return refuse(req, res, next, roleRefusal(role, "open this page"));
    }
    const { rule, params } = found;
    if (rule === ANYONE) return next();
    if (!rule.roles.includes(role)) return refuse(req, res, next, roleRefusal(role, rule.what));
    if (role !== "inspector") return next();
    if (req.method === "GET" && wantsCsvSafe(req)) return refuse(req, res, next, roleRefusal(role, "export to CSV"));
    if (rule.own) {
      const raw = rule.ownFrom === "body" ? inspectionIdIn(req.body) : params.id;
      // An id that names no record, or names it in another spelling, is refused here rather than left to the
      // route: the check and the route must read the same id (docs/decisions.md#45).
      const id =
        typeof raw === "number" && Number.isSafeInteger(raw) ? (raw > 0 && raw <= MAX_ID ? raw : null) : parseId(raw);
      if (id === null) {
        if (rule.ownFrom === "body" && raw === undefined) return next();
        return refuse(req, res, next, roleRefusal(role, rule.what));
      }
      if (!(await owns(rule.own, id, user.id))) return refuse(req, res, next, roleRefusal(role, rule.what));
    }
    next();
  };
}

/** The inspection the form's entries name: one entry or the first of a list (the route refuses mixed ones). */
const inspectionIdIn = (body: unknown): unknown => {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first && typeof first === "object" ? (first as { inspectionId?: unknown }).inspectionId : undefined;
};

const wantsCsvSafe = (req: Request) => {
  try {
    return wantsCsv(req);
  } catch {
    return false;
  }
};

function refuse(req: Request, res: Response, next: NextFunction, message: string) {
  // htmx fragments and the API get the message as JSON; a page gets the error page with it.
  if (isApiPath(req.path) || req.get("hx-request") === "true") return void res.status(403).json({ message });
  next(new ForbiddenError(message));
}

/** Outside production the app refuses to start with a route that has no rule (docs/decisions.md#36). */
export function routesWithoutRule(routes: readonly { method: string; path: string }[]): string[] {
  return routes.filter((r) => ruleOf(r.method, r.path) === undefined).map((r) => `${r.method} ${r.path}`);
}
