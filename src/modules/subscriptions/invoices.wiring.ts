// Builds the billing documents' side (docs/decisions.md#33, #34): the invoices module's services (invoices, refunds,
// the tax report: createInvoices, given this module's repository and billing mailer through the invoices' ports), then
// this module's part: charge events, disputes, reconciliation, the tax that follows the home and the subscriptions'
// CSV. Each class takes its own Deps; this only connects them.
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { TransactionRunner } from "../../db/transaction.js";
import {
  type BusinessIdentity,
  type InvoicesService,
  type QuoteReceipts,
  type RefundsDeps,
  type RefundsService,
  type TaxReportService,
  createInvoices,
} from "../invoices/index.js";
import { ChargeEvents } from "./charge-events.js";
import { DisputesRepository } from "./disputes.repository.js";
import { DisputesService, StripeDisputes } from "./disputes.js";
import { HomeTax } from "./home-tax.js";
import { HomeTaxRepository } from "./home-tax.repository.js";
import { Reconciler } from "./reconcile.js";
import { RenewalReceipts } from "./renewal-receipts.js";
import { type QuoteIntents, QuoteReconciler } from "./reconcile-quotes.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type { StripeBilling } from "./stripe-billing.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import { SubscriptionExport } from "./subscription-export.js";

export interface InvoiceSideDeps {
  db: Knex;
  repo: SubscriptionsRepository;
  subscriptions: SubscriptionsService;
  transaction: TransactionRunner;
  /** Stripe's billing side (its client and readBack); null in demo mode. */
  billing: StripeBilling | null;
  /** Who bills, and (the container's BusinessSettings) the province of a purchase naming no home and whether it charges tax. */
  business: BusinessIdentity & { province?: string; taxRegistered?: boolean };
  timeZone: string;
  log: Logger;
  /** The audit trail: staff refunds (refunds.ts), a paid invoice corrected by reconciliation (reconcile.ts). */
  audit: RefundsDeps["audit"];
  /** The staff bell: disputes (disputes.ts). */
  notifications?: ConstructorParameters<typeof DisputesService>[0]["notifications"];
  /** The quotes module's "intent succeeded" step: reconciliation pays a quote invoice Stripe was paid for. */
  quoteIntents?: QuoteIntents | null;
  /** A quote invoice's receipt, sent again (the quotes module's; receipt-resends.ts). */
  quoteReceipts: QuoteReceipts | null;
  /** When a receipt is resent (a double click within a minute is one); default the wall clock. */
  clock?: () => Date;
}

export interface InvoiceSide {
  invoices: InvoicesService;
  refunds: RefundsService;
  taxReport: TaxReportService;
  /** Stripe's charge.refunded and charge.dispute.* (StripeWebhooks dispatches them); null in demo mode. */
  chargeEvents: ChargeEvents | null;
  reconcile: Reconciler;
  /** GET /api/subscriptions?format=csv (subscriptions.routes.ts). */
  subscriptionExport: SubscriptionExport;
  /** The tax follows the home (docs/decisions.md#57): its jobs (home-tax.tasks.ts) call it. */
  homeTax: HomeTax;
  /** A demo renewal's receipt, read and sent by its job (renewal-receipts.ts, docs/decisions.md#82). */
  renewalReceipts: RenewalReceipts;
}

export function createInvoiceSide(deps: InvoiceSideDeps): InvoiceSide {
  const stripe = deps.billing?.stripe ?? null;
  const { invoices, refunds, taxReport, refundRows, stripeRefunds } = createInvoices({
    db: deps.db,
    rows: deps.repo.invoiceRows,
    subscriptions: deps.repo,
    mailer: deps.subscriptions.mailer,
    planName: (type) => deps.subscriptions.mailer.planName(type),
    transaction: deps.transaction,
    stripe,
    business: deps.business,
    timeZone: deps.timeZone,
    log: deps.log,
    audit: deps.audit,
    quoteReceipts: deps.quoteReceipts,
    clock: deps.clock ?? (() => new Date()),
  });
  // Disputes through their close (docs/decisions.md#53): from charge events and reconciliation alike.
  const disputeRows = new DisputesRepository(deps.db);
  const disputes = new DisputesService({
    disputes: disputeRows,
    subscriptions: deps.repo,
    follow: deps.subscriptions,
    notifications: deps.notifications,
    log: deps.log,
  });
  const chargeEvents =
    stripe && stripeRefunds
      ? new ChargeEvents({
          stripe: stripeRefunds,
          stripeDisputes: new StripeDisputes(stripe, deps.log),
          invoices: deps.repo.invoiceRows,
          quoteInvoices: disputeRows,
          refunds,
          disputes,
          subscriptions: deps.repo,
          transaction: deps.transaction,
          log: deps.log,
        })
      : null;
  const reconcile = new Reconciler({
    stripe,
    billing: deps.billing,
    refunds: stripeRefunds,
    refundRows,
    recordRefund: refunds,
    quotes:
      stripe && stripeRefunds
        ? new QuoteReconciler({
            stripe,
            rows: disputeRows,
            invoices: deps.repo.invoiceRows,
            invoiceOfIntent: (intent) => stripeRefunds.invoiceOfPaymentIntent(intent),
            disputes,
            quoteIntents: deps.quoteIntents ?? null,
            transaction: deps.transaction,
            log: deps.log,
          })
        : null,
    subscriptions: deps.subscriptions,
    repo: deps.repo,
    transaction: deps.transaction,
    log: deps.log,
    audit: deps.audit,
  });
  const homeTax = new HomeTax({
    rows: new HomeTaxRepository(deps.db, deps.repo.invoiceRows),
    subscriptions: deps.repo,
    refunds,
    refundRows,
    mailer: deps.subscriptions.mailer,
    transaction: deps.transaction,
    stripe,
    notifications: deps.notifications,
    log: deps.log,
    settings: {
      timeZone: deps.timeZone,
      defaultProvince: deps.business.province ?? deps.repo.invoiceRows.settings.defaultProvince,
      taxRegistered: deps.business.taxRegistered ?? true,
    },
  });
  return {
    homeTax,
    invoices,
    refunds,
    taxReport,
    chargeEvents,
    reconcile,
    subscriptionExport: new SubscriptionExport(deps.db),
    renewalReceipts: new RenewalReceipts({ repo: deps.repo, mailer: deps.subscriptions.mailer }),
  };
}
