// Invoices as documents (docs/decisions.md#33, #34): the staff list and its CSV, one invoice with its refunds, its
// PDF, and refunds. The write path is invoices.repository.ts; refunds are RefundsService's (refunds.ts).
import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import { NotFoundError } from "../../http/errors.js";
import { renderInvoicePdf } from "./invoice-pdf.js";
import {
  type InvoiceFilter,
  type InvoiceListRepository,
  type InvoiceListRow,
  toListRow,
} from "./invoice-list.repository.js";
import type { InvoicesRepository } from "./invoices.repository.js";
import type { ReceiptResends } from "./receipt-resends.js";
import type { Refund, RefundsRepository } from "./refunds.repository.js";
import type { RefundRequest, RefundsService } from "./refunds.js";
import type { BusinessIdentity, Invoice } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export interface InvoicesDeps {
  db: Knex;
  invoices: InvoicesRepository;
  /** The list and its CSV (invoice-list.repository.ts). */
  lists: InvoiceListRepository;
  refundRows: Pick<RefundsRepository, "forInvoice" | "disputesOf">;
  refunds: Pick<RefundsService, "refund">;
  subscriptions: Pick<SubscriptionsRepository, "find">;
  planName: (type: string) => Promise<string>;
  business: BusinessIdentity;
  timeZone: string;
  /** Resending a paid invoice's receipt (receipt-resends.ts). */
  resends: ReceiptResends;
}

export interface InvoiceDetail {
  invoice: Invoice;
  refunds: Refund[];
  /** What is left to refund, tax included (dollars). */
  refundable: number;
}

export class InvoicesService {
  constructor(private readonly deps: InvoicesDeps) {}

  list(filter: InvoiceFilter): Promise<{ rows: InvoiceListRow[]; total: number }> {
    return this.deps.lists.list(filter);
  }

  /** Every matching row, a batch at a time (the CSV export). */
  batches(filter: Omit<InvoiceFilter, "limit" | "offset">): AsyncIterable<InvoiceListRow[]> {
    return cursorBatches(this.deps.db, this.deps.lists.listQuery(filter), toListRow);
  }

  async get(id: number): Promise<InvoiceDetail> {
    const invoice = await this.deps.invoices.find(id);
    if (!invoice) throw new NotFoundError("Invoice not found");
    const refunds = await this.deps.refundRows.forInvoice(id);
    const refundable =
      invoice.status === "paid" ? Math.max(0, Math.round((invoice.amountPaid - invoice.refunded) * 100)) / 100 : 0;
    return { invoice, refunds, refundable };
  }

  /** The subscription an invoice bills and its home (My Home asks whether it is the homeowner's). */
  async owner(id: number): Promise<{ subscriptionId: number; propertyId: number | null } | null> {
    return this.deps.lists.owner(id);
  }

  /** The invoice's PDF and its file name. */
  async pdf(id: number): Promise<{ filename: string; body: Buffer }> {
    const { invoice, refunds } = await this.get(id);
    const sub = await this.deps.subscriptions.find(invoice.subscriptionId);
    const body = await renderInvoicePdf({
      invoice,
      business: this.deps.business,
      buyer: {
        name: sub?.customerName ?? null,
        email: sub?.customerEmail ?? null,
        address: sub?.propertyAddress ?? null,
      },
      planName: sub ? await this.deps.planName(sub.planType) : "Haven",
      timeZone: this.deps.timeZone,
      refunds: refunds.map((r) => ({
        createdAt: r.createdAt,
        amountCents: r.amountCents,
        taxCents: r.taxCents,
        reason: r.reason,
      })),
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
