// Stripe's charge events (docs/decisions.md#34, #53): a refund made in Stripe's dashboard (charge.refunded) and a
// dispute through its close (created, updated, funds withdrawn or reinstated, closed won or lost) reach Haven. The
// charge is tied back to its invoice through its PaymentIntent: a quote invoice's, stored on the row when the intent
// was made, else the Stripe invoice it paid. Stripe is read before the transaction (a 503 writes nothing); the event
// id is claimed in the same transaction as what it records, so a replay changes nothing.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner } from "../../db/transaction.js";
import type { DisputesRepository } from "./disputes.repository.js";
import { type DisputesService, type StripeDisputes, disputeFactsOf } from "./disputes.js";
import type { InvoicesRepository } from "../invoices/index.js";
import type { RefundsService } from "../invoices/index.js";
import { type StripeRefunds, idOf, providerRefundOf } from "../invoices/index.js";
import type { Invoice } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

/** The charge events Haven handles; the webhook endpoint must send each (docs/operations.md, "Stripe settings"). */
export const CHARGE_EVENTS = [
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
] as const;

export interface ChargeEventsDeps {
  stripe: Pick<StripeRefunds, "invoiceOfPaymentIntent" | "refundsOf">;
  /** Stripe's disputes, read back (events come in any order: the dispute as Stripe holds it now is stored). */
  stripeDisputes: Pick<StripeDisputes, "retrieve">;
  invoices: Pick<InvoicesRepository, "findByProviderId" | "find">;
  /** A quote invoice by the PaymentIntent stored on it. */
  quoteInvoices: Pick<DisputesRepository, "quoteInvoiceOfIntent">;
  refunds: Pick<RefundsService, "recordProviderRefund">;
  disputes: Pick<DisputesService, "apply">;
  subscriptions: Pick<SubscriptionsRepository, "claimEvent">;
  transaction: TransactionRunner;
  log?: Logger;
  /** When a loss counts if the event is not charge.dispute.closed itself (the tax report's period); default now. */
  clock?: () => Date;
}

export class ChargeEvents {
  constructor(private readonly deps: ChargeEventsDeps) {}

  handles(event: Stripe.Event): boolean {
    return (CHARGE_EVENTS as readonly string[]).includes(event.type);
  }

  /** Processes a charge event once; true when this delivery was the one that recorded it. */
  async handle(event: Stripe.Event): Promise<boolean> {
    if (event.type === "charge.refunded") return this.refunded(event);
    if (event.type.startsWith("charge.dispute.") && this.handles(event))
      return this.dispute(event as Stripe.ChargeDisputeCreatedEvent);
    return false;
  }

  /**
   * The Haven invoice a PaymentIntent paid: a quote invoice holds its intent's id (docs/decisions.md#43), so it is
   * found here without a call; otherwise the Stripe invoice the intent paid.
   */
  private async invoiceOf(paymentIntentId: string | null): Promise<Invoice | null> {
    if (!paymentIntentId) return null;
    const quote = await this.deps.quoteInvoices.quoteInvoiceOfIntent(paymentIntentId);
    if (quote) return this.deps.invoices.find(quote.id);
    const providerInvoiceId = await this.deps.stripe.invoiceOfPaymentIntent(paymentIntentId);
    return providerInvoiceId ? this.deps.invoices.findByProviderId("stripe", providerInvoiceId) : null;
  }

  private async refunded(event: Stripe.ChargeRefundedEvent): Promise<boolean> {
    const charge = event.data.object;
    const intent = idOf(charge.payment_intent);
    const invoice = await this.invoiceOf(intent);
    // Every refund of the payment, read now: the event's copy may be older than what Stripe holds.
    const refunds = invoice && intent ? await this.deps.stripe.refundsOf(intent) : [];
    return this.deps.transaction(async (tx) => {
      if (!(await this.deps.subscriptions.claimEvent(event.id, event.type, tx))) return false;
      if (!invoice) {
        this.deps.log?.info({ event: event.id, charge: charge.id }, "refund of a charge that paid no Haven invoice");
        return true;
      }
      for (const refund of refunds.filter((r) => r.status === "succeeded" || r.status === "pending"))
        await this.deps.refunds.recordProviderRefund(invoice.id, providerRefundOf(refund), tx);
      return true;
    });
  }

  /** Any dispute event: the dispute read back and stored as it is now (docs/decisions.md#53). */
  private async dispute(event: Stripe.ChargeDisputeCreatedEvent): Promise<boolean> {
    const dispute = await this.deps.stripeDisputes.retrieve(event.data.object.id);
    const invoice = await this.invoiceOf(idOf(dispute.payment_intent));
    // A loss counts when Stripe closed it; learnt from another event (a missed close), when Haven learns it.
    const at =
      event.type === ("charge.dispute.closed" as string)
        ? new Date(event.created * 1000)
        : (this.deps.clock ?? (() => new Date()))();
    return this.deps.transaction(async (tx) => {
      if (!(await this.deps.subscriptions.claimEvent(event.id, event.type, tx))) return false;
      if (!invoice)
        this.deps.log?.info({ event: event.id, dispute: dispute.id }, "dispute of a charge that paid no Haven invoice");
      await this.deps.disputes.apply(disputeFactsOf(dispute), invoice, at, tx);
      return true;
    });
  }
}
