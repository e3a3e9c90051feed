// The quote pay path's ports and shapes (docs/decisions.md#43): the invoices it reads and writes through, what the
// container gives it, who pays and what a pay answers.
import type Stripe from "stripe";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { Invoice, NewQuoteInvoice } from "../invoices/index.js";
import type { PayableQuote, QuotePaymentsRepository } from "./quote-payments.repository.js";

/** The demo card numbers that decline (the /checkout form's, payments' DEMO_DECLINES). */
export type DemoDeclines = Record<string, string>;

/** A quote invoice row as the pay path holds it (the subscriptions module's invoices repository gives it). */
export type LockedQuoteInvoice = Invoice & { provider: string; totalCents: number; paymentIntentId: string | null };

/** The port onto the invoices table (subscriptions' QuoteInvoicesRepository, passed in by the container). */
export interface QuoteInvoices {
  insertQuoteInvoice(input: NewQuoteInvoice, tx: Tx): Promise<{ id: number; created: boolean }>;
  lockQuoteInvoice(
    by: { id: number } | { quoteRequestId: number } | { payTokenHash: string },
    tx: Tx,
  ): Promise<LockedQuoteInvoice | null>;
  setPaymentIntent(id: number, paymentIntentId: string, tx: Tx): Promise<void>;
  markQuoteInvoicePaid(id: number, paidAt: Date, tx: Tx): Promise<void>;
  quoteInvoices(quoteRequestIds: number[]): Promise<Invoice[]>;
  find(id: number): Promise<Invoice | null>;
}

export interface QuotePaymentsDeps {
  repo: QuotePaymentsRepository;
  invoices: QuoteInvoices;
  transaction: TransactionRunner;
  /** `stripe` (the real SDK, its PaymentIntents) or `demo` (the demo card form), as PAYMENTS_MODE says. */
  provider: "stripe" | "demo";
  stripe: Pick<Stripe, "paymentIntents"> | null;
  demoDeclines: DemoDeclines;
  /** The invoice as a PDF (subscriptions' renderInvoicePdf with the business and the buyer). */
  renderPdf: (invoice: Invoice, quote: PayableQuote) => Promise<Buffer>;
  business: { legalName: string; gstHstNumber: string | null; province: string; taxRegistered: boolean };
  settings: { timeZone: string; publicUrl: string };
}

/** Who pays: the homeowner in My Home (their quote request's id, and whether its home is theirs) or an e-mailed link. */
export type Payer = { quoteRequestId: number; mayPay: (propertyId: number) => boolean } | { token: string };

/** What a pay call answers: paid (now or before), or Stripe's client secret for the Payment Element to confirm. */
export type PayOutcome =
  | { status: "paid"; invoice: Invoice; alreadyPaid: boolean }
  | { status: "requires_payment"; clientSecret: string; invoice: Invoice };

/** The pay page's view of an accepted quote and its invoice. */
export interface QuotePayView {
  quote: Pick<PayableQuote, "id" | "taskTitle" | "scope" | "propertyAddress" | "clientName" | "clientEmail">;
  invoice: Invoice;
  totalText: string;
  /** YYYY-MM-DD in BUSINESS_TZ once paid. */
  paidOn: string | null;
  /** An unpaid invoice of a quote past its validity: the page says so instead of offering the card form. */
  expired: { validUntil: string; message: string } | null;
}
