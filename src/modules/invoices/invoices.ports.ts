// What the invoices module asks of the subscriptions module above it, declared here so nothing here imports upward
// (docs/architecture.md "Modules and layers"): subscriptions' repository and its billing mailer fill these.
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { BusinessIdentity } from "./invoices.constants.js";
import type { MailInvoice } from "./invoice-mail.js";

/** The subscription an invoice bills, as far as its documents and e-mails read it. */
export interface BilledSubscription {
  id: number;
  planType: string;
  customerName: string | null;
  customerEmail: string | null;
}

/** The subscriptions' rows: who an invoice bills, and its events log (a refund is logged there). */
export interface InvoiceSubscriptions {
  find(id: number, db?: Knex | Tx): Promise<BilledSubscription | null>;
  logEvent(
    subscriptionId: number,
    event: { kind: string; actor: string; detail?: Record<string, unknown> | null },
    tx: Tx,
  ): Promise<void>;
}

/** What a receipt or a refund e-mail to a subscription's customer carries beyond the subscription itself. */
export interface InvoiceMailData {
  amount?: number;
  periodStart?: string;
  periodEnd?: string;
  reason?: string | null;
  invoice?: MailInvoice;
  refund?: { amountCents: number; taxLines: { label: string; amountCents: number }[]; number?: string | null };
}

/** The billing e-mails, queued in the caller's transaction (subscriptions' BillingMailer). */
export interface InvoiceMailer {
  send(kind: "receipt" | "refund", sub: BilledSubscription, tx: Tx, extra?: InvoiceMailData): Promise<void>;
  queue(message: MailMessage, tx: Tx): Promise<void>;
  readonly settings: { publicUrl: string; business?: BusinessIdentity };
}
