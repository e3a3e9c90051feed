import path from "node:path";
import compression from "compression";
import express, { type Express } from "express";
import type { Container } from "./container.js";
import { PUBLIC_BUILD_DIR, ROOT_DIR } from "./http/assets.js";
import { ADMIN_SECTIONS, staffPage } from "./http/admin.js";
import { csrfGuard } from "./http/csrf.js";
import { securityHeaders } from "./http/security-headers.js";
import { enforceRoles, routesWithoutRule } from "./http/roles.js";
import { inspectorOwnership, inspectorPropertyIds } from "./http/ownership.repository.js";
import { listRoutes } from "./http/routes.js";
import { publicHostGuard, publicOrigin } from "./http/origin.js";
import { noStoreForPersonalData } from "./http/cache-control.js";
import { errorHandler, malformedUrlGuard, notFoundHandler } from "./http/errors.js";
import { openApiRouter } from "./openapi.js";
import { pageRendering } from "./http/render.js";
import { sessionMiddleware, sessionOptions, staffSessionCheck } from "./http/session.js";
import { authApi, authPages } from "./modules/auth/auth.routes.js";
import { auditApi, auditPages } from "./modules/audit/audit.routes.js";
import { notificationsApi, notificationsPages } from "./modules/notifications/index.js";
import { auditActor } from "./modules/audit/index.js";
import { staffAccountsApi, staffAccountsPages } from "./modules/auth/staff-accounts.routes.js";
import { staffPasskeysApi, twoStepGate, twoStepPages } from "./modules/auth/two-step.routes.js";
import { pagesRouter } from "./modules/pages/pages.routes.js";
import { plansApi } from "./modules/plans/plans.routes.js";
import { checkoutApi, checkoutFormActions, checkoutPages } from "./modules/payments/checkout.routes.js";
import { customersApi, customersPages } from "./modules/customers/customers.routes.js";
import { bookingsApi, bookingsPages } from "./modules/bookings/bookings.routes.js";
import { bookingsDeskPages } from "./modules/bookings/bookings-desk.routes.js";
import { onboardingApi, onboardingPages } from "./modules/onboarding/onboarding.routes.js";
import { inspectionsApi, inspectionsPages } from "./modules/inspections/inspections.routes.js";
import { dashboardApi, dashboardPages } from "./modules/dashboard/dashboard.routes.js";
import { propertiesAdminPages } from "./modules/customers/properties-admin.routes.js";
import { photoBodyParsers, photosApi } from "./modules/inspections/photos.routes.js";
import { entriesApi } from "./modules/inspections/entries.routes.js";
import { inspectionFormPages } from "./modules/inspections/form.routes.js";
import { sharingApi, sharingPages } from "./modules/sharing/sharing.routes.js";
import { quotesApi, quotesPages } from "./modules/quotes/quotes.routes.js";
import { quotePaymentsRoutes } from "./modules/quotes/quote-payments.routes.js";
import { maintenanceApi, maintenancePages } from "./modules/maintenance/maintenance.routes.js";
import { reportsApi, reportsPages } from "./modules/reports/reports.routes.js";
import { billingApi, billingPages } from "./modules/subscriptions/billing.routes.js";
import { subscriptionsApi } from "./modules/subscriptions/subscriptions.routes.js";
import { paymentRecoveryApi } from "./modules/subscriptions/payment-recovery.routes.js";
import { invoicesApi } from "./modules/invoices/invoices.routes.js";
import { taxReportPages } from "./modules/invoices/tax-report.routes.js";
import { subscriptionsAdminPages } from "./modules/subscriptions/subscriptions-admin.routes.js";
import { homeSession } from "./modules/my-home/home-session.js";
import { MyDayRepository, myDayPages } from "./modules/my-day/index.js";
import { myHomeRoutes } from "./modules/my-home/my-home.routes.js";
import type { Lifecycle } from "./observability/health.js";
import { withRequestId } from "./observability/logger.js";
import { httpMetrics } from "./observability/metrics.js";
import { type OpsOptions, opsOnTheirPaths, opsRouter } from "./observability/ops.routes.js";
import { requestLog } from "./observability/request-log.js";
import { DEMO_CUSTOMER } from "./modules/payments/index.js";
import { pastDueProperties, propertySubscription } from "./modules/subscriptions/index.js";
import { canonicalPath } from "./http/canonical-path.js";
import { localeFromAddress } from "./i18n/middleware.js";
import { createRouter } from "./http/router.js";
import { clockFormat } from "./shared/business-time.js";

export interface AppOptions {
  /** Shared with boot's shutdown: /readyz turns 503 when it says the process is draining. */
  lifecycle?: Lifecycle;
  /** The in-process worker's pg pool, reported by /metrics. */
  workerPool?: OpsOptions["workerPool"];
  /** Tests only: English pages render in the pseudo locale (tests/support/pseudo-locale.ts). */
  pseudoLocale?: boolean;
}

/** The Express app, without listen(): server.ts serves it and the tests drive it with supertest. */
export function createApp(container: Container, options: AppOptions = {}): Express {
  const { env } = container;
  const app = express();
  app.disable("x-powered-by");
  // One spelling per path: exact case and trailing slash, as every router of src/http/router.ts (docs/decisions.md#45).
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  app.set("trust proxy", env.TRUST_PROXY);
  app.set("view engine", "ejs");
  app.set("views", path.join(ROOT_DIR, "views"));
  if (env.NODE_ENV !== "development") app.set("view cache", true); // development shows an edited view at once

  app.locals.config = {
    contactPhone: env.CONTACT_PHONE,
    contactEmail: env.CONTACT_EMAIL,
    supportEmail: env.SUPPORT_EMAIL,
    // Open Graph wants absolute URLs; never the request's Host, which would end up in the page cache.
    publicUrl: publicOrigin(env),
    // Every customer page says so while no card can be charged (views/partials/_demo-banner.ejs).
    demoPayments: env.PAYMENTS_MODE === "demo",
  };
  app.locals.assets = () => container.assets();
  app.locals.adminSections = ADMIN_SECTIONS;
  // A date and time for a page, in the one time style ("2:00 PM", docs/decisions.md#60); one format per options,
  // not one per row of a list.
  const clockFormats = new Map<string, ReturnType<typeof clockFormat>>();
  app.locals.clockTime = (instant: string | Date, options: Intl.DateTimeFormatOptions) => {
    const key = JSON.stringify(options);
    if (!clockFormats.has(key)) clockFormats.set(key, clockFormat(options));
    return clockFormats.get(key)!.format(new Date(instant));
  };

  app.use(httpMetrics());
  app.use(malformedUrlGuard);
  // Before any guard reads the path: other spellings are redirected (pages) or refused (the API).
  app.use(canonicalPath);
  // Then the language: /fr/<page> is routed as /<page> in French, before any guard reads the path (docs/decisions.md#65).
  app.use(localeFromAddress({ timeZone: env.BUSINESS_TZ, pseudo: options.pseudoLocale }));
  app.use(requestLog(container.log));
  // The request id follows the request's async work, so a crash it causes is logged with it.
  app.use((req, _res, next) => withRequestId(String(req.id), next));
  // Probes and scrapes come before the Host guard: a load balancer or Prometheus names the container, not PUBLIC_URL.
  app.use(
    opsOnTheirPaths(
      opsRouter(container, {
        lifecycle: options.lifecycle ?? { draining: false },
        checkAssets: true,
        workerPool: options.workerPool,
      }),
    ),
  );
  // In production a request must name PUBLIC_URL's host (or a loopback one): a forged Host builds nothing.
  if (env.NODE_ENV === "production") app.use(publicHostGuard(env.PUBLIC_URL));
  app.use(securityHeaders({ formActions: checkoutFormActions(env), https: env.NODE_ENV === "production" }));
  const pages = pageRendering();
  app.use(pages.serveCached);
  app.use(compression());

  // Hashed build output never changes under its name: cache it for a year.
  app.use(
    "/assets",
    express.static(path.join(PUBLIC_BUILD_DIR, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }),
  );
  // Other public files (favicon, robots…) all have an extension: pages skip the disk look-up.
  const publicFiles = express.static(PUBLIC_BUILD_DIR, { index: false, maxAge: "1h" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  // Before the body parsers, so even a malformed body gets a full error page.
  app.use(pages.renderer);
  // Stripe signs the exact bytes it sent: keep the webhook's body raw (express.json then skips it).
  app.use("/api/stripe/webhook", express.raw({ type: "*/*", limit: "1mb" }));
  // The session needs no body: it is read first, so only a live staff session may send a large one.
  app.use(
    sessionMiddleware(sessionOptions(env.SESSION_SECRET, env.NODE_ENV === "production"), env.SESSION_SECRETS_PREVIOUS),
  );
  app.use(staffSessionCheck((token) => container.auth.resolve(token)));
  // While an owner requires two-step sign-in, staff without an app reach only the page adding one.
  app.use(twoStepGate(container.twoStep));
  // The rest of a staff request runs as "staff:<id>": the audit trail's actor (src/modules/audit/README.md).
  app.use(auditActor);
  // The homeowner's own cookie (haven_home): res.locals.home; it never reads or grants the staff session.
  app.use(homeSession({ homeAuth: container.homeAuth, settings: { secure: env.NODE_ENV === "production" } }));
  // Photos and inspection entries take bigger bodies (image bytes, data URLs): parsed first, for staff only.
  app.use(photoBodyParsers());
  app.use(express.json({ limit: "1mb" }));
  app.use(express.urlencoded({ extended: false, limit: "1mb" }));
  app.use(
    csrfGuard({
      exempt: ["/api/stripe/webhook"],
      publicOrigin: env.PUBLIC_URL,
      allowLoopback: env.NODE_ENV !== "production",
    }),
  );
  app.use(noStoreForPersonalData);
  // Each staff request is checked against its role's rule (docs/decisions.md#36, src/http/roles.ts).
  const owns = inspectorOwnership(container.db);
  app.use(enforceRoles(owns));

  // What the plans, payments and subscriptions routes use (their …Deps), from the container.
  const checkout = {
    payments: container.payments,
    plans: container.plans,
    publicOrigin: publicOrigin(env),
    // /checkout prefills the postal code of the home this browser entered (docs/decisions.md#57).
    homePostalCode: async (customerIds: number[]) =>
      (await container.customers.listProperties({ kind: "customer", customerIds })).at(-1)?.postalCode ?? null,
  };
  const billing = {
    subscriptions: container.subscriptions,
    plans: container.plans,
    settings: {
      sessionSecrets: [env.SESSION_SECRET, ...env.SESSION_SECRETS_PREVIOUS],
      publicUrl: env.PUBLIC_URL,
      supportEmail: env.SUPPORT_EMAIL,
      supportPhone: env.CONTACT_PHONE,
      timeZone: env.BUSINESS_TZ,
    },
  };
  const subscriptionsStaff = {
    subscriptions: container.subscriptions,
    planDeliveries: container.planServices,
    exports: container.invoiceSide.subscriptionExport,
  };
  // What the auth, customers, bookings, inspections, reports, onboarding, dashboard and pages routes use
  // (their …Deps); what a module learns from a higher layer arrives as a function (docs/architecture.md).
  const staffShell = staffPage(container);
  const customersApiDeps = {
    customers: container.customers,
    transaction: container.transaction,
    requirePaid: (checkoutId: string, email: string) => container.payments.requirePaid(checkoutId, email),
    attachSubscription: (
      checkoutId: string,
      ids: { customerId: number; propertyId: number },
      tx: Parameters<typeof container.subscriptions.attachToProperty>[2],
    ) => container.subscriptions.attachToProperty(checkoutId, ids, tx),
    inspectorPropertyIds: inspectorPropertyIds(container.db),
  };
  const bookingsDeps = {
    bookings: container.bookings,
    idempotency: container.idempotency,
    settings: { supportEmail: env.SUPPORT_EMAIL, supportPhone: env.CONTACT_PHONE },
  };
  const onboardingDeps = {
    onboarding: container.onboarding,
    bookings: container.bookings,
    idempotency: container.idempotency,
  };
  const dashboardDeps = {
    dashboard: container.dashboard,
    subscriptions: container.subscriptions,
    staffPage: staffShell,
    timeZone: env.BUSINESS_TZ,
  };

  const api = createRouter();
  api.use(authApi({ auth: container.auth }));
  const staffAccountsDeps = {
    accounts: container.staffAccounts,
    staffPage: staffShell,
    timeZone: env.BUSINESS_TZ,
    twoStep: container.twoStep,
  };
  api.use(staffAccountsApi(staffAccountsDeps));
  api.use(plansApi({ plans: container.plans }));
  api.use(checkoutApi(checkout));
  api.use(customersApi(customersApiDeps));
  api.use(bookingsApi(bookingsDeps));
  api.use(onboardingApi(onboardingDeps));
  api.use(inspectionsApi({ inspections: container.inspections }));
  api.use(dashboardApi(dashboardDeps));
  api.use(photosApi({ photos: container.photos }));
  api.use(staffPasskeysApi({ passkeys: container.staffPasskeys }));
  api.use(
    entriesApi({
      inspections: container.inspections,
      photos: container.photos,
      inspectorOwnsPhoto: (photoId, staffUserId) => owns("photo", photoId, staffUserId),
    }),
  );
  // Quotes, sharing, maintenance and My Home: their services and the settings their routes need.
  const linkSettings = {
    secure: env.NODE_ENV === "production",
    publicUrl: publicOrigin(env),
    timeZone: env.BUSINESS_TZ,
  };
  const quotesDeps = {
    quotes: container.quotes,
    notifications: container.notifications,
    staffPage: staffShell,
    settings: linkSettings,
  };
  const maintenanceDeps = {
    maintenance: container.maintenance,
    staffPage: staffShell,
    users: container.users,
    bookings: container.bookings,
  };
  const myHome = myHomeRoutes({
    homeAuth: container.homeAuth,
    visits: container.homeVisits,
    records: container.homeRecords,
    homeAccess: container.homeAccess,
    planPage: container.homePlan,
    staffPage: staffShell,
    settings: {
      secure: linkSettings.secure,
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
      timeZone: env.BUSINESS_TZ,
      supportEmail: env.SUPPORT_EMAIL,
      supportPhone: env.CONTACT_PHONE,
    },
  });
  api.use(sharingApi({ sharing: container.sharing, settings: linkSettings }));
  api.use(quotesApi(quotesDeps));
  // Paying an accepted quote from My Home or its e-mailed link (docs/decisions.md#43); My Home's session is read here.
  const quotePay = quotePaymentsRoutes({
    payments: container.quotePayments,
    homeEmail: (res) => (res.locals.home as { email: string } | null | undefined)?.email ?? null,
    ownedPropertyIds: (email) => container.homeAccess.propertyIds(email),
    staffPage: staffShell,
    staffOptions: async () =>
      (await container.users.list())
        .filter((u) => !u.disabled)
        .map((u) => ({ id: u.id, name: `${u.firstName} ${u.lastName}`.trim() || u.email })),
    settings: { stripeMode: env.PAYMENTS_MODE === "stripe", publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? null },
  });
  api.use(quotePay.api);
  api.use(maintenanceApi(maintenanceDeps));
  api.use(reportsApi({ reports: container.reports }));
  api.use(billingApi(billing));
  api.use(subscriptionsApi(subscriptionsStaff));
  api.use(paymentRecoveryApi(subscriptionsStaff));
  api.use(
    invoicesApi({
      invoices: container.invoiceSide.invoices,
      taxReport: container.invoiceSide.taxReport,
      timeZone: env.BUSINESS_TZ,
    }),
  );
  api.use(myHome.api);
  api.use(openApiRouter());
  const auditDeps = { audit: container.audit, staffPage: staffShell, timeZone: env.BUSINESS_TZ };
  api.use(auditApi(auditDeps));
  const notificationsDeps = { notifications: container.notifications, staffPage: staffShell };
  api.use(notificationsApi(notificationsDeps));
  app.use("/api", api);
  app.use(auditPages(auditDeps));
  app.use(notificationsPages(notificationsDeps));

  app.use(authPages({ auth: container.auth }));
  app.use(staffAccountsPages(staffAccountsDeps));
  app.use(twoStepPages({ twoStep: container.twoStep, staffPage: staffShell }));
  app.use(
    myDayPages({
      visits: new MyDayRepository(container.db),
      startInspection: async (propertyId, staffUserId, date) =>
        (await container.inspections.create({ propertyId, inspectionDate: date }, staffUserId)).id,
      staffPage: staffShell,
      timeZone: env.BUSINESS_TZ,
    }),
  );
  app.use(pagesRouter({ plans: container.plans, publicUrl: publicOrigin(env) }));
  app.use(checkoutPages(checkout));
  app.use(customersPages({ demoCustomer: DEMO_CUSTOMER }));
  app.use(bookingsPages(bookingsDeps));
  app.use(bookingsDeskPages({ bookings: container.bookings, staffPage: staffShell, timeZone: env.BUSINESS_TZ }));
  app.use(onboardingPages(onboardingDeps));
  app.use(
    inspectionsPages({
      inspections: container.inspections,
      generateReport: (id) => container.reports.generate(id),
      staffPage: staffShell,
      bookedNotStarted: (inspectorId) => container.dashboard.bookedNotStarted(inspectorId),
      timeZone: env.BUSINESS_TZ,
    }),
  );
  app.use(dashboardPages(dashboardDeps));
  app.use(
    propertiesAdminPages({
      customers: container.customers,
      bookingsByProperty: (ids) => container.bookings.byProperty(ids),
      subscriptionOf: (propertyId) => propertySubscription(container, propertyId),
      pastDueOf: (ids) => pastDueProperties(container, ids),
      homeLastSignedIn: (email) => container.homeAuth.lastSignedIn(email),
      timeZone: env.BUSINESS_TZ,
      staffPage: staffShell,
    }),
  );
  app.use(
    inspectionFormPages({
      bookingsBetween: (from, to) => container.bookings.listBetween(from, to),
      reportIdOf: async (inspectionId) => (await container.reports.findByInspection(inspectionId))?.id ?? null,
      timeZone: env.BUSINESS_TZ,
      staffPage: staffShell,
    }),
  );
  app.use(sharingPages({ sharing: container.sharing }));
  app.use(quotesPages(quotesDeps));
  app.use(quotePay.pages);
  app.use(maintenancePages(maintenanceDeps));
  app.use(reportsPages({ reports: container.reports, customers: container.customers, staffPage: staffShell }));
  app.use(billingPages(billing));
  app.use(
    subscriptionsAdminPages({
      ...subscriptionsStaff,
      plans: container.plans,
      users: container.users,
      staffPage: staffPage(container),
      timeZone: env.BUSINESS_TZ,
      invoices: container.invoiceSide.invoices,
    }),
  );
  app.use(
    taxReportPages({ taxReport: container.invoiceSide.taxReport, staffPage: staffShell, timeZone: env.BUSINESS_TZ }),
  );
  app.use(myHome.pages);

  app.use(notFoundHandler);
  app.use(errorHandler);
  // A route without a role rule is closed to all but owners; outside production it is also logged as an error, and
  // tests/api/roles.test.ts fails (docs/decisions.md#36).
  const unruled = env.NODE_ENV === "production" ? [] : routesWithoutRule(listRoutes(app));
  if (unruled.length) container.log.error({ routes: unruled }, "routes without a role rule in src/http/roles.ts");
  return app;
}
