// Stripe's charge events (docs/decisions.md#34): a refund made in Stripe's dashboard (charge.refunded) and a
// dispute (charge.dispute.created) reach Haven. The charge is tied back to its invoice through its PaymentIntent;
// the event id is claimed in the same transaction as what it records, so a replay changes nothing.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { TransactionRunner } from "../../db/transaction.js";
import type { Notifications } from "../notifications/index.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { RefundsRepository } from "./refunds.repository.js";
import type { RefundsService } from "./refunds.js";
import { type StripeRefunds, idOf } from "./refunds-stripe.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export const CHARGE_EVENTS = ["charge.refunded", "charge.dispute.created"] as const;

export interface ChargeEventsDeps {
  stripe: StripeRefunds;
  invoices: Pick<InvoicesRepository, "findByProviderId">;
  refunds: Pick<RefundsService, "recordProviderRefund">;
  disputes: Pick<RefundsRepository, "recordDispute">;
  subscriptions: Pick<SubscriptionsRepository, "claimEvent" | "logEvent">;
  transaction: TransactionRunner;
  log?: Logger;
  /** The staff bell (src/modules/notifications/README.md): a dispute is one notification. */
  notifications?: Pick<Notifications, "raise"> | null;
}

export class ChargeEvents {
  constructor(private readonly deps: ChargeEventsDeps) {}

  handles(event: Stripe.Event): boolean {
    return (CHARGE_EVENTS as readonly string[]).includes(event.type);
  }

  /** Processes a charge event once; true when this delivery was the one that recorded it. */
  async handle(event: Stripe.Event): Promise<boolean> {
    if (event.type === "charge.refunded") return this.refunded(event);
    if (event.type === "charge.dispute.created") return this.disputed(event);
    return false;
  }

  /** The Haven invoice a PaymentIntent paid (Stripe is read before the transaction: a 503 writes nothing). */
  private async invoiceOf(paymentIntentId: string | null) {
    if (!paymentIntentId) return null;
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
        await this.deps.refunds.recordProviderRefund(
          invoice.id,
          {
            providerRefundId: refund.id,
            amountCents: refund.amount,
            reason: refund.metadata?.haven_reason ?? refund.reason ?? "Refunded in Stripe",
            createdAt: new Date(refund.created * 1000),
          },
          tx,
        );
      return true;
    });
  }

  private async disputed(event: Stripe.ChargeDisputeCreatedEvent): Promise<boolean> {
    const dispute = event.data.object;
    const invoice = await this.invoiceOf(idOf(dispute.payment_intent));
    return this.deps.transaction(async (tx) => {
      if (!(await this.deps.subscriptions.claimEvent(event.id, event.type, tx))) return false;
      const recorded = await this.deps.disputes.recordDispute(
        {
          providerDisputeId: dispute.id,
          invoiceId: invoice?.id ?? null,
          subscriptionId: invoice?.subscriptionId ?? null,
          amountCents: dispute.amount,
          reason: dispute.reason ?? null,
          status: dispute.status,
        },
        tx,
      );
      // The staff bell lists the dispute; the subscription is flagged and its history says so.
      if (recorded && invoice)
        await this.deps.notifications?.raise(tx, {
          kind: "dispute",
          recordType: "subscription",
          recordId: invoice.subscriptionId,
          link: `/admin/subscriptions/${invoice.subscriptionId}`,
          text: `${invoice.number ? `Invoice ${invoice.number}` : "A payment"} disputed (${dispute.reason ?? "no reason given"})`,
        });
      if (recorded && invoice)
        await this.deps.subscriptions.logEvent(
          invoice.subscriptionId,
          {
            kind: "disputed",
            actor: "stripe",
            detail: { invoice: invoice.number, amountCents: dispute.amount, reason: dispute.reason },
          },
          tx,
        );
      return true;
    });
  }
}
