// Stripe's side of refunds and disputes (docs/decisions.md#34): a refund on the invoice's PaymentIntent with a credit
// note beside it, each with an idempotency key derived from the request, and the reads that tie a charge, a
// refund or a dispute back to its invoice. Any Stripe error is BillingUnavailableError (503): nothing local changes.
import type { Logger } from "pino";
import type Stripe from "stripe";
import { ConflictError } from "../../http/errors.js";
import { BillingUnavailableError } from "./billing-provider.js";

/** The id of a Stripe field that is an id or, expanded, the object. */
export const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : (value.id ?? null);

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
   * Refunds `amountCents` of the invoice's payment and issues the credit note for it. The idempotency keys come
   * from the request (`key`), so a repeat is the same refund and the same credit note.
   */
  async refund(
    providerInvoiceId: string,
    input: { amountCents: number; reason: string; key: string; havenInvoiceId: number },
  ): Promise<{ refundId: string; creditNoteId: string | null }> {
    const intent = await this.paymentIntentOf(providerInvoiceId);
    // Paid otherwise than by a PaymentIntent (out of band, or credit): nothing at Stripe to refund.
    if (!intent)
      throw new ConflictError("This invoice was not paid by card through Stripe: refund it in Stripe's dashboard");
    const refund = await this.call(() =>
      this.stripe.refunds.create(
        {
          payment_intent: intent,
          amount: input.amountCents,
          reason: "requested_by_customer",
          metadata: { haven_invoice: String(input.havenInvoiceId), haven_reason: input.reason.slice(0, 450) },
        },
        { idempotencyKey: input.key },
      ),
    );
    const note = await this.call(() =>
      this.stripe.creditNotes.create(
        {
          invoice: providerInvoiceId,
          amount: input.amountCents,
          refunds: [{ refund: refund.id, amount_refunded: input.amountCents }],
          memo: input.reason.slice(0, 450),
          // Haven e-mails the customer itself (the refund e-mail): Stripe's own would be a second one.
          email_type: "none",
          metadata: { haven_invoice: String(input.havenInvoiceId) },
        },
        { idempotencyKey: `${input.key}:credit-note` },
      ),
    );
    return { refundId: refund.id, creditNoteId: note.id };
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
