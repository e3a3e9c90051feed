// Stripe's side of refunds and disputes (docs/decisions.md#34, #52): a refund on the invoice's PaymentIntent with a
// credit note beside it, each with an idempotency key derived from the request, and the reads that tie a charge, a
// refund or a dispute back to its invoice. A read's failure is BillingUnavailableError (503: nothing was sent); a
// refund is refused (Stripe said no: nothing was refunded) or uncertain (no answer: it may have been).
import type { Logger } from "pino";
import type Stripe from "stripe";
import { BillingUnavailableError } from "./billing-errors.js";

/** Stripe certainly refused the refund (a 4xx it answered): nothing was refunded. */
export class RefundRefusedError extends Error {}

/** Stripe did not answer the refund (the network, a timeout, a 5xx, a key still in use): it may have refunded. */
export class RefundUncertainError extends Error {}

/**
 * A refund call's failure, sorted (docs/decisions.md#52). Stripe keeps the first answer to a key, so a 4xx it gave
 * stays its answer; a 409 is the same key still running (Stripe: "another request with the same key is in
 * progress"), not a refusal; a 429 was turned away before anything ran.
 */
export function refusedOrUncertain(error: unknown): RefundRefusedError | RefundUncertainError {
  const status = (error as { statusCode?: number }).statusCode;
  const message = (error as { message?: string }).message ?? String(error);
  if (status !== undefined && status >= 400 && status < 500 && status !== 409) return new RefundRefusedError(message);
  return new RefundUncertainError(message);
}

/** The id of a Stripe field that is an id or, expanded, the object. */
export const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : (value.id ?? null);

/**
 * A refund as Stripe reports it back (charge.refunded, reconciliation), as RefundsService.recordProviderRefund takes
 * it: the Haven request it answers, when Haven sent it, by its metadata (docs/decisions.md#52).
 */
export const providerRefundOf = (refund: Stripe.Refund) => ({
  providerRefundId: refund.id,
  amountCents: refund.amount,
  reason: refund.metadata?.haven_reason ?? refund.reason ?? "Refunded in Stripe",
  createdAt: new Date(refund.created * 1000),
  requestId: Number(refund.metadata?.haven_refund_request) || null,
});

export class StripeRefunds {
  constructor(
    private readonly stripe: Stripe,
    private readonly log?: Logger,
  ) {}

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.log?.warn({ err: error }, "Stripe refund call failed");
      throw new BillingUnavailableError();
    }
  }

  /** The PaymentIntent that paid an invoice (its default invoice payment). */
  async paymentIntentOf(invoiceId: string): Promise<string | null> {
    const invoice = await this.call(() => this.stripe.invoices.retrieve(invoiceId, { expand: ["payments"] }));
    const payments = invoice.payments?.data ?? [];
    const paid = payments.find((p) => p.status === "paid") ?? payments.find((p) => p.is_default) ?? payments[0];
    return idOf(paid?.payment?.payment_intent as string | { id?: string } | null | undefined);
  }

  /** The invoice a PaymentIntent paid, or null (a one-time payment). */
  async invoiceOfPaymentIntent(paymentIntentId: string): Promise<string | null> {
    const list = await this.call(() =>
      this.stripe.invoicePayments.list({
        payment: { type: "payment_intent", payment_intent: paymentIntentId },
        limit: 1,
      }),
    );
    return idOf(list.data[0]?.invoice as string | { id?: string } | null | undefined);
  }

  /**
   * Refunds `amountCents` of a PaymentIntent under the intent's idempotency key (docs/decisions.md#52): a repeat
   * with the key is Stripe's first answer. A refusal Stripe certainly gave is `RefundRefusedError` (nothing was
   * refunded); no answer, a timeout or a 5xx is `RefundUncertainError` (it may have been refunded).
   */
  async createRefund(
    paymentIntentId: string,
    input: { amountCents: number; reason: string; key: string; havenInvoiceId: number; requestId: number },
  ): Promise<Stripe.Refund> {
    try {
      return await this.stripe.refunds.create(
        {
          payment_intent: paymentIntentId,
          amount: input.amountCents,
          reason: "requested_by_customer",
          metadata: {
            haven_invoice: String(input.havenInvoiceId),
            haven_refund_request: String(input.requestId),
            haven_reason: input.reason.slice(0, 450),
          },
        },
        { idempotencyKey: input.key },
      );
    } catch (error) {
      this.log?.warn({ err: error, request: input.requestId }, "Stripe refund call failed");
      throw refusedOrUncertain(error);
    }
  }

  /** The refund Haven's request made, looked up among the PaymentIntent's refunds; null when Stripe has none. */
  async findRefund(paymentIntentId: string, requestId: number): Promise<Stripe.Refund | null> {
    const all = await this.refundsOf(paymentIntentId);
    return all.find((r) => r.metadata?.haven_refund_request === String(requestId)) ?? null;
  }

  /**
   * Stripe's credit note of a refund on a Stripe invoice, made once: one already linking the refund is found and
   * kept; else it is created under the request's key. Stripe refuses a credit note over what is left to credit,
   * so a second one for the same refund would be refused rather than doubled.
   */
  async creditNote(
    providerInvoiceId: string,
    input: { refundId: string; amountCents: number; reason: string; key: string; havenInvoiceId: number },
  ): Promise<string> {
    const existing = await this.call(async () => {
      for await (const note of this.stripe.creditNotes.list({ invoice: providerInvoiceId, limit: 100 }))
        if ((note.refunds ?? []).some((r) => idOf(r.refund as string | { id?: string }) === input.refundId))
          return note.id;
      return null;
    });
    if (existing) return existing;
    const note = await this.call(() =>
      this.stripe.creditNotes.create(
        {
          invoice: providerInvoiceId,
          amount: input.amountCents,
          refunds: [{ refund: input.refundId, amount_refunded: input.amountCents }],
          memo: input.reason.slice(0, 450),
          // Haven e-mails the customer itself (the refund e-mail): Stripe's own would be a second one.
          email_type: "none",
          metadata: { haven_invoice: String(input.havenInvoiceId) },
        },
        { idempotencyKey: input.key },
      ),
    );
    return note.id;
  }

  /** Every refund of a PaymentIntent (charge.refunded and reconciliation record the ones Haven lacks). */
  async refundsOf(paymentIntentId: string): Promise<Stripe.Refund[]> {
    return this.call(async () => {
      const out: Stripe.Refund[] = [];
      for await (const refund of this.stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 }))
        out.push(refund);
      return out;
    });
  }
}
