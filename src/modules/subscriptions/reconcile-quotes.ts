// Reconciliation's quote payments and disputes (docs/decisions.md#53): what Haven lacks of money that moved at Stripe
// outside subscription invoices. A quote invoice still open whose PaymentIntent succeeded is paid through the quotes
// module's own path (its receipt with it); a refund of a quote payment is found by the intent stored on the invoice
// (Reconciler's refunds pass); a dispute Haven lacks, or whose status or funds differ, is stored through the webhook's
// path (DisputesService.apply).
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner } from "../../db/transaction.js";
import type { DisputesRepository } from "./disputes.repository.js";
import { type DisputesService, disputeFactsOf } from "./disputes.js";
import type { InvoicesRepository } from "../invoices/index.js";
import type { Invoice } from "./subscriptions.constants.js";

/** The quotes module's "intent succeeded" step (QuotePayments.intentSucceeded, passed by container.ts). */
export interface QuoteIntents {
  succeeded(intent: { id: string; metadata?: Record<string, string> | null }): Promise<boolean>;
}

export interface QuoteReconcileDeps {
  stripe: Pick<Stripe, "paymentIntents" | "disputes">;
  rows: Pick<DisputesRepository, "openQuoteIntents" | "quoteInvoiceOfIntent" | "findByProviderId" | "holding">;
  invoices: Pick<InvoicesRepository, "find" | "findByProviderId">;
  /** The Stripe invoice a PaymentIntent paid (refunds-stripe.ts). */
  invoiceOfIntent: (paymentIntentId: string) => Promise<string | null>;
  disputes: Pick<DisputesService, "apply">;
  quoteIntents: QuoteIntents | null;
  transaction: TransactionRunner;
  log: Logger;
  clock?: () => Date;
}

/** One difference, as Reconciler reports them. */
export interface QuoteDifference {
  kind: "quote_payment_missing" | "dispute_missing" | "dispute_changed";
  id: string;
  detail: string;
  repaired: boolean;
}

export class QuoteReconciler {
  constructor(private readonly deps: QuoteReconcileDeps) {}

  /** Whether a dispute holds the subscription's services (it is past due in Haven whatever Stripe says). */
  async holds(subscriptionId: number): Promise<boolean> {
    return this.deps.rows.holding(subscriptionId);
  }

  /** The quote invoice a PaymentIntent paid, by the intent stored on it (docs/decisions.md#43). */
  async quoteInvoice(paymentIntentId: string): Promise<Invoice | null> {
    const quote = await this.deps.rows.quoteInvoiceOfIntent(paymentIntentId);
    return quote ? this.deps.invoices.find(quote.id) : null;
  }

  /** The Haven invoice a PaymentIntent paid: a quote's by the intent stored on it, else the Stripe invoice's. */
  async invoiceOfIntent(paymentIntentId: string): Promise<Invoice | null> {
    const quote = await this.quoteInvoice(paymentIntentId);
    if (quote) return quote;
    const providerInvoiceId = await this.deps.invoiceOfIntent(paymentIntentId);
    return providerInvoiceId ? this.deps.invoices.findByProviderId("stripe", providerInvoiceId) : null;
  }

  /** Open quote invoices whose intent Stripe says succeeded: paid now, as the webhook would have. */
  async payments(): Promise<{ checked: number; differences: QuoteDifference[] }> {
    const differences: QuoteDifference[] = [];
    const open = await this.deps.rows.openQuoteIntents();
    for (const { invoiceId, paymentIntentId } of open) {
      const intent = await this.deps.stripe.paymentIntents.retrieve(paymentIntentId);
      if (intent.status !== "succeeded") continue;
      const repaired = (await this.deps.quoteIntents?.succeeded(intent)) ?? false;
      const invoice = await this.deps.invoices.find(invoiceId);
      differences.push({
        kind: "quote_payment_missing",
        id: paymentIntentId,
        detail: `${invoice?.number ?? `invoice ${invoiceId}`}: ${intent.amount_received ?? intent.amount} cents paid at Stripe`,
        repaired,
      });
    }
    return { checked: open.length, differences };
  }

  /** Stripe's disputes, page by page: one Haven lacks, or whose status or funds differ, stored as a webhook would. */
  async disputes(limit: number): Promise<{ checked: number; differences: QuoteDifference[] }> {
    const differences: QuoteDifference[] = [];
    let checked = 0;
    for await (const dispute of this.deps.stripe.disputes.list({ limit })) {
      checked++;
      const facts = disputeFactsOf(dispute);
      const local = await this.deps.rows.findByProviderId(dispute.id);
      if (
        local &&
        local.status === facts.status &&
        local.fundsWithdrawnCents === facts.fundsWithdrawnCents &&
        local.fundsReinstatedCents === facts.fundsReinstatedCents
      )
        continue;
      const intent = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
      const invoice = intent ? await this.invoiceOfIntent(intent) : null;
      const at = (this.deps.clock ?? (() => new Date()))();
      await this.deps.transaction((tx) => this.deps.disputes.apply(facts, invoice, at, tx));
      differences.push(
        local
          ? {
              kind: "dispute_changed",
              id: dispute.id,
              detail: `${local.status} → ${facts.status}`,
              repaired: true,
            }
          : {
              kind: "dispute_missing",
              id: dispute.id,
              detail: `${facts.status}, ${facts.amountCents} cents of ${invoice?.number ?? "a payment Haven does not know"}`,
              repaired: true,
            },
      );
    }
    this.deps.log.debug({ checked }, "reconcile: disputes compared");
    return { checked, differences };
  }
}
