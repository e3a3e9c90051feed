// A demo renewal's receipt (docs/decisions.md#82): the renewal queues a `subscriptions:receipt` job naming the invoice
// by id, in its own transaction, and the job reads the invoice and its subscription when it runs and sends the receipt.
// A renewal batch thus writes a few bytes a receipt, not the rendered e-mail, and renders nothing.
import type { Task } from "graphile-worker";
import { type Tx, enqueueJobs } from "../../db/transaction.js";
import { MAIL_SEND_TASK, type MailMessage, type MailService } from "../mail/index.js";
import { type BillingMailer, mailInvoice } from "./billing-mailer.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

export const SUBSCRIPTIONS_RECEIPT_TASK = "subscriptions:receipt";

/** Queues the receipts of these paid invoices in the caller's transaction: sent only if it commits. */
export function queueReceipts(tx: Tx, invoiceIds: number[]): Promise<void> {
  return enqueueJobs(
    tx,
    SUBSCRIPTIONS_RECEIPT_TASK,
    invoiceIds.map((invoiceId) => ({ invoiceId })),
  );
}

/**
 * The tasks a renewal batch queues, named ahead in graphile-worker's table of tasks, committed. Its first job of a name
 * adds the name's row; two batches doing so at once would wait on each other's row while the later one waits for the
 * earlier one's turn (renewals.ts), for ever.
 */
export async function nameRenewalTasks(tx: Tx): Promise<void> {
  await tx.raw("insert into graphile_worker._private_tasks (identifier) values (?), (?) on conflict do nothing", [
    MAIL_SEND_TASK,
    SUBSCRIPTIONS_RECEIPT_TASK,
  ]);
}

export interface RenewalReceiptsDeps {
  repo: Pick<SubscriptionsRepository, "find" | "invoiceRows">;
  mailer: Pick<BillingMailer, "message">;
}

/** The job's reader: what a queued receipt says, read when it is sent. */
export class RenewalReceipts {
  constructor(private readonly deps: RenewalReceiptsDeps) {}

  /**
   * The receipt of an invoice as stored (its number, each tax, its PDF, in its document's language,
   * docs/decisions.md#68) to its subscription's customer as they are now; null when either is gone or has no address.
   */
  async message(invoiceId: number): Promise<MailMessage | null> {
    const invoice = await this.deps.repo.invoiceRows.find(invoiceId);
    if (!invoice) return null;
    const sub = await this.deps.repo.find(invoice.subscriptionId);
    // An erased customer's address is a placeholder in the reserved `invalid` domain (privacy's erasure, which
    // deletes their queued mail.send jobs but cannot read this job's invoice id): never mailed.
    if (!sub?.customerEmail || /@invalid$/i.test(sub.customerEmail)) return null;
    return this.deps.mailer.message("receipt", sub, {
      invoice: mailInvoice(invoice),
      amount: invoice.amount,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
    });
  }
}

/** The `subscriptions:receipt` job: a failure throws, and graphile-worker retries with backoff (as mail.send). */
export const subscriptionsReceiptTask =
  (receipts: Pick<RenewalReceipts, "message">, mail: Pick<MailService, "send">): Task =>
  async (payload) => {
    const invoiceId = Number((payload as { invoiceId?: unknown } | null)?.invoiceId);
    if (!Number.isSafeInteger(invoiceId) || invoiceId <= 0) return;
    const message = await receipts.message(invoiceId);
    if (message) await mail.send(message);
  };
