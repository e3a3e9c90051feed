// Refunds (docs/decisions.md#34): staff refund a paid invoice in full or in part, with a reason. The amount is what
// the customer gets back, tax included; its tax is in proportion. The invoice's row is locked first; the request's
// key (invoice, amount, Idempotency-Key or the refunded-so-far figure) makes a repeat the same refund.
import type { AuditLog } from "../audit/index.js";
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { type TaxLine, refundedTax } from "../tax/index.js";
import { type BillingMailer, mailInvoice } from "./billing-mailer.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { Refund, RefundsRepository } from "./refunds.repository.js";
import type { StripeRefunds } from "./refunds-stripe.js";
import type { Invoice } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export interface RefundsDeps {
  invoices: InvoicesRepository;
  refunds: RefundsRepository;
  subscriptions: Pick<SubscriptionsRepository, "find" | "logEvent">;
  mailer: Pick<BillingMailer, "send">;
  transaction: TransactionRunner;
  /** Stripe's refunds and credit notes; null in demo mode. */
  stripe: StripeRefunds | null;
  log: Logger;
  /** The audit trail: each refund staff or the CLI make is one event (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
}

export interface RefundRequest {
  /** What the customer gets back, tax included; absent: all that is left. */
  amountCents?: number;
  reason: string;
  actor: string;
  /** The client's Idempotency-Key header. */
  key?: string | null;
  /** The refunded-so-far figure the client saw (the staff form sends it): a double click is one refund. */
  expectedRefundedCents?: number;
  /** The subscription the invoice must bill (a staff page's form): another's is not found. */
  subscriptionId?: number;
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * The tax part of `amountCents` refunded of an invoice: in proportion to its total, each line on its own, the running
 * total of each line rounded rather than each refund (tax/refundedTax, docs/decisions.md#49): no refund's tax is
 * negative, and refunding everything refunds each tax exactly.
 */
export function refundTax(
  invoice: { taxLines: TaxLine[]; totalCents: number },
  earlier: Pick<Refund, "taxLines">[],
  amountCents: number,
  refundedBeforeCents: number,
): TaxLine[] {
  const before = earlier.flatMap((r) => r.taxLines);
  return refundedTax(invoice.taxLines, invoice.totalCents, refundedBeforeCents, amountCents, before);
}

export class RefundsService {
  constructor(private readonly deps: RefundsDeps) {}

  /** Refunds a paid invoice; a repeat of the same request answers the first refund. */
  async refund(
    invoiceId: number,
    input: RefundRequest,
  ): Promise<{ refund: Refund; invoice: Invoice; repeated: boolean }> {
    return this.deps.transaction((tx) => this.refundIn(tx, invoiceId, input));
  }

  /** The refund in the caller's transaction (the demo seed's partial refund); `notify: false` sends no e-mail. */
  async refundIn(
    tx: Tx,
    invoiceId: number,
    input: RefundRequest & { notify?: boolean },
  ): Promise<{ refund: Refund; invoice: Invoice; repeated: boolean }> {
    const { invoices, refunds } = this.deps;
    const invoice = await invoices.lock(invoiceId, tx);
    if (!invoice || (input.subscriptionId !== undefined && invoice.subscriptionId !== input.subscriptionId))
      throw new NotFoundError("Invoice not found");
    const basis = input.key ? `key=${input.key}` : `so-far=${input.expectedRefundedCents ?? invoice.refundedCents}`;
    const requestKey = `refund:${invoice.id}:${input.amountCents ?? "rest"}:${createHash("sha256").update(basis).digest("hex").slice(0, 24)}`;
    const first = await refunds.findByKey(requestKey, tx);
    if (first) return { refund: first, invoice: (await invoices.find(invoice.id, tx))!, repeated: true };
    if (invoice.status !== "paid") throw new ConflictError("Only a paid invoice can be refunded");
    if (input.expectedRefundedCents !== undefined && input.expectedRefundedCents !== invoice.refundedCents)
      throw new ConflictError(
        `This invoice was refunded meanwhile: ${money(invoice.refundedCents)} of ${money(invoice.paidCents)} so far. Nothing more was refunded.`,
      );
    // What the card paid: a customer balance's part is not refunded to the card (docs/decisions.md#50).
    const left = invoice.paidCents - invoice.refundedCents;
    if (left <= 0) throw new ConflictError("This invoice has been refunded in full");
    const amountCents = input.amountCents ?? left;
    if (amountCents > left)
      throw new ValidationError(`At most ${money(left)} can be refunded`, {
        amountCents: `At most ${money(left)} is left to refund`,
      });
    const earlier = await refunds.forInvoice(invoice.id, tx);
    const taxLines = refundTax(invoice, earlier, amountCents, invoice.refundedCents);
    let provider: { refundId: string; creditNoteId: string | null };
    if (invoice.provider === "stripe") {
      if (!this.deps.stripe) throw new ConflictError("Stripe is not configured: this invoice cannot be refunded here");
      provider = await this.deps.stripe.refund(invoice.providerInvoiceId, {
        amountCents,
        reason: input.reason,
        key: requestKey,
        havenInvoiceId: invoice.id,
      });
    } else {
      // The demo provider's twin of a refund and its credit note.
      const n = earlier.length + 1;
      provider = { refundId: `demo_re_${invoice.id}_${n}`, creditNoteId: `demo_cn_${invoice.id}_${n}` };
    }
    const refund = await this.store(
      invoice,
      {
        providerRefundId: provider.refundId,
        creditNoteId: provider.creditNoteId,
        amountCents,
        taxLines,
        reason: input.reason,
        actor: input.actor,
        requestKey,
        notify: input.notify,
      },
      tx,
    );
    // A webhook for this very refund got here first (Stripe answered before this transaction wrote it).
    const stored = refund ?? (await refunds.findByProviderId(invoice.provider, provider.refundId, tx))!;
    const after = (await invoices.find(invoice.id, tx))!;
    if (refund)
      await this.deps.audit.record(tx, {
        actor: input.actor,
        action: "invoice.refund",
        recordType: "invoice",
        recordId: invoice.id,
        before: { refundedCents: invoice.refundedCents },
        after: {
          refundedCents: invoice.refundedCents + amountCents,
          refundId: refund.id,
          amountCents,
          reason: input.reason,
        },
      });
    return { refund: stored, invoice: after, repeated: !refund };
  }

  /**
   * A refund the provider reports (charge.refunded, reconciliation): recorded once, tax in proportion, the customer
   * told, in the caller's transaction; the invoice's row is locked here. Null when it was already recorded.
   */
  async recordProviderRefund(
    invoiceId: number,
    refund: { providerRefundId: string; amountCents: number; reason: string | null; createdAt: Date },
    tx: Tx,
  ): Promise<Refund | null> {
    const { invoices, refunds } = this.deps;
    const invoice = await invoices.lock(invoiceId, tx);
    if (!invoice) return null;
    if (await refunds.findByProviderId(invoice.provider, refund.providerRefundId, tx)) return null;
    const amountCents = Math.min(refund.amountCents, invoice.paidCents - invoice.refundedCents);
    if (amountCents <= 0) return null;
    const earlier = await refunds.forInvoice(invoice.id, tx);
    return this.store(
      invoice,
      {
        providerRefundId: refund.providerRefundId,
        creditNoteId: null,
        amountCents,
        taxLines: refundTax(invoice, earlier, amountCents, invoice.refundedCents),
        reason: refund.reason,
        actor: "stripe",
        requestKey: null,
        createdAt: refund.createdAt,
      },
      tx,
    );
  }

  /** Writes the refund and the invoice's figure, logs it on the subscription and queues the customer's e-mail. */
  private async store(
    invoice: Invoice & { provider: string },
    refund: {
      providerRefundId: string;
      creditNoteId: string | null;
      amountCents: number;
      taxLines: TaxLine[];
      reason: string | null;
      actor: string;
      requestKey: string | null;
      createdAt?: Date;
      notify?: boolean;
    },
    tx: Tx,
  ): Promise<Refund | null> {
    const { refunds, invoices, subscriptions, mailer } = this.deps;
    const stored = await refunds.record(
      {
        invoiceId: invoice.id,
        provider: invoice.provider,
        providerRefundId: refund.providerRefundId,
        amountCents: refund.amountCents,
        taxCents: refund.taxLines.reduce((sum, l) => sum + l.amountCents, 0),
        taxLines: refund.taxLines,
        reason: refund.reason,
        actor: refund.actor,
        creditNoteId: refund.creditNoteId,
        requestKey: refund.requestKey,
        createdAt: refund.createdAt,
      },
      tx,
    );
    if (!stored) return null;
    await subscriptions.logEvent(
      invoice.subscriptionId,
      {
        kind: "refunded",
        actor: refund.actor,
        detail: { invoice: invoice.number, amountCents: refund.amountCents, reason: refund.reason },
      },
      tx,
    );
    const sub = await subscriptions.find(invoice.subscriptionId, tx);
    const after = await invoices.find(invoice.id, tx);
    if (sub && after && refund.notify !== false)
      await mailer.send("refund", sub, tx, {
        invoice: mailInvoice(after),
        reason: refund.reason,
        refund: {
          amountCents: refund.amountCents,
          taxLines: refund.taxLines.map((l) => ({ label: l.label, amountCents: l.amountCents })),
        },
      });
    this.deps.log.info(
      { invoice: invoice.id, refund: stored.providerRefundId, amountCents: stored.amountCents },
      "invoice refunded",
    );
    return stored;
  }
}
