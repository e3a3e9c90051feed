// A staff refund at Stripe, after its intent was written (docs/decisions.md#52): Stripe is called outside any
// transaction with the intent's key (a repeat is Stripe's first answer), its answer recorded under the invoice's
// lock, then the Stripe credit note made. "Nothing was changed" (503) only when nothing was sent or Stripe certainly
// refused; no answer leaves the intent pending for the job (refunds.tasks.ts) or a repeat to finish.
import type Stripe from "stripe";
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, HttpError } from "../../http/errors.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { RefundIntent, RefundRequestsRepository } from "./refund-requests.repository.js";
import { type NewRefund, type RefundOutcome, pendingView, succeededView } from "./refund-views.js";
import type { Refund, RefundableInvoice, RefundsRepository } from "./refunds.repository.js";
import { RefundRefusedError, type StripeRefunds } from "./refunds-stripe.js";

/** Nothing was refunded: it was never sent, or Stripe certainly refused it. */
export class RefundNotMadeError extends HttpError {
  constructor(reason: string) {
    // A provider's reason keeps its own full stop (docs/decisions.md#41).
    super(503, `${reason}${/[.!?]$/.test(reason) ? "" : "."} Nothing was changed.`);
  }
}

export interface RefundStripeFlowDeps {
  invoices: Pick<InvoicesRepository, "find">;
  refunds: Pick<RefundsRepository, "lockInvoice" | "readInvoice" | "findByProviderId" | "find" | "setCreditNote">;
  requests: RefundRequestsRepository;
  transaction: TransactionRunner;
  log: Logger;
}

/** Where a refund is written (RefundsService.store: the credit note's number, the e-mail, the audit event). */
export interface RefundStore {
  store(invoice: RefundableInvoice, refund: NewRefund, tx: Tx): Promise<Refund | null>;
}

/** Stripe's refunds that moved money or may yet (a bank's refund is `pending` for days). */
const made = (refund: Stripe.Refund) => refund.status !== "failed" && refund.status !== "canceled";

export class RefundStripeFlow {
  constructor(
    private readonly deps: RefundStripeFlowDeps,
    private readonly stripe: StripeRefunds,
    private readonly writer: RefundStore,
  ) {}

  /** Sends the intent to Stripe (again: the same key) and records the answer; pending when Stripe did not answer. */
  async drive(intent: RefundIntent, opts: { repeated: boolean }): Promise<RefundOutcome> {
    const { requests } = this.deps;
    const invoice = await this.deps.refunds.readInvoice(intent.invoiceId);
    if (!invoice) throw new RefundNotMadeError("The invoice is gone.");
    let paymentIntent: string | null;
    try {
      paymentIntent = invoice.paymentIntentId ?? (await this.stripe.paymentIntentOf(invoice.providerInvoiceId));
    } catch {
      if (await requests.remove(intent.id, { neverSent: true }))
        throw new RefundNotMadeError("The payment provider could not be reached.");
      return this.answer(intent.id, opts);
    }
    if (!paymentIntent) {
      // Paid otherwise than by a PaymentIntent (out of band, or credit): nothing at Stripe to refund.
      if (await requests.remove(intent.id, { neverSent: true }))
        throw new ConflictError("This invoice was not paid by card through Stripe: refund it in Stripe's dashboard");
      return this.answer(intent.id, opts);
    }
    // Claimed before sending: a request with no try claimed was never sent (and only such a one is dropped).
    const claimed = await requests.claimAttempt(intent.id);
    if (!claimed) return this.answer(intent.id, opts);
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.createRefund(paymentIntent, {
        amountCents: claimed.amountCents,
        reason: claimed.reason,
        key: claimed.requestKey,
        havenInvoiceId: invoice.id,
        requestId: claimed.id,
      });
    } catch (error) {
      if (error instanceof RefundRefusedError) return this.refused(claimed, paymentIntent, error.message, opts);
      await requests.failed(claimed.id, (error as Error).message);
      return this.answer(claimed.id, opts);
    }
    if (!made(refund)) return this.refused(claimed, paymentIntent, `the refund ${refund.status}.`, opts);
    return this.record(claimed, refund, opts);
  }

  /**
   * The job: a pending intent's refund found at Stripe (by its metadata) and recorded, else sent again with its key;
   * a recorded one's Stripe credit note. Throws while something is left, so graphile-worker tries again later.
   */
  async finish(requestId: number): Promise<void> {
    const { requests, refunds } = this.deps;
    const intent = await requests.find(requestId);
    if (!intent) return; // Nothing was refunded: nothing to finish.
    if (intent.status === "succeeded") {
      const refund = intent.refundId ? await refunds.find(intent.refundId) : null;
      if (refund) await this.creditNote(refund);
      return;
    }
    const invoice = await refunds.readInvoice(intent.invoiceId);
    const paymentIntent = invoice
      ? (invoice.paymentIntentId ?? (await this.stripe.paymentIntentOf(invoice.providerInvoiceId)))
      : null;
    const found = paymentIntent ? await this.stripe.findRefund(paymentIntent, intent.id) : null;
    if (found && made(found)) {
      await this.record(intent, found, { repeated: false });
      return;
    }
    try {
      const outcome = await this.drive(intent, { repeated: false });
      if (outcome.refund.status === "pending") throw new Error(`Refund request ${requestId}: Stripe has not answered`);
    } catch (error) {
      if (!(error instanceof RefundNotMadeError || error instanceof ConflictError)) throw error;
      this.deps.log.warn({ request: requestId, err: error }, "refund not made: the request is dropped");
    }
  }

  /**
   * Stripe said no. A key older than Stripe keeps (24 hours) reaches Stripe as a new request, so after an earlier
   * try the refund is looked for first: it may have been made then.
   */
  private async refused(
    intent: RefundIntent,
    paymentIntent: string,
    reason: string,
    opts: { repeated: boolean },
  ): Promise<RefundOutcome> {
    if (intent.attempts > 1) {
      let found: Stripe.Refund | null;
      try {
        found = await this.stripe.findRefund(paymentIntent, intent.id);
      } catch (error) {
        await this.deps.requests.failed(intent.id, (error as Error).message);
        return this.answer(intent.id, opts);
      }
      if (found && made(found)) return this.record(intent, found, opts);
    }
    await this.deps.requests.remove(intent.id);
    this.deps.log.warn({ request: intent.id, reason }, "Stripe refused the refund");
    throw new RefundNotMadeError(`Stripe refused the refund: ${reason}`);
  }

  /** Stripe's refund recorded under the invoice's lock (once: a webhook may have got here first), then its credit note. */
  private async record(intent: RefundIntent, refund: Stripe.Refund, opts: { repeated: boolean }) {
    const { refunds, requests } = this.deps;
    const stored = await this.deps.transaction(async (tx) => {
      const invoice = await refunds.lockInvoice(intent.invoiceId, tx);
      if (!invoice) return null;
      const already = await refunds.findByProviderId("stripe", refund.id, tx);
      const row =
        already ??
        (await this.writer.store(
          invoice,
          {
            providerRefundId: refund.id,
            creditNoteId: null,
            amountCents: refund.amount,
            reason: intent.reason,
            actor: intent.actor,
            requestKey: intent.requestKey,
            taxLines: intent.taxLines ?? undefined,
          },
          tx,
        ));
      if (!row) return null;
      await requests.succeeded(intent.id, { refundId: row.id, providerRefundId: refund.id }, tx);
      // Its credit note, should the call below not make it.
      await requests.queueFinish(intent.id, tx);
      return row;
    });
    if (!stored) {
      this.deps.log.error(
        { request: intent.id, refund: refund.id },
        "Stripe refunded more than Haven's invoice has left",
      );
      throw new ConflictError("Stripe refunded it, but Haven's invoice had nothing left to refund: check it in Stripe");
    }
    let withNote = stored;
    try {
      withNote = await this.creditNote(stored);
    } catch (error) {
      this.deps.log.warn({ refund: stored.id, err: error }, "credit note not made yet: the job makes it");
    }
    const invoice = (await this.deps.invoices.find(intent.invoiceId))!;
    return { refund: succeededView(withNote, intent.id), invoice, repeated: opts.repeated };
  }

  /**
   * Stripe's credit note of a staff refund of a Stripe invoice, made once (refunds-stripe.ts finds one already made).
   * A quote's invoice has no Stripe invoice to credit: Haven's own numbered credit note is all there is.
   */
  private async creditNote(refund: Refund): Promise<Refund> {
    if (refund.creditNoteId || !refund.requestKey) return refund;
    const invoice = await this.deps.refunds.readInvoice(refund.invoiceId);
    if (!invoice?.subscriptionId || invoice.provider !== "stripe") return refund;
    const id = await this.stripe.creditNote(invoice.providerInvoiceId, {
      refundId: refund.providerRefundId,
      amountCents: refund.amountCents,
      reason: refund.reason ?? "Refund",
      key: `${refund.requestKey}:credit-note`,
      havenInvoiceId: invoice.id,
    });
    await this.deps.refunds.setCreditNote(refund.id, id);
    return { ...refund, creditNoteId: id };
  }

  /** The request's answer as it stands: its refund once recorded, else pending; gone means nothing was refunded. */
  private async answer(requestId: number, opts: { repeated: boolean }): Promise<RefundOutcome> {
    const intent = await this.deps.requests.find(requestId);
    if (!intent) throw new RefundNotMadeError("The refund was not made.");
    const refund = intent.refundId ? await this.deps.refunds.find(intent.refundId) : null;
    const invoice = (await this.deps.invoices.find(intent.invoiceId))!;
    return {
      refund: refund ? succeededView(refund, intent.id) : pendingView(intent),
      invoice,
      repeated: opts.repeated,
    };
  }
}
