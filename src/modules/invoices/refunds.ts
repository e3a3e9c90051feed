// Refunds (docs/decisions.md#34, #52): staff refund a paid invoice, a subscription's or an accepted quote's, in full
// or in part, with a reason. The amount is what the customer gets back, tax included; its tax is in proportion. The
// request's key (invoice, amount, Idempotency-Key or the refunded-so-far figure) makes a repeat the same refund.
// With Stripe the intent is written first, under the invoice's lock; Stripe is called outside any transaction with
// the intent's key; its answer is recorded; a job finishes what is left (refund-stripe-flow.ts).
import { documentLocale } from "./document-locale.js";
import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import type { AuditLog } from "../audit/index.js";
import { type TaxLine, refundedTax } from "../tax/index.js";
import { mailInvoice } from "./invoice-mail.js";
import { quoteRefundEmail } from "./credit-note-mail.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { RefundIntent, RefundRequestsRepository } from "./refund-requests.repository.js";
import { RefundStripeFlow } from "./refund-stripe-flow.js";
import { type NewRefund, type RefundOutcome, succeededView } from "./refund-views.js";
import type { RefundableInvoice, Refund, RefundsRepository } from "./refunds.repository.js";
import type { StripeRefunds } from "./refunds-stripe.js";
import type { InvoiceMailer, InvoiceSubscriptions } from "./invoices.ports.js";

export interface RefundsDeps {
  invoices: Pick<InvoicesRepository, "find">;
  refunds: RefundsRepository;
  /** Staff refunds' intents (Stripe's refunds are recorded once Stripe answers). */
  requests: RefundRequestsRepository;
  subscriptions: InvoiceSubscriptions;
  mailer: InvoiceMailer;
  transaction: TransactionRunner;
  /** Stripe's refunds and credit notes; null in demo mode. */
  stripe: StripeRefunds | null;
  log: Logger;
  /** The audit trail: each refund staff or the CLI make is one event (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
}

export { type RefundOutcome, type RefundView, pendingView, succeededView } from "./refund-views.js";

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
  /** Only tax charged in the wrong province, these lines (docs/decisions.md#57); else the tax is in proportion. */
  taxLines?: TaxLine[];
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
  private readonly flow: RefundStripeFlow | null;

  constructor(private readonly deps: RefundsDeps) {
    this.flow = deps.stripe ? new RefundStripeFlow(deps, deps.stripe, this) : null;
  }

  /**
   * Refunds a paid invoice; a repeat of the same request answers the first refund. With Stripe a refund Stripe did
   * not confirm is answered `pending` (the job or a repeat finishes it); a 503 means nothing was refunded.
   */
  async refund(invoiceId: number, input: RefundRequest): Promise<RefundOutcome> {
    const begun = await this.deps.transaction((tx) => this.begin(tx, invoiceId, input));
    if ("done" in begun) return begun.done;
    return this.flow!.drive(begun.intent, { repeated: begun.repeated });
  }

  /**
   * A demo invoice's refund in the caller's transaction (the demo seed's partial refund); `notify: false` queues no
   * e-mail. A Stripe refund is never made inside a transaction (docs/decisions.md#52).
   */
  async refundIn(tx: Tx, invoiceId: number, input: RefundRequest & { notify?: boolean }): Promise<RefundOutcome> {
    const begun = await this.begin(tx, invoiceId, input, input.notify);
    if ("done" in begun) return begun.done;
    throw new ConflictError("A Stripe refund is made with refund(), outside any transaction");
  }

  /** The finishing job (refunds.tasks.ts): a pending refund's answer, then its Stripe credit note. */
  async finish(requestId: number): Promise<void> {
    await this.flow?.finish(requestId);
  }

  /**
   * Under the invoice's lock: the first answer to a request made before, else the rules, then the demo refund
   * recorded at once, or Stripe's intent written (with its finishing job) for `refund` to send.
   */
  private async begin(
    tx: Tx,
    invoiceId: number,
    input: RefundRequest,
    notify?: boolean,
  ): Promise<{ done: RefundOutcome } | { intent: RefundIntent; repeated: boolean }> {
    const { refunds, requests } = this.deps;
    const invoice = await refunds.lockInvoice(invoiceId, tx);
    if (!invoice || (input.subscriptionId !== undefined && invoice.subscriptionId !== input.subscriptionId))
      throw new NotFoundError("Invoice not found");
    const basis = input.key ? `key=${input.key}` : `so-far=${input.expectedRefundedCents ?? invoice.refundedCents}`;
    const requestKey = `refund:${invoice.id}:${input.amountCents ?? "rest"}:${createHash("sha256").update(basis).digest("hex").slice(0, 24)}`;
    const answer = async (refund: Refund, requestId: number | null = null) => ({
      done: {
        refund: succeededView(refund, requestId),
        invoice: (await this.deps.invoices.find(invoice.id, tx))!,
        repeated: true,
      },
    });
    const first = await refunds.findByKey(requestKey, tx);
    const intent = await requests.findByKey(requestKey, tx);
    if (first) return answer(first, intent?.id ?? null);
    // Sent before and not confirmed: the same intent, the same Stripe key (docs/decisions.md#52).
    if (intent) return { intent, repeated: true };
    if (invoice.status !== "paid") throw new ConflictError("Only a paid invoice can be refunded");
    if (input.expectedRefundedCents !== undefined && input.expectedRefundedCents !== invoice.refundedCents)
      throw new ConflictError(
        `This invoice was refunded meanwhile: ${money(invoice.refundedCents)} of ${money(invoice.paidCents)} so far. Nothing more was refunded.`,
      );
    // What the card paid: a customer balance's part is not refunded to the card (docs/decisions.md#50).
    if (invoice.paidCents - invoice.refundedCents <= 0)
      throw new ConflictError("This invoice has been refunded in full");
    // A refund sent and not confirmed keeps its amount until Stripe's answer is recorded.
    const reserved = (await requests.pendingOf(invoice.id, tx)).reduce((sum, r) => sum + r.amountCents, 0);
    const left = invoice.paidCents - invoice.refundedCents - reserved;
    if (left <= 0)
      throw new ConflictError(
        `A refund of ${money(reserved)} is waiting for Stripe's confirmation: nothing more can be refunded until it is confirmed.`,
      );
    const amountCents = input.amountCents ?? left;
    if (amountCents > left)
      throw new ValidationError(`At most ${money(left)} can be refunded`, {
        amountCents: `At most ${money(left)} is left to refund`,
      });
    if (invoice.provider !== "stripe") {
      // The demo provider's twin of a refund and its credit note, recorded at once.
      const n = (await refunds.forInvoice(invoice.id, tx)).length + 1;
      const made = await this.store(
        invoice,
        {
          providerRefundId: `demo_re_${invoice.id}_${n}`,
          creditNoteId: `demo_cn_${invoice.id}_${n}`,
          amountCents,
          reason: input.reason,
          actor: input.actor,
          requestKey,
          notify,
          taxLines: input.taxLines,
        },
        tx,
      );
      return {
        done: {
          refund: succeededView(made!),
          invoice: (await this.deps.invoices.find(invoice.id, tx))!,
          repeated: false,
        },
      };
    }
    if (!this.flow || notify !== undefined)
      throw new ConflictError("Stripe is not configured: this invoice cannot be refunded here");
    if (invoice.quoteRequestId && !invoice.paymentIntentId)
      throw new ConflictError("This invoice was not paid by card through Stripe: refund it in Stripe's dashboard");
    const created = await requests.insert(
      {
        invoiceId: invoice.id,
        requestKey,
        amountCents,
        reason: input.reason,
        actor: input.actor,
        taxLines: input.taxLines,
      },
      tx,
    );
    // Whatever happens to this request after the commit, the job finishes it (docs/decisions.md#52).
    await requests.queueFinish(created.id, tx);
    return { intent: created, repeated: false };
  }

  /**
   * A refund the provider reports (charge.refunded, reconciliation, a dashboard refund of a quote's payment):
   * recorded once, tax in proportion, the customer told, in the caller's transaction; the invoice's row is locked
   * here. When it is Haven's own request whose answer was not recorded yet (named by `requestId`, Stripe's
   * `metadata.haven_refund_request`, else the oldest pending request of that amount), it settles that request.
   * Null when it was already recorded.
   */
  async recordProviderRefund(
    invoiceId: number,
    refund: {
      providerRefundId: string;
      amountCents: number;
      reason: string | null;
      createdAt: Date;
      requestId?: number | null;
    },
    tx: Tx,
  ): Promise<Refund | null> {
    const { refunds, requests } = this.deps;
    const invoice = await refunds.lockInvoice(invoiceId, tx);
    if (!invoice) return null;
    if (await refunds.findByProviderId(invoice.provider, refund.providerRefundId, tx)) return null;
    const pending = await requests.pendingOf(invoice.id, tx);
    const intent =
      refund.requestId != null
        ? pending.find((i) => i.id === refund.requestId)
        : pending.find((i) => i.amountCents === refund.amountCents);
    const stored = await this.store(
      invoice,
      {
        providerRefundId: refund.providerRefundId,
        creditNoteId: null,
        amountCents: refund.amountCents,
        reason: intent?.reason ?? refund.reason,
        actor: intent?.actor ?? "stripe",
        requestKey: intent?.requestKey ?? null,
        taxLines: intent?.taxLines ?? undefined,
        createdAt: intent ? undefined : refund.createdAt,
      },
      tx,
    );
    if (intent && stored) {
      await requests.succeeded(intent.id, { refundId: stored.id, providerRefundId: refund.providerRefundId }, tx);
      // Its Stripe credit note is still to make.
      await requests.queueFinish(intent.id, tx);
    }
    return stored;
  }

  /**
   * Writes the refund (numbered as a credit note) and the invoice's figure, at most what is left of what the card
   * paid; logs it on the subscription, records a staff refund in the audit trail and queues the customer's e-mail
   * (a quote's invoice: to its home's customer). Null when it was already recorded or nothing is left.
   */
  async store(invoice: RefundableInvoice, refund: NewRefund, tx: Tx): Promise<Refund | null> {
    const { refunds, invoices, subscriptions, mailer } = this.deps;
    const amountCents = Math.min(refund.amountCents, invoice.paidCents - invoice.refundedCents);
    if (amountCents <= 0) return null;
    const taxLines =
      refund.taxLines ??
      refundTax(invoice, await refunds.forInvoice(invoice.id, tx), amountCents, invoice.refundedCents);
    const stored = await refunds.record(
      {
        invoiceId: invoice.id,
        provider: invoice.provider,
        providerRefundId: refund.providerRefundId,
        amountCents,
        taxCents: taxLines.reduce((sum, l) => sum + l.amountCents, 0),
        taxLines,
        reason: refund.reason,
        actor: refund.actor,
        creditNoteId: refund.creditNoteId,
        requestKey: refund.requestKey,
        createdAt: refund.createdAt,
      },
      tx,
    );
    if (!stored) return null;
    const after = (await invoices.find(invoice.id, tx))!;
    const lines = taxLines.map((l) => ({ kind: l.kind, label: l.label, amountCents: l.amountCents }));
    if (invoice.subscriptionId) {
      await subscriptions.logEvent(
        invoice.subscriptionId,
        {
          kind: "refunded",
          actor: refund.actor,
          detail: { invoice: invoice.number, creditNote: stored.number, amountCents, reason: refund.reason },
        },
        tx,
      );
      const sub = await subscriptions.find(invoice.subscriptionId, tx);
      if (sub && refund.notify !== false)
        await mailer.send("refund", sub, tx, {
          invoice: mailInvoice(after),
          reason: refund.reason,
          refund: { amountCents, taxLines: lines, number: stored.number },
        });
    } else {
      const payer = await refunds.payerOf(invoice.id, tx);
      const { business, publicUrl } = mailer.settings;
      if (payer.email && refund.notify !== false)
        await mailer.queue(
          quoteRefundEmail({
            to: payer.email,
            name: payer.name,
            work: payer.quoteTitle,
            invoiceNumber: invoice.number,
            creditNote: stored.number,
            amountCents,
            taxLines: lines,
            reason: refund.reason,
            legalName: business?.legalName ?? "Haven",
            gstHstNumber: business?.gstHstNumber ?? null,
            qstNumber: business?.qstNumber ?? null,
            origin: publicUrl,
            locale: documentLocale(payer.locale, invoice.taxProvince),
          }),
          tx,
        );
    }
    if (refund.actor !== "stripe")
      await this.deps.audit.record(tx, {
        actor: refund.actor,
        action: "invoice.refund",
        recordType: "invoice",
        recordId: invoice.id,
        before: { refundedCents: invoice.refundedCents },
        after: {
          refundedCents: invoice.refundedCents + amountCents,
          refundId: stored.id,
          creditNote: stored.number,
          amountCents,
          reason: refund.reason,
        },
      });
    this.deps.log.info(
      { invoice: invoice.id, refund: stored.providerRefundId, number: stored.number, amountCents },
      "invoice refunded",
    );
    return stored;
  }
}
