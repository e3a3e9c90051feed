// The role table (docs/decisions.md#36): which staff roles may call each route, and what an inspector may touch
// only when it is theirs. src/http/roles.ts compiles it and enforces it on every request.
/** Staff roles (docs/decisions.md#36). */
export type StaffRole = "owner" | "office" | "inspector";

/** What an inspector may touch only when it is theirs: the id in the path names it. */
export type OwnedKind = "inspection" | "report" | "task" | "photo" | "property" | "booking";

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
  // The bookings desk (docs/decisions.md#58): the office's and the owner's.
  "GET /admin/bookings": office(BOOKINGS),
  "GET /admin/bookings/:id/reschedule": office(BOOKINGS),
  "POST /admin/bookings/:id/assign": office(BOOKINGS),
  "POST /admin/bookings/:id/reschedule": office(BOOKINGS),
  "POST /admin/bookings/:id/cancel": office(BOOKINGS),
  // The door code of a visit: an inspector only for a booking given to them (docs/decisions.md#38).
  "GET /api/inspection-bookings/:id/access-code": everyone(
    "read the door codes of other inspectors' visits",
    "booking",
  ),

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
  "POST /admin/notifications/seen": office(QUOTES),
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
  "POST /api/subscriptions/:id/retry-payment": office(BILLING),
  "POST /api/subscriptions/:id/card-update-link": office(BILLING),
  "POST /api/subscriptions/:id/service-requests": office(BILLING),
  "GET /api/invoices": office(BILLING),
  "GET /api/invoices/:id": office(BILLING),
  "GET /api/invoices/:id/pdf": office(BILLING),
  "POST /api/invoices/:id/refund": owner(REFUNDS),
  // A refund's credit note: as its invoice's PDF (docs/decisions.md#52).
  "GET /api/refunds/:id/pdf": office(BILLING),
  "POST /api/invoices/:id/resend-receipt": office(BILLING),
  "GET /api/tax-report": owner(TAX),
  "GET /admin/subscriptions": office(BILLING),
  "GET /admin/subscriptions/:id": office(BILLING),
  "POST /admin/subscriptions/:id/cancel": office(BILLING),
  "POST /admin/subscriptions/:id/resume": office(BILLING),
  "POST /admin/subscriptions/:id/change-plan": office(BILLING),
  "POST /admin/subscriptions/:id/retry-payment": office(BILLING),
  "POST /admin/subscriptions/:id/card-update-link": office(BILLING),
  "POST /admin/subscriptions/:id/service-request": office(BILLING),
  "POST /admin/subscriptions/:id/refund": owner(REFUNDS),
  "GET /admin/invoices": office(BILLING),
  "GET /admin/invoices/:id": office(BILLING),
  "POST /admin/invoices/:id/refund": owner(REFUNDS),
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
export const prefixRuleOf = (path: string): RoleRule | undefined =>
  ROLE_PREFIX_RULES.find(({ prefix }) =>
    prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`),
  )?.rule;

/** The rule of a route as registered ("GET", "/api/reports/:id"), or undefined when it has none. */
export function ruleOf(method: string, path: string): RoleRule | undefined {
  return ROLE_RULES[`${method} ${path}`] ?? prefixRuleOf(path);
}
