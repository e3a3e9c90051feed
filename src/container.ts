import type { Knex } from "knex";
import type { Logger } from "pino";
import { createLogger } from "./observability/logger.js";
import { type BusinessSettings, type Env, businessSettings } from "./config/env.js";
import { type Assets, loadAssets } from "./http/assets.js";
import { type TransactionRunner, transactionRunner } from "./db/transaction.js";
import { AuditRepository } from "./modules/audit/audit.repository.js";
import { AuditLog } from "./modules/audit/audit.service.js";
import { Notifications, NotificationsRepository } from "./modules/notifications/index.js";
import { CustomersRepository } from "./modules/customers/customers.repository.js";
import { CustomersService } from "./modules/customers/customers.service.js";
import type { UsersService } from "./modules/auth/users.service.js";
import type { AuthService } from "./modules/auth/auth.service.js";
import { createStaffAuth } from "./modules/auth/staff-auth.wiring.js";
import { LoginAttemptsRepository } from "./modules/auth/login-attempts.repository.js";
import type { StaffAccountsService } from "./modules/auth/staff-accounts.service.js";
import type { TwoStepService } from "./modules/auth/two-step.service.js";
import type { StaffPasskeys } from "./modules/auth/staff-passkeys.service.js";
import { IDEMPOTENCY_WINDOW_HOURS, IdempotencyService } from "./db/idempotency.js";
import { PlansRepository } from "./modules/plans/plans.repository.js";
import { PlansService } from "./modules/plans/plans.service.js";
import { createPaymentProvider } from "./modules/payments/payment-providers.js";
import { PaymentsRepository } from "./modules/payments/payments.repository.js";
import { PaymentsService } from "./modules/payments/payments.service.js";
import { BookingsRepository } from "./modules/bookings/bookings.repository.js";
import { BookingsService } from "./modules/bookings/bookings.service.js";
import { InspectorsRepository } from "./modules/bookings/inspectors.repository.js";
import { InspectorsService } from "./modules/bookings/inspectors.service.js";
import { MailService, mailSettingsFrom } from "./modules/mail/mail.service.js";
import { OnboardingService } from "./modules/onboarding/onboarding.service.js";
import { MaintenanceRepository } from "./modules/maintenance/maintenance.repository.js";
import { MaintenanceService } from "./modules/maintenance/maintenance.service.js";
import { SharingRepository } from "./modules/sharing/sharing.repository.js";
import { SharingService } from "./modules/sharing/sharing.service.js";
import { QuotesRepository } from "./modules/quotes/quotes.repository.js";
import { QuotesService } from "./modules/quotes/quotes.service.js";
import { InspectionsRepository } from "./modules/inspections/inspections.repository.js";
import { InspectionsService } from "./modules/inspections/inspections.service.js";
import { PhotosRepository } from "./modules/inspections/photos.repository.js";
import { PhotosService } from "./modules/inspections/photos.service.js";
import { DashboardRepository } from "./modules/dashboard/dashboard.repository.js";
import { DashboardService } from "./modules/dashboard/dashboard.service.js";
import { ReportsRepository } from "./modules/reports/reports.repository.js";
import { ReportsService } from "./modules/reports/reports.service.js";
import { ErasureRepository } from "./modules/privacy/erasure.repository.js";
import { ExportRepository } from "./modules/privacy/export.repository.js";
import { PurgeRepository } from "./modules/privacy/purge.repository.js";
import { PrivacyService } from "./modules/privacy/privacy.service.js";
import { LOGIN_LIMITS } from "./modules/auth/auth.service.js";
import { HomeAccess } from "./modules/my-home/home-access.js";
import { HomeAccessRepository } from "./modules/my-home/home-access.repository.js";
import { PlanDeliveries } from "./modules/maintenance/plan-deliveries.js";
import { PlanDeliveriesRepository } from "./modules/maintenance/plan-deliveries.repository.js";
import { HomeAuthRepository } from "./modules/my-home/home-auth.repository.js";
import { HOME_MAIL_KEY_PREFIX, HOME_SIGN_IN_LIMITS, HomeAuthService } from "./modules/my-home/home-auth.service.js";
import { RecordsRepository } from "./modules/my-home/records.repository.js";
import { RecordsService } from "./modules/my-home/records.service.js";
import { VisitsRepository } from "./modules/my-home/visits.repository.js";
import { VisitsService } from "./modules/my-home/visits.service.js";
import { HomePlanPage } from "./modules/my-home/plan.service.js";
import { SubscriptionsRepository } from "./modules/subscriptions/subscriptions.repository.js";
import { SubscriptionsService } from "./modules/subscriptions/subscriptions.service.js";
import { type StripeBilling, createStripeBilling } from "./modules/subscriptions/stripe-billing.js";
import { StripeWebhooks } from "./modules/subscriptions/webhooks.js";
import { type InvoiceSide, createInvoiceSide } from "./modules/subscriptions/invoices.wiring.js";
import { quoteInvoicePdf } from "./modules/invoices/index.js";
import { QuotePayments } from "./modules/quotes/quote-payments.js";
import { QuotePaymentsRepository } from "./modules/quotes/quote-payments.repository.js";
import { DEMO_DECLINES } from "./modules/payments/checkout.constants.js";

/** Every service the web app, the worker and the CLI share, built once per process. */
export interface Container {
  env: Env;
  db: Knex;
  databaseUrl: string;
  log: Logger;
  assets: () => Assets;
  transaction: TransactionRunner;
  /** The audit trail (docs/decisions.md#39): every staff change's event, written in the change's transaction. */
  audit: AuditLog;
  /** The staff bell's notifications, raised in each event's transaction (src/modules/notifications/README.md). */
  notifications: Notifications;
  plans: PlansService;
  users: UsersService;
  auth: AuthService;
  /** Staff accounts (invitations, roles, reset links), authenticator apps, passkeys (docs/decisions.md#38). */
  staffAccounts: StaffAccountsService;
  twoStep: TwoStepService;
  staffPasskeys: StaffPasskeys;
  idempotency: IdempotencyService;
  customers: CustomersService;
  payments: PaymentsService;
  mail: MailService;
  bookings: BookingsService;
  /** Inspectors' hours and time off (docs/decisions.md#37): `haven inspectors`. */
  inspectors: InspectorsService;
  onboarding: OnboardingService;
  maintenance: MaintenanceService;
  sharing: SharingService;
  quotes: QuotesService;
  /** Paying an accepted quote, and the office's accepted quotes to book (docs/decisions.md#43). */
  quotePayments: QuotePayments;
  inspections: InspectionsService;
  photos: PhotosService;
  dashboard: DashboardService;
  reports: ReportsService;
  privacy: PrivacyService;
  subscriptions: SubscriptionsService;
  /** Invoices, refunds, charge events, reconciliation and the tax report (subscriptions/invoices.wiring.ts). */
  invoiceSide: InvoiceSide;
  /** What each plan delivers: the maintenance schedules of a subscription's plan (docs/decisions.md#26). */
  planServices: PlanDeliveries;
  /** My Home's Visits and Account. */
  homeVisits: VisitsService;
  /** My Home's Home, Reports and Quotes. */
  homeRecords: RecordsService;
  /** My Home's Plan page. */
  homePlan: HomePlanPage;
  /** What a signed-in homeowner may see (My Home, docs/decisions.md#29). */
  homeAccess: HomeAccess;
  /** Stripe mode: the billing portal and card flow (billing), and storing what is read back (webhooks). Null in demo mode. */
  stripe: { billing: StripeBilling; webhooks: StripeWebhooks } | null;
  /** Who bills: legal name, address, GST/HST number, fallback tax province (docs/decisions.md#32). */
  business: BusinessSettings;
  /** Homeowner sign-in and sessions (My Home, docs/decisions.md#28). */
  homeAuth: HomeAuthService;
}

export function createContainer(env: Env, databaseUrl: string, db: Knex, options: { log?: Logger } = {}): Container {
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  let assets: Assets | null = null;
  const transaction = transactionRunner(db);
  const plans = new PlansService(new PlansRepository(db));
  // Stripe or the offline demo provider, as PAYMENTS_MODE says (docs/decisions.md#4).
  const paymentsRepository = new PaymentsRepository(db);
  // Stripe's billing side (subscriptions, portal) shares the purchase paths' client; null in demo mode.
  const stripeBilling = createStripeBilling(env, log);
  const paymentProvider = createPaymentProvider(env, paymentsRepository, stripeBilling);
  const business = businessSettings(env);
  const audit = new AuditLog({ repo: new AuditRepository(db, env.BUSINESS_TZ) });
  const notifications = new Notifications({ repo: new NotificationsRepository(db, env.BUSINESS_TZ) });
  const customers = new CustomersService({ customers: new CustomersRepository(db), transaction, audit });
  const mail = new MailService(mailSettingsFrom(env), log);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  // What e-mails and pages say of the business: its zone, its contacts and the site's address.
  const site = {
    timeZone: env.BUSINESS_TZ,
    supportEmail: env.SUPPORT_EMAIL,
    supportPhone: env.CONTACT_PHONE,
    publicUrl,
  };
  const { users, staffPasskeys, twoStep, auth, staffAccounts } = createStaffAuth({
    db,
    transaction,
    audit,
    mail,
    publicUrl,
    nodeEnv: env.NODE_ENV,
    // Called once a staff account is deactivated, long after `bookings` below is built.
    onDeactivated: (tx, userId, now) => bookings.releaseInspector(tx, userId, now),
  });
  const subscriptionsRepository = new SubscriptionsRepository(db, {
    timeZone: env.BUSINESS_TZ,
    defaultProvince: business.province,
  });
  // What each plan delivers (docs/decisions.md#26): maintenance schedules made and ended as subscriptions change.
  const planServices = new PlanDeliveries({
    repo: new PlanDeliveriesRepository(db),
    transaction,
    settings: site,
    notifications,
    mail,
  });
  const subscriptions = new SubscriptionsService(subscriptionsRepository, {
    plans,
    mail,
    transaction,
    planDeliveries: planServices,
    stripe: stripeBilling,
    log,
    audit,
    notifications,
    settings: { ...site, sessionSecret: env.SESSION_SECRET, business },
  });
  // Invoices, refunds, disputes, reconciliation and the tax report (docs/decisions.md#33, #34).
  const invoiceSide = createInvoiceSide({
    db,
    repo: subscriptionsRepository,
    subscriptions,
    transaction,
    billing: stripeBilling,
    business,
    timeZone: env.BUSINESS_TZ,
    log,
    audit,
    notifications,
    // Built further down, with the quotes: called only once a request comes in.
    quoteReceipts: { resend: (invoice, tx) => quotePayments.resendReceipt(invoice, tx) },
    quoteIntents: { succeeded: (intent) => quotePayments.intentSucceeded(intent) },
  });
  const stripe = stripeBilling
    ? {
        billing: stripeBilling,
        webhooks: new StripeWebhooks({
          billing: stripeBilling,
          subscriptions,
          repo: subscriptionsRepository,
          transaction,
          log,
          charges: invoiceSide.chargeEvents,
        }),
      }
    : null;
  const inspectors = new InspectorsService(new InspectorsRepository(db), { timeZone: env.BUSINESS_TZ });
  const bookings = new BookingsService(new BookingsRepository(db), {
    inspectors,
    customers,
    mail,
    transaction,
    audit,
    notifications,
    // A booked inspection is the plan's annual inspection of the year (docs/decisions.md#26).
    onBooked: (tx, booking) => planServices.inspectionBooked(tx, booking),
    settings: {
      timeZone: env.BUSINESS_TZ,
      supportEmail: env.SUPPORT_EMAIL,
      supportPhone: env.CONTACT_PHONE,
      publicUrl: env.PUBLIC_URL,
    },
  });
  const maintenance = new MaintenanceService(new MaintenanceRepository(db), {
    customers,
    bookings,
    mail,
    transaction,
    settings: site,
  });
  const inspections = new InspectionsService({ inspections: new InspectionsRepository(db), transaction });
  const photos = new PhotosService({ photos: new PhotosRepository(db) });
  const reports = new ReportsService(new ReportsRepository(db), transaction, {
    inspections,
    photos,
    maintenance,
    users,
    customers,
  });
  // After a quote's yes (docs/decisions.md#43): its invoice and pay link, made in the acceptance's transaction.
  const quotePayments = new QuotePayments({
    repo: new QuotePaymentsRepository(db),
    invoices: subscriptionsRepository.quoteInvoiceRows,
    transaction,
    provider: env.PAYMENTS_MODE,
    stripe: stripeBilling?.stripe ?? null,
    demoDeclines: DEMO_DECLINES,
    renderPdf: quoteInvoicePdf(business, env.BUSINESS_TZ),
    business,
    settings: { timeZone: env.BUSINESS_TZ, publicUrl },
  });
  const quotes = new QuotesService(new QuotesRepository(db), {
    maintenance,
    afterAccepted: (taskId, tx) => quotePayments.onAccepted(taskId, tx),
    customers,
    transaction,
    audit,
    notifications,
    settings: {
      timeZone: env.BUSINESS_TZ,
      businessProvince: env.BUSINESS_PROVINCE,
      taxRegistered: business.taxRegistered,
      publicUrl,
    },
  });
  const sharing = new SharingService(new SharingRepository(db), {
    reports,
    photos,
    customers,
    maintenance,
    quotes,
    transaction,
    audit,
    subscriptions,
  });
  // My Home reads across modules through its read model (src/modules/my-home/README.md) and their services.
  const homeAccess = new HomeAccess({ repo: new HomeAccessRepository(db) });
  const homeRecordsRepository = new RecordsRepository(db);
  const homeVisits = new VisitsService(new VisitsRepository(db), {
    homeAccess,
    bookings,
    subscriptions,
    planDeliveries: planServices,
    settings: { timeZone: env.BUSINESS_TZ, publicUrl },
  });
  const homeRecords = new RecordsService(homeRecordsRepository, {
    homeAccess,
    reports,
    customers,
    photos,
    quotes,
    transaction,
  });
  const homePlan = new HomePlanPage({
    subscriptions,
    homeAccess,
    plans,
    stripe,
    readModel: homeRecordsRepository,
    invoicePdf: (invoiceId) => invoiceSide.invoices.pdf(invoiceId),
    business,
    log,
  });
  return {
    env,
    db,
    databaseUrl,
    log,
    // Read the Vite manifest lazily: the CLI and the API tests never need it.
    assets: () => {
      assets ??= loadAssets();
      return assets;
    },
    plans,
    transaction,
    audit,
    notifications,
    users,
    auth,
    twoStep,
    staffPasskeys,
    staffAccounts,
    idempotency: new IdempotencyService(db),
    customers,
    mail,
    bookings,
    inspectors,
    onboarding: new OnboardingService({ customers, bookings, transaction }),
    maintenance,
    sharing,
    quotes,
    quotePayments,
    inspections,
    photos,
    reports,
    dashboard: new DashboardService(new DashboardRepository(db), { timeZone: env.BUSINESS_TZ }),
    privacy: new PrivacyService(
      { exports: new ExportRepository(db), erasure: new ErasureRepository(), purge: new PurgeRepository(db) },
      {
        transaction,
        audit,
        settings: {
          idempotencyWindowHours: IDEMPOTENCY_WINDOW_HOURS,
          loginWindowMs: LOGIN_LIMITS.windowMs,
          knownAddressDays: LOGIN_LIMITS.knownAddressDays,
          homeMailCounters: { prefix: HOME_MAIL_KEY_PREFIX, windowMs: HOME_SIGN_IN_LIMITS.mailWindowMs },
        },
      },
    ),
    subscriptions,
    invoiceSide,
    planServices,
    homeAccess,
    homeVisits,
    homeRecords,
    homePlan,
    stripe,
    business,
    homeAuth: new HomeAuthService(new HomeAuthRepository(db), {
      transaction,
      attempts: new LoginAttemptsRepository(db),
      access: homeAccess,
      mail,
      log,
      settings: { publicUrl: env.PUBLIC_URL, secure: env.NODE_ENV === "production", supportEmail: env.SUPPORT_EMAIL },
    }),
    // Payments sits below subscriptions: it reaches them through the SubscriptionsService and StripeWebhooks passed here.
    payments: new PaymentsService({
      repo: paymentsRepository,
      plans,
      provider: paymentProvider,
      subscriptions,
      stripeSubscriptions: stripe?.webhooks ?? null,
      // An accepted quote's PaymentIntent, paid by webhook as well as by the return (docs/decisions.md#43).
      intents: { succeeded: (intent) => quotePayments.intentSucceeded(intent) },
      business,
      attempts: new LoginAttemptsRepository(db),
      settings: {
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        publishableKey: env.STRIPE_PUBLISHABLE_KEY,
        timeZone: env.BUSINESS_TZ,
      },
    }),
  };
}
