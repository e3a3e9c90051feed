// Invoices as documents (docs/decisions.md#33, #34): the staff list and its CSV, one invoice with its refunds, its
// PDF, and refunds. The write path is invoices.repository.ts; refunds are RefundsService's (refunds.ts).
import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import { NotFoundError } from "../../http/errors.js";
import { renderCreditNotePdf } from "./credit-note-pdf.js";
import { documentLocale } from "./document-locale.js";
import { documentFormats, renderInvoicePdf } from "./invoice-pdf.js";
import {
  type InvoiceFilter,
  type InvoiceListRepository,
  type InvoiceListRow,
  toListRow,
} from "./invoice-list.repository.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { ReceiptResends } from "./receipt-resends.js";
import type { RefundRequestsRepository } from "./refund-requests.repository.js";
import type { RefundsRepository } from "./refunds.repository.js";
import { type RefundRequest, type RefundView, type RefundsService, pendingView, succeededView } from "./refunds.js";
import type { BusinessIdentity, Invoice } from "./invoices.constants.js";
import type { InvoiceSubscriptions } from "./invoices.ports.js";

export interface InvoicesDeps {
  db: Knex;
  invoices: InvoicesRepository;
  /** The list and its CSV (invoice-list.repository.ts). */
  lists: InvoiceListRepository;
  refundRows: Pick<RefundsRepository, "forInvoice" | "disputesOf" | "find" | "payerOf">;
  /** Refunds sent to Stripe and not confirmed yet (their amounts are reserved). */
  requests: Pick<RefundRequestsRepository, "pendingOf">;
  refunds: Pick<RefundsService, "refund">;
  subscriptions: Pick<InvoiceSubscriptions, "find">;
  planName: (type: string) => Promise<string>;
  business: BusinessIdentity;
  timeZone: string;
  /** Resending a paid invoice's receipt (receipt-resends.ts). */
  resends: ReceiptResends;
}

export interface InvoiceDetail {
  invoice: Invoice;
  /** Its credit notes (each refund, numbered), then any refund Stripe has not confirmed yet (docs/decisions.md#52). */
  refunds: RefundView[];
  /** What is left to refund, tax included (dollars): a pending refund's amount is reserved. */
  refundable: number;
}

export class InvoicesService {
  constructor(private readonly deps: InvoicesDeps) {}

  list(filter: InvoiceFilter): Promise<{ rows: InvoiceListRow[]; total: number }> {
    return this.deps.lists.list(filter);
  }

  /** Every matching row, a batch at a time (the CSV export). */
  async *batches(filter: Omit<InvoiceFilter, "limit" | "offset">): AsyncIterable<InvoiceListRow[]> {
    const found = await this.deps.lists.found(filter);
    yield* cursorBatches(this.deps.db, this.deps.lists.listQuery(found), toListRow);
  }

  async get(id: number): Promise<InvoiceDetail> {
    const invoice = await this.deps.invoices.find(id);
    if (!invoice) throw new NotFoundError("Invoice not found");
    const [made, pending] = await Promise.all([this.deps.refundRows.forInvoice(id), this.deps.requests.pendingOf(id)]);
    const reserved = pending.reduce((sum, r) => sum + r.amountCents, 0);
    const refundable =
      invoice.status === "paid"
        ? Math.max(0, Math.round((invoice.amountPaid - invoice.refunded) * 100) - reserved) / 100
        : 0;
    return { invoice, refunds: [...made.map((r) => succeededView(r)), ...pending.map(pendingView)], refundable };
  }

  /** Who an invoice bills: the subscription's customer, or the quote's home's customer (its staff page). */
  payer(id: number) {
    return this.deps.refundRows.payerOf(id);
  }

  /** A refund's credit note as a PDF and its file name (docs/decisions.md#52). */
  async refundPdf(id: number): Promise<{ filename: string; body: Buffer }> {
    const refund = await this.deps.refundRows.find(id);
    const invoice = refund ? await this.deps.invoices.find(refund.invoiceId) : null;
    if (!refund || !invoice) throw new NotFoundError("Refund not found");
    const [payer, sub] = await Promise.all([
      this.deps.refundRows.payerOf(invoice.id),
      invoice.subscriptionId ? this.deps.subscriptions.find(invoice.subscriptionId) : null,
    ]);
    const locale = documentLocale(payer.locale, invoice.taxProvince);
    const { t, date: day } = documentFormats(locale, this.deps.timeZone);
    const body = await renderCreditNotePdf({
      refund,
      invoice,
      business: this.deps.business,
      buyer: { name: payer.name, email: payer.email, address: payer.address },
      description: sub
        ? t("documents.creditNote.planDescription", {
            plan: await this.deps.planName(sub.planType),
            start: day(invoice.periodStart),
            end: day(invoice.periodEnd),
          })
        : (payer.quoteTitle ?? t("documents.invoice.quoteWork")),
      timeZone: this.deps.timeZone,
      locale,
    });
    return { filename: `${refund.number ?? `credit-note-${refund.id}`}.pdf`, body };
  }

  /** The subscription an invoice bills and its home (My Home asks whether it is the homeowner's). */
  async owner(id: number): Promise<{ subscriptionId: number; propertyId: number | null } | null> {
    return this.deps.lists.owner(id);
  }

  /** The invoice's PDF and its file name. */
  async pdf(id: number): Promise<{ filename: string; body: Buffer }> {
    const { invoice, refunds } = await this.get(id);
    const [sub, payer] = await Promise.all([
      this.deps.subscriptions.find(invoice.subscriptionId),
      this.deps.refundRows.payerOf(invoice.id),
    ]);
    const body = await renderInvoicePdf({
      invoice,
      business: this.deps.business,
      // The home served in full, its postal code too, as the credit notes give it.
      buyer: { name: sub?.customerName ?? null, email: sub?.customerEmail ?? null, address: payer.address },
      planName: sub ? await this.deps.planName(sub.planType) : "Haven",
      timeZone: this.deps.timeZone,
      locale: documentLocale(payer.locale, invoice.taxProvince),
      // Its credit notes: the refunds recorded (one Stripe has not confirmed is not one yet).
      refunds: refunds.flatMap((r) =>
        r.status === "succeeded"
          ? [
              {
                createdAt: r.createdAt,
                amountCents: r.amountCents,
                taxCents: r.taxCents ?? 0,
                reason: r.reason,
                number: r.number,
              },
            ]
          : [],
      ),
    });
    return { filename: `${invoice.number ?? `invoice-${invoice.id}`}.pdf`, body };
  }

  /** A subscription's disputes, newest first (its staff page flags them). */
  disputes(subscriptionId: number) {
    return this.deps.refundRows.disputesOf(subscriptionId);
  }

  /** Taxes and numbers invoices written without them in bulk (the demo seed), in the caller's transaction. */
  taxAndNumber(ids: number[], tx: Tx): Promise<void> {
    return this.deps.invoices.taxAndNumber(ids, tx);
  }

  /** E-mails a paid invoice's receipt again; a repeat of the click's key within a minute is the first resend. */
  resendReceipt(id: number, input: { key: string | null; actor: string }, now?: Date) {
    return this.deps.resends.resend(id, input, now);
  }

  /** The last resend of each of these invoices (the staff pages say when). */
  lastResends(ids: number[]) {
    return this.deps.resends.lastFor(ids);
  }

  refund(id: number, input: RefundRequest) {
    return this.deps.refunds.refund(id, input);
  }
}
