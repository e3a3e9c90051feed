// Paying an accepted quote by card (docs/decisions.md#43): its invoice is made at acceptance, in the acceptance's
// transaction, with the figures of quoteTotals on that day; a pay locks the invoice row first, so two pays charge once.
// Stripe is never called while the row is locked (docs/decisions.md#56): read, call, then store under the lock.
import { enqueueJob, type Tx } from "../../db/transaction.js";
import { ConflictError, HttpError, NotFoundError } from "../../http/errors.js";

import { todayIn } from "../../shared/business-time.js";
import { hashToken, isToken, newToken } from "../../shared/one-time-links.js";
import { MAIL_SEND_TASK } from "../mail/index.js";
import { type Invoice, documentLocale } from "../invoices/index.js";
import { formatters } from "../../i18n/index.js";
import { isProvince, provinceOfPostalCode } from "../tax/index.js";
import { expiredMessage, isExpired, quoteTotals } from "./quote-document.js";
import { type QuoteFigures, quoteAcceptedEmail, quoteBookedEmail, quoteReceiptEmail } from "./quote-payments.mail.js";
import type { PayableQuote } from "./quote-payments.repository.js";
import { formatCents } from "./quotes.constants.js";
import type { LockedQuoteInvoice, PayOutcome, Payer, QuotePayView, QuotePaymentsDeps } from "./quote-payments.ports.js";

/** Paying a quote past its validity (docs/decisions.md#43): a 409 that knows the day, to say it in French too. */
export class QuotePayExpiredError extends ConflictError {
  constructor(readonly validUntil: string) {
    super(expiredMessage(validUntil));
  }
}

/** The office books an accepted quote's work with the homeowner within this many business days (decisions.md#43). */
export const BOOK_WITHIN_BUSINESS_DAYS = 2;

export const NOT_ACCEPTED_MESSAGE = "Accept this quote before paying it.";
export const NO_SINGLE_PRICE_MESSAGE =
  "This quote has no single price, so it cannot be paid online. Our office will send you an invoice.";

class PaymentDeclinedError extends HttpError {
  constructor(message: string) {
    super(402, message);
  }
}

const figuresOf = (invoice: Invoice): QuoteFigures => ({
  number: invoice.number,
  subtotalCents: Math.round(invoice.subtotal * 100),
  taxLines: invoice.taxLines,
  totalCents: Math.round(invoice.amount * 100),
});

export class QuotePayments {
  constructor(private readonly deps: QuotePaymentsDeps) {}

  private province(quote: PayableQuote): string {
    if (quote.taxProvince && isProvince(quote.taxProvince)) return quote.taxProvince;
    return provinceOfPostalCode(quote.postalCode) ?? this.deps.business.province;
  }

  /**
   * In the acceptance's transaction (every path: My Home, the quote report link, staff): the task's accepted quote
   * gets its open invoice (quoteTotals on the acceptance day, a number from the gapless counter) and the homeowner
   * the acceptance e-mail with a pay link (only its SHA-256 is stored). A quote without a single price gets neither.
   */
  async onAccepted(maintenanceTaskId: number, tx: Tx, now: Date = new Date()): Promise<number | null> {
    const quote = await this.deps.repo.acceptedOfTask(maintenanceTaskId, tx);
    if (!quote || quote.quotedCents === null) return null;
    const day = todayIn(this.deps.settings.timeZone, now);
    const province = this.province(quote);
    const totals = quoteTotals(quote.quotedCents, province, day, this.deps.business.taxRegistered);
    const token = newToken();
    const { id, created } = await this.deps.invoices.insertQuoteInvoice(
      {
        quoteRequestId: quote.id,
        provider: this.deps.provider,
        ...totals,
        province,
        issuedAt: now,
        payTokenHash: hashToken(token),
      },
      tx,
    );
    if (!created) return id;
    const invoice = (await this.deps.invoices.lockQuoteInvoice({ id }, tx))!;
    const origin = this.deps.settings.publicUrl;
    await enqueueJob(
      tx,
      MAIL_SEND_TASK,
      quoteAcceptedEmail({
        to: quote.clientEmail,
        clientName: quote.clientName,
        taskTitle: quote.taskTitle,
        propertyAddress: quote.propertyAddress,
        figures: figuresOf(invoice),
        origin,
        payLink: `${origin}/quote-pay/${token}`,
        bookWithinDays: BOOK_WITHIN_BUSINESS_DAYS,
        locale: quote.clientLocale,
      }),
    );
    return id;
  }

  /** Locks the payer's invoice; a quote that is not theirs, or an unknown link, is a 404; one not accepted a 409. */
  private async lockFor(
    payer: Payer,
    tx: Tx,
    now: Date,
  ): Promise<{ invoice: LockedQuoteInvoice; quote: PayableQuote }> {
    if ("token" in payer) {
      const invoice = isToken(payer.token)
        ? await this.deps.invoices.lockQuoteInvoice({ payTokenHash: hashToken(payer.token) }, tx)
        : null;
      const quote = invoice?.quoteRequestId ? await this.deps.repo.find(invoice.quoteRequestId, tx) : null;
      if (!invoice || !quote) throw new NotFoundError("This pay link is not valid");
      return { invoice, quote };
    }
    const quote = await this.deps.repo.find(payer.quoteRequestId, tx);
    if (!quote || !payer.mayPay(quote.propertyId)) throw new NotFoundError("Quote request not found");
    const invoice = await this.deps.invoices.lockQuoteInvoice({ quoteRequestId: quote.id }, tx);
    if (!invoice) {
      if (quote.status === "quoted" && this.expired(quote, now)) throw new QuotePayExpiredError(quote.validUntil!);
      if (quote.status === "accepted" && quote.quotedCents === null) throw new ConflictError(NO_SINGLE_PRICE_MESSAGE);
      throw new ConflictError(NOT_ACCEPTED_MESSAGE);
    }
    return { invoice, quote };
  }

  /**
   * Past its validity (the whole `valid_until` day in BUSINESS_TZ), an accepted quote cannot be paid
   * (docs/decisions.md#43): read under the invoice's row lock, so a pay and the day's end cannot interleave.
   */
  private expired(quote: PayableQuote, now: Date): boolean {
    return isExpired(quote.validUntil, this.today(now));
  }

  private today(now: Date): string {
    return todayIn(this.deps.settings.timeZone, now);
  }

  /** A charge about to be taken for an expired quote: 409, nothing written. */
  private refuseExpired(quote: PayableQuote, now: Date): void {
    if (this.expired(quote, now)) throw new QuotePayExpiredError(quote.validUntil!);
  }

  private async paid(invoice: LockedQuoteInvoice, quote: PayableQuote, tx: Tx, now: Date): Promise<Invoice> {
    await this.deps.invoices.markQuoteInvoicePaid(invoice.id, now, tx);
    const paid = { ...invoice, status: "paid", paidAt: now.toISOString() };
    await this.queueReceipt(paid, quote, tx);
    return paid;
  }

  /** The receipt of a paid quote invoice, queued in the caller's transaction. */
  private queueReceipt(paid: Invoice, quote: PayableQuote, tx: Tx): Promise<void> {
    const origin = this.deps.settings.publicUrl;
    // A receipt in its invoice's language: French for a Quebec home (docs/decisions.md#68).
    const locale = documentLocale(quote.clientLocale, paid.taxProvince);
    return enqueueJob(
      tx,
      MAIL_SEND_TASK,
      quoteReceiptEmail({
        to: quote.clientEmail,
        clientName: quote.clientName,
        taskTitle: quote.taskTitle,
        propertyAddress: quote.propertyAddress,
        figures: figuresOf(paid),
        origin,
        paidOn: formatters(locale).longDate(todayIn(this.deps.settings.timeZone, new Date(paid.paidAt!))),
        registration: this.deps.business.gstHstNumber,
        legalName: this.deps.business.legalName,
        pdfLink: `${origin}/my-home/quotes/${quote.id}/invoice.pdf`,
        locale,
      }),
    );
  }

  /**
   * The office sends a paid quote invoice's receipt again (subscriptions' receipt resends, under the invoice's lock):
   * to the home's customer as the first one went; answers the address.
   */
  async resendReceipt(invoice: Invoice, tx: Tx): Promise<string> {
    const quote = invoice.quoteRequestId ? await this.deps.repo.find(invoice.quoteRequestId, tx) : null;
    if (!quote) throw new ConflictError("This invoice's quote request is gone: its receipt cannot be sent again");
    await this.queueReceipt(invoice, quote, tx);
    return quote.clientEmail;
  }

  /** Demo mode: the demo card form's card, charged once under the invoice's lock. */
  async payDemo(payer: Payer, card: { cardNumber: string }, now: Date = new Date()): Promise<PayOutcome> {
    if (this.deps.provider !== "demo") throw new ConflictError("Card payments go through Stripe here.");
    return this.deps.transaction(async (tx) => {
      const { invoice, quote } = await this.lockFor(payer, tx, now);
      if (invoice.status === "paid") return { status: "paid", invoice, alreadyPaid: true };
      this.refuseExpired(quote, now);
      const declined = this.deps.demoDeclines[card.cardNumber];
      if (declined) throw new PaymentDeclinedError(declined);
      return { status: "paid", invoice: await this.paid(invoice, quote, tx, now), alreadyPaid: false };
    });
  }

  /**
   * Stripe: the invoice's one PaymentIntent (idempotency key from the invoice, never the clock); the Payment Element
   * confirms it in the browser. Stripe is called with no transaction open (docs/decisions.md#56): the invoice is read
   * under its lock, the intent made or read back, then stored under the lock again, where the invoice is read anew (a
   * parallel pay may have stored it or paid it meanwhile). One already succeeded marks the invoice paid.
   */
  async startStripe(payer: Payer, now: Date = new Date()): Promise<PayOutcome> {
    const stripe = this.deps.stripe;
    if (this.deps.provider !== "stripe" || !stripe) throw new ConflictError("Demo payments: use the demo card form.");
    const before = await this.deps.transaction(async (tx) => {
      const { invoice, quote } = await this.lockFor(payer, tx, now);
      // No client secret, and no PaymentIntent, for an expired quote.
      if (invoice.status !== "paid") this.refuseExpired(quote, now);
      return { invoice, quote };
    });
    if (before.invoice.status === "paid") return { status: "paid", invoice: before.invoice, alreadyPaid: true };
    const { invoice, quote } = before;
    const intent = invoice.paymentIntentId
      ? await stripe.paymentIntents.retrieve(invoice.paymentIntentId)
      : await stripe.paymentIntents.create(
          {
            amount: invoice.totalCents,
            currency: "cad",
            description: `Haven invoice ${invoice.number}: ${quote.taskTitle}`,
            receipt_email: quote.clientEmail,
            automatic_payment_methods: { enabled: true },
            metadata: { haven_quote_invoice: String(invoice.id), quote_request_id: String(quote.id) },
          },
          { idempotencyKey: `haven-quote-invoice-${invoice.id}` },
        );
    return this.deps.transaction(async (tx) => {
      const locked = await this.lockFor(payer, tx, now);
      if (locked.invoice.status === "paid") return { status: "paid", invoice: locked.invoice, alreadyPaid: true };
      // The first intent stored is the invoice's: the key makes a parallel pay's the same one.
      if (!locked.invoice.paymentIntentId) await this.deps.invoices.setPaymentIntent(locked.invoice.id, intent.id, tx);
      const mine = (locked.invoice.paymentIntentId ?? intent.id) === intent.id;
      if (mine && intent.status === "succeeded")
        return { status: "paid", invoice: await this.paid(locked.invoice, locked.quote, tx, now), alreadyPaid: false };
      this.refuseExpired(locked.quote, now);
      if (!mine) throw new ConflictError("This invoice's payment changed meanwhile: try again.");
      return { status: "requires_payment", clientSecret: intent.client_secret!, invoice: locked.invoice };
    });
  }

  /**
   * Stripe's return: reads the intent back (with no transaction open, docs/decisions.md#56) and marks the invoice paid
   * once it succeeded, under the invoice's lock. A charge Stripe took is recorded even past the quote's validity (the
   * webhook would record it too); an expired quote with nothing charged is a 409.
   */
  async confirmStripe(payer: Payer, now: Date = new Date()): Promise<Invoice> {
    const stripe = this.deps.stripe;
    const { invoice: seen } = await this.deps.transaction((tx) => this.lockFor(payer, tx, now));
    if (seen.status === "paid") return seen;
    const intent = stripe && seen.paymentIntentId ? await stripe.paymentIntents.retrieve(seen.paymentIntentId) : null;
    return this.deps.transaction(async (tx) => {
      const { invoice, quote } = await this.lockFor(payer, tx, now);
      if (invoice.status === "paid") return invoice;
      if (intent?.status === "succeeded" && intent.id === invoice.paymentIntentId)
        return this.paid(invoice, quote, tx, now);
      this.refuseExpired(quote, now);
      return invoice;
    });
  }

  /** A succeeded PaymentIntent's event (payments' webhook port): the invoice it names is paid. */
  async intentSucceeded(intent: { id: string; metadata?: Record<string, string> | null }, now = new Date()) {
    const invoiceId = Number(intent.metadata?.haven_quote_invoice);
    if (!Number.isSafeInteger(invoiceId) || invoiceId <= 0) return false;
    return this.deps.transaction(async (tx) => {
      const invoice = await this.deps.invoices.lockQuoteInvoice({ id: invoiceId }, tx);
      if (!invoice || invoice.paymentIntentId !== intent.id) return false;
      // Already paid (the return came first, or a replay): nothing recorded now.
      if (invoice.status === "paid") return false;
      const quote = invoice.quoteRequestId ? await this.deps.repo.find(invoice.quoteRequestId, tx) : null;
      if (!quote) return false;
      await this.paid(invoice, quote, tx, now);
      return true;
    });
  }

  /** The pay page's view (nothing charged); Stripe's return is read first, so a paid intent shows as paid. */
  async view(payer: Payer, now: Date = new Date()): Promise<QuotePayView> {
    if (this.deps.provider === "stripe") await this.confirmStripe(payer, now).catch(() => undefined);
    return this.deps.transaction(async (tx) => {
      const { invoice, quote } = await this.lockFor(payer, tx, now);
      return {
        quote: {
          id: quote.id,
          taskTitle: quote.taskTitle,
          scope: quote.scope,
          propertyAddress: quote.propertyAddress,
          clientName: quote.clientName,
          clientEmail: quote.clientEmail,
        },
        invoice,
        totalText: formatCents(invoice.totalCents),
        paidOn: invoice.paidAt ? todayIn(this.deps.settings.timeZone, new Date(invoice.paidAt)) : null,
        expired:
          invoice.status !== "paid" && this.expired(quote, now)
            ? { validUntil: quote.validUntil!, message: expiredMessage(quote.validUntil!) }
            : null,
      };
    });
  }

  /** The invoice's PDF, for its payer. */
  async pdf(payer: Payer): Promise<{ filename: string; body: Buffer }> {
    const { invoice, quote } = await this.deps.transaction((tx) => this.lockFor(payer, tx, new Date()));
    return {
      filename: `haven-invoice-${invoice.number ?? invoice.id}.pdf`,
      body: await this.deps.renderPdf(invoice, quote),
    };
  }

  /** The invoices of quote requests (My Home's list). */
  invoicesOf(quoteRequestIds: number[]): Promise<Invoice[]> {
    return this.deps.invoices.quoteInvoices(quoteRequestIds);
  }

  /** After yes for these homes, by quote request: each invoice and booking (My Home's quotes page shows them). */
  async afterYesOfHomes(propertyIds: number[], now: Date = new Date()) {
    const states = await this.deps.repo.afterYesOfProperties(propertyIds);
    // An unpaid invoice past the quote's validity shows no Pay button (docs/decisions.md#43).
    return new Map(
      [...states].map(([id, state]) => [
        id,
        { ...state, expired: state.invoice?.status !== "paid" && isExpired(state.validUntil, this.today(now)) },
      ]),
    );
  }

  /**
   * E-mails the homeowner each booking the office made of accepted quotes' work (a date set in the task dialog;
   * a new date or time is e-mailed again), once: the claim and the e-mail's job are one transaction. Returns how many.
   */
  async mailBookings(now: Date = new Date()): Promise<number> {
    const origin = this.deps.settings.publicUrl;
    return this.deps.transaction(async (tx) => {
      const booked = await this.deps.repo.claimBookings(todayIn(this.deps.settings.timeZone, now), tx);
      for (const b of booked)
        await enqueueJob(
          tx,
          MAIL_SEND_TASK,
          quoteBookedEmail({
            to: b.clientEmail,
            clientName: b.clientName,
            taskTitle: b.taskTitle,
            propertyAddress: b.propertyAddress,
            origin,
            date: b.date,
            time: b.time,
            who: b.who,
            locale: b.clientLocale,
          }),
        );
      return booked.length;
    });
  }

  /** The office's accepted quotes to book (docs/decisions.md#43). */
  toBook(options: { booked?: boolean; limit?: number } = {}) {
    return this.deps.repo.toBook({ booked: options.booked, limit: options.limit ?? 100 });
  }
}
