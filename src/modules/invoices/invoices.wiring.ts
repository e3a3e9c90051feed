// Builds the invoices module's services (docs/decisions.md#33, #34): invoices, refunds and the tax report. Each
// class takes its own Deps; this only connects them. What it needs of subscriptions comes in through its ports.
import type { Knex } from "knex";
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner } from "../../db/transaction.js";
import type { BusinessIdentity } from "./invoices.constants.js";
import type { InvoiceMailer, InvoiceSubscriptions } from "./invoices.ports.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import { InvoiceListRepository } from "./invoice-list.repository.js";
import { InvoicesService } from "./invoices.service.js";
import { type QuoteReceipts, ReceiptResends } from "./receipt-resends.js";
import { RefundRequestsRepository } from "./refund-requests.repository.js";
import { RefundsRepository } from "./refunds.repository.js";
import { type RefundsDeps, RefundsService } from "./refunds.js";
import { StripeRefunds } from "./refunds-stripe.js";
import { TaxReportRepository } from "./tax-report.repository.js";
import { TaxReportService } from "./tax-report.js";

export interface InvoicesWiringDeps {
  db: Knex;
  /** The invoices' write path (invoices.repository.ts). */
  rows: InvoicesRepository;
  /** The subscriptions' rows and billing e-mails (subscriptions' repository and BillingMailer). */
  subscriptions: InvoiceSubscriptions;
  mailer: InvoiceMailer;
  planName: (type: string) => Promise<string>;
  transaction: TransactionRunner;
  /** Stripe's client; null in demo mode. */
  stripe: Stripe | null;
  business: BusinessIdentity;
  timeZone: string;
  log: Logger;
  /** The audit trail: staff refunds (refunds.ts), receipts resent (receipt-resends.ts). */
  audit: RefundsDeps["audit"];
  /** A quote invoice's receipt, sent again (the quotes module's; receipt-resends.ts). */
  quoteReceipts: QuoteReceipts | null;
  /** When a receipt is resent (a double click within a minute is one). */
  clock: () => Date;
}

export interface Invoices {
  invoices: InvoicesService;
  refunds: RefundsService;
  taxReport: TaxReportService;
  /** The refunds' rows, and Stripe's refunds (null in demo mode): charge events and reconciliation use them. */
  refundRows: RefundsRepository;
  stripeRefunds: StripeRefunds | null;
}

export function createInvoices(deps: InvoicesWiringDeps): Invoices {
  const refundRows = new RefundsRepository(deps.db, deps.timeZone);
  const refundRequests = new RefundRequestsRepository(deps.db);
  const stripeRefunds = deps.stripe ? new StripeRefunds(deps.stripe, deps.log) : null;
  const refunds = new RefundsService({
    invoices: deps.rows,
    refunds: refundRows,
    requests: refundRequests,
    subscriptions: deps.subscriptions,
    mailer: deps.mailer,
    transaction: deps.transaction,
    stripe: stripeRefunds,
    log: deps.log,
    audit: deps.audit,
  });
  const invoices = new InvoicesService({
    db: deps.db,
    invoices: deps.rows,
    lists: new InvoiceListRepository(deps.db),
    refundRows,
    requests: refundRequests,
    refunds,
    subscriptions: deps.subscriptions,
    planName: deps.planName,
    business: deps.business,
    timeZone: deps.timeZone,
    resends: new ReceiptResends({
      quoteReceipts: deps.quoteReceipts,
      db: deps.db,
      transaction: deps.transaction,
      subscriptions: deps.subscriptions,
      mailer: deps.mailer,
      audit: deps.audit,
      clock: deps.clock,
    }),
  });
  return {
    invoices,
    refunds,
    taxReport: new TaxReportService({ repo: new TaxReportRepository(deps.db), timeZone: deps.timeZone }),
    refundRows,
    stripeRefunds,
  };
}
