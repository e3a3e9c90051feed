// Resending a paid invoice's receipt (invoices.md, "Resending a receipt"): the office answers "I never got it"
// with one click. The invoice's row is locked first; a click's key seen again within a minute is the same resend
// (a double click sends one e-mail); each resend is an audit event (docs/decisions.md#39).
import type { Knex } from "knex";
import type { Tx, TransactionRunner } from "../../db/transaction.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { AuditLog } from "../audit/index.js";
import { mailInvoice } from "./invoice-mail.js";
import { toInvoice } from "./invoices.repository.js";
import type { Invoice } from "./invoices.constants.js";
import type { InvoiceMailer, InvoiceSubscriptions } from "./invoices.ports.js";

/** How long a click's key answers a repeat with the first resend. */
export const RESEND_REPEAT_MS = 60_000;

export interface ReceiptResend {
  id: number;
  invoiceId: number;
  sentTo: string;
  actor: string;
  createdAt: string;
}

/**
 * A quote's invoice has no subscription: its receipt is the quotes module's (docs/decisions.md#43), which sends it
 * again in the caller's transaction and answers the address it went to.
 */
export interface QuoteReceipts {
  resend(invoice: Invoice, tx: Tx): Promise<string>;
}

export interface ReceiptResendsDeps {
  /** Null: a quote's invoice has no receipt to resend here. */
  quoteReceipts: QuoteReceipts | null;
  db: Knex;
  transaction: TransactionRunner;
  subscriptions: Pick<InvoiceSubscriptions, "find">;
  mailer: Pick<InvoiceMailer, "send">;
  audit: Pick<AuditLog, "record">;
  clock: () => Date;
}

const toResend = (row: Record<string, unknown>): ReceiptResend => ({
  id: Number(row.id),
  invoiceId: row.invoice_id as number,
  sentTo: row.sent_to as string,
  actor: row.actor as string,
  createdAt: new Date(row.created_at as string).toISOString(),
});

export class ReceiptResends {
  constructor(private readonly deps: ReceiptResendsDeps) {}

  /**
   * E-mails the receipt of a paid invoice again to the subscription's payer. `key` names the click (without one,
   * the actor's clicks share one): a repeat within a minute answers the first resend (`repeated`) and sends nothing.
   */
  async resend(
    invoiceId: number,
    input: { key: string | null; actor: string },
    now: Date = this.deps.clock(),
  ): Promise<{ resend: ReceiptResend; invoice: Invoice; repeated: boolean }> {
    return this.deps.transaction(async (tx: Tx) => {
      const row = await tx("invoices").where({ id: invoiceId }).forUpdate().first();
      if (!row) throw new NotFoundError("Invoice not found");
      const invoice = toInvoice(row);
      if (invoice.status !== "paid")
        throw new ConflictError(`Only a paid invoice has a receipt: this one is ${invoice.status}`);
      const quote = invoice.quoteRequestId ? this.deps.quoteReceipts : null;
      const sub = invoice.subscriptionId ? await this.deps.subscriptions.find(invoice.subscriptionId, tx) : null;
      if (!sub && !quote) throw new ConflictError("This invoice has no receipt to resend");
      if (sub && !sub.customerEmail) throw new ConflictError("The payer has no e-mail address to send the receipt to");
      const key = input.key ?? `actor:${input.actor}`;
      const earlier = await tx("receipt_resends")
        .where({ invoice_id: invoiceId, request_key: key })
        .where("created_at", ">", new Date(now.getTime() - RESEND_REPEAT_MS))
        .orderBy("id", "desc")
        .first();
      if (earlier) return { resend: toResend(earlier), invoice, repeated: true };
      let sentTo: string;
      if (sub) {
        await this.deps.mailer.send("receipt", sub, tx, {
          amount: invoice.amount,
          periodStart: invoice.periodStart,
          periodEnd: invoice.periodEnd,
          invoice: mailInvoice(invoice),
        });
        sentTo = sub.customerEmail!;
      } else sentTo = await quote!.resend(invoice, tx);
      const [stored] = await tx("receipt_resends")
        .insert({
          invoice_id: invoiceId,
          request_key: key,
          actor: input.actor,
          sent_to: sentTo,
          created_at: now,
        })
        .returning("*");
      await this.deps.audit.record(tx, {
        actor: input.actor,
        action: "invoice.resend_receipt",
        recordType: "invoice",
        recordId: invoiceId,
        before: null,
        after: { number: invoice.number, sentTo },
      });
      return { resend: toResend(stored), invoice, repeated: false };
    });
  }

  /** An invoice's resends, newest first (the staff pages say when a receipt was last sent again). */
  async lastFor(invoiceIds: number[]): Promise<Map<number, ReceiptResend>> {
    if (!invoiceIds.length) return new Map();
    const rows = await this.deps
      .db("receipt_resends")
      .distinctOn("invoice_id")
      .whereIn("invoice_id", invoiceIds)
      .orderBy([{ column: "invoice_id" }, { column: "id", order: "desc" }]);
    return new Map(rows.map((r: Record<string, unknown>) => [r.invoice_id as number, toResend(r)]));
  }
}
