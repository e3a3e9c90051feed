// The billing e-mails of subscriptions: built from a subscription with its signed billing link,
// and queued in the transaction of the change that caused them, or gathered and queued in one statement.
import type { Tx } from "../../db/transaction.js";
import type { MailMessage } from "../mail/mail.schemas.js";
import type { MailService } from "../mail/index.js";
import { PLAN_SEEDS } from "../plans/index.js";
import { documentLocale, mailInvoice } from "../invoices/index.js";
import { billingPagePath, signBillingToken } from "./billing-links.js";
import type { ProviderSubscription } from "./billing-provider.js";
import type { BusinessIdentity, Subscription } from "./subscriptions.constants.js";
import { type BillingMailData, type BillingMailKind, billingMail } from "./subscriptions.mail.js";

export { mailInvoice };

export interface BillingMailerSettings {
  timeZone: string;
  publicUrl: string;
  sessionSecret: string;
  supportEmail: string;
  supportPhone: string;
  /** The GST/HST number receipts carry (docs/decisions.md#33); absent in setups made before it. */
  business?: BusinessIdentity;
}

/**
 * The plans' names: the catalog's, which the plans table is seeded from and never renames (only prices change).
 * Read from the table, the first e-mail of a process asked the pool for a second connection inside its caller's
 * transaction; a burst of purchases then held every connection waiting for one (docs/decisions.md#46).
 */
const PLAN_NAMES = new Map<string, string>(PLAN_SEEDS.map((p) => [p.type, p.name]));

/** The homeowner's My Home address of an invoice's PDF (a receipt links it; a signed-in homeowner opens it). */
export const invoicePdfPath = (invoiceId: number) => `/my-home/plan/invoices/${invoiceId}/pdf`;

export class BillingMailer {
  /** Transactions whose billing e-mails are gathered (`gathering`). */
  private readonly outboxes = new WeakMap<Tx, MailMessage[]>();

  constructor(
    private readonly mail: Pick<MailService, "enqueue" | "enqueueMany">,
    readonly settings: BillingMailerSettings,
    private readonly clock: () => Date,
  ) {}

  /** The absolute address of a subscription's billing page, signed and expiring. */
  link(id: number, now: Date = this.clock()): string {
    return `${this.settings.publicUrl}${billingPagePath(signBillingToken(id, this.settings.sessionSecret, now))}`;
  }

  async planName(type: string): Promise<string> {
    return PLAN_NAMES.get(type) ?? type;
  }

  /** A billing e-mail to the subscription's customer (who must have an address). */
  async message(
    kind: BillingMailKind,
    sub: Subscription | ProviderSubscription,
    extra: Partial<BillingMailData> = {},
  ): Promise<MailMessage> {
    const { settings } = this;
    // The customer's language; a receipt or a refund in its invoice's (French when taxed in Quebec, docs/decisions.md#68).
    const invoice = extra.invoice;
    const locale = invoice ? documentLocale(sub.customerLocale, invoice.taxProvince) : sub.customerLocale;
    return billingMail(kind, {
      locale,
      to: sub.customerEmail!,
      name: sub.customerName,
      planName: await this.planName(sub.planType),
      minimumTermEndsAt: sub.minimumTermEndsAt,
      cancelAt: sub.cancelAt,
      cardLast4: sub.cardLast4,
      link: this.link(sub.id),
      supportEmail: settings.supportEmail,
      supportPhone: settings.supportPhone,
      timeZone: settings.timeZone,
      registrationNumber: settings.business?.gstHstNumber ?? null,
      qstNumber: settings.business?.qstNumber ?? null,
      pdfLink: extra.invoice ? `${settings.publicUrl}${invoicePdfPath(extra.invoice.id)}` : undefined,
      ...extra,
    });
  }

  /** Queues the e-mail in the caller's transaction (or its gathered outbox); none without an address. */
  async send(
    kind: BillingMailKind,
    sub: Subscription | ProviderSubscription,
    tx: Tx,
    extra: Partial<BillingMailData> = {},
  ): Promise<void> {
    if (!sub.customerEmail) return;
    const message = await this.message(kind, sub, extra);
    const outbox = this.outboxes.get(tx);
    if (outbox) outbox.push(message);
    else await this.mail.enqueue(tx, message);
  }

  /** A message built elsewhere (an accepted quote's credit note, docs/decisions.md#52), queued in the caller's transaction. */
  async queue(message: MailMessage, tx: Tx): Promise<void> {
    const outbox = this.outboxes.get(tx);
    if (outbox) outbox.push(message);
    else await this.mail.enqueue(tx, message);
  }

  /**
   * Runs `work` with this transaction's billing e-mails gathered and queued in one statement at its end (demo
   * renewals: a thousand subscriptions a transaction). Nothing is queued if `work` throws.
   */
  async gathering<T>(tx: Tx, work: (outbox: MailMessage[]) => Promise<T>): Promise<T> {
    const outbox: MailMessage[] = [];
    this.outboxes.set(tx, outbox);
    try {
      const result = await work(outbox);
      await this.mail.enqueueMany(tx, outbox);
      return result;
    } finally {
      this.outboxes.delete(tx);
    }
  }
}
