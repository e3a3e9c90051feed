import type { Knex } from "knex";
import pino, { type Logger } from "pino";
import type { Env } from "./config/env.js";
import { type Assets, loadAssets } from "./http/assets.js";
import { type TransactionRunner, transactionRunner } from "./db/transaction.js";
import { CustomersRepository } from "./modules/customers/customers.repository.js";
import { CustomersService } from "./modules/customers/customers.service.js";
import { StaffUsersRepository } from "./modules/auth/users.repository.js";
import { UsersService } from "./modules/auth/users.service.js";
import { PlansRepository } from "./modules/plans/plans.repository.js";
import { PlansService } from "./modules/plans/plans.service.js";
import { DemoProvider, StripeProvider, createStripeClient } from "./modules/plans/payment-providers.js";
import { PaymentsRepository } from "./modules/plans/payments.repository.js";
import { PaymentsService } from "./modules/plans/payments.service.js";
import path from "node:path";
import { BookingsRepository } from "./modules/bookings/bookings.repository.js";
import { BookingsService } from "./modules/bookings/bookings.service.js";
import { MailService } from "./modules/mail/mail.service.js";
import { OnboardingService } from "./modules/onboarding/onboarding.service.js";
import { MaintenanceRepository } from "./modules/maintenance/maintenance.repository.js";
import { MaintenanceService } from "./modules/maintenance/maintenance.service.js";

/** Every service the web app, the worker and the CLI share, built once per process. */
export interface Container {
  env: Env;
  db: Knex;
  databaseUrl: string;
  log: Logger;
  assets: () => Assets;
  transaction: TransactionRunner;
  plans: PlansService;
  users: UsersService;
  customers: CustomersService;
  payments: PaymentsService;
  mail: MailService;
  bookings: BookingsService;
  onboarding: OnboardingService;
  maintenance: MaintenanceService;
}

export function createContainer(env: Env, databaseUrl: string, db: Knex, options: { log?: Logger } = {}): Container {
  const log = options.log ?? pino({ level: env.LOG_LEVEL });
  let assets: Assets | null = null;
  const transaction = transactionRunner(db);
  const plans = new PlansService(new PlansRepository(db));
  // Stripe with a secret key, the offline demo provider without (DESIGN.md decision 4).
  const paymentsRepository = new PaymentsRepository(db);
  const paymentProvider = env.STRIPE_SECRET_KEY
    ? new StripeProvider(createStripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE))
    : new DemoProvider(paymentsRepository);
  const customers = new CustomersService(new CustomersRepository(db), transaction);
  const mail = new MailService({ from: env.MAIL_FROM, smtpUrl: env.SMTP_URL, outboxDir: path.join(env.DATA_DIR, "outbox") }, log);
  const bookings = new BookingsService(new BookingsRepository(db), customers, mail, transaction, {
    timeZone: env.BUSINESS_TZ,
    supportEmail: env.SUPPORT_EMAIL,
    supportPhone: env.CONTACT_PHONE,
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
    users: new UsersService(new StaffUsersRepository(db)),
    customers,
    mail,
    bookings,
    onboarding: new OnboardingService(customers, bookings, transaction),
    maintenance: new MaintenanceService(new MaintenanceRepository(db)),
    payments: new PaymentsService(paymentsRepository, plans, paymentProvider, {
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    }),
  };
}
