// What the office does about a failed payment (docs/decisions.md#62): retry the open invoice now, or e-mail the
// customer the billing link to update the card. Each is one audit event; a repeat of the same click (the same key)
// gets the first answer, so a double click is one charge and one e-mail.
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, HttpError } from "../../http/errors.js";
import type { AuditLog } from "../audit/index.js";
import { CardDeclinedError } from "../payments/index.js";
import type { BillingMailer } from "./billing-mailer.js";
import { type BillingPortal, BillingUnavailableError, type ProviderSubscription } from "./billing-provider.js";
import type { ChangesRepository } from "./changes.repository.js";
import { DEMO_AUTHENTICATION_CARD, DEMO_RENEWAL_DECLINE, type DemoBilling } from "./demo-billing.js";
import { ACTION_REQUIRED_REASON, type ProviderState, loadSubscription, publicSubscription } from "./provider-state.js";
import { readThenStore } from "./read-then-store.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { ENDED_STATUSES, type Subscription } from "./subscriptions.constants.js";

export interface PaymentRecoveryDeps {
  repo: SubscriptionsRepository;
  changes: ChangesRepository;
  state: Pick<ProviderState, "applyProviderState" | "applyProviderInvoice">;
  mailer: Pick<BillingMailer, "send">;
  demo: Pick<DemoBilling, "stateOf" | "invoiceState">;
  stripe: Pick<BillingPortal, "retryInvoice"> | null;
  transaction: TransactionRunner;
  log: Logger;
  audit: Pick<AuditLog, "record">;
}

/** The answer to "Send a card-update link". */
export const CARD_LINK_SENT = "Sent to the customer's e-mail";

/** Statuses whose open invoice a retry pays: past due, or Stripe's `unpaid` once its own retries ended. */
const RETRYABLE = ["past_due", "unpaid"];

export class PaymentRecovery {
  constructor(private readonly deps: PaymentRecoveryDeps) {}

  /**
   * Charges the open invoice again with the card on file. Paid: stored as a webhook would store it (the invoice
   * paid, its receipt, the plan active again and its visits released). Declined: a 402 with the card's message, and
   * nothing but the audit event changes. Not past due: 409. With Stripe, Stripe is called with no transaction open
   * and its answer applied under the row's lock (docs/decisions.md#56).
   */
  async retry(id: number, input: { actor: string; requestKey?: string | null }, now: Date): Promise<Subscription> {
    const { repo, changes, transaction } = this.deps;
    const seen = await loadSubscription(repo, id);
    // The client's key names the click whatever was paid since: a repeat after the first paid gets its answer.
    const byRequest = input.requestKey ? `sub:${id}:retry_payment:key:${input.requestKey}` : null;
    const repeated = byRequest && (await transaction((tx) => changes.answer(byRequest, tx)));
    if (repeated) return repeated.response as Subscription;
    const open = await this.openInvoice(seen).catch(async (refusal) => {
      // The same click sent twice at once: its twin may have paid since the check above. Its answer, not a 409.
      const paid = byRequest && (await transaction((tx) => changes.answer(byRequest, tx)));
      if (paid) return paid;
      throw refusal;
    });
    if ("response" in open) return open.response as Subscription;
    const key = byRequest ?? `sub:${id}:retry_payment:${open.providerInvoiceId}:v${seen.version}`;
    const first = await transaction((tx) => changes.answer(key, tx));
    if (first) return first.response as Subscription;
    const declined =
      seen.provider === "demo"
        ? await this.retryDemo(seen, key, input.actor, now)
        : await this.retryStripe(seen, open.providerInvoiceId, key, input.actor, now);
    if (typeof declined !== "string") return declined;
    await transaction((tx) =>
      this.audit(tx, input.actor, "subscription.retry_payment", id, { outcome: "declined", reason: declined }),
    );
    throw new CardDeclinedError(declined);
  }

  /** E-mails the customer the billing link, where the card is updated (its page pays the open invoice). */
  async sendCardLink(id: number, input: { actor: string; requestKey?: string | null }): Promise<{ message: string }> {
    const { repo, changes, transaction, mailer } = this.deps;
    const seen = await loadSubscription(repo, id);
    this.refuseEnded(seen);
    if (!seen.customerEmail) throw new ConflictError("This subscription has no customer e-mail to send the link to");
    const key = `sub:${id}:card_link:${input.requestKey ? `key:${input.requestKey}` : `v${seen.version}`}`;
    return transaction(async (tx) => {
      await changes.lock(id, tx);
      if (await changes.answer(key, tx)) return { message: CARD_LINK_SENT };
      const sub = (await repo.find(id, tx))!;
      this.refuseEnded(sub);
      const owed = await repo.openInvoice(id, tx);
      await mailer.send("card_update", sub, tx, owed ? { amount: owed.amountCents / 100 } : {});
      await changes.record(id, { key, statusCode: 200, response: { message: CARD_LINK_SENT } }, tx);
      await this.audit(tx, input.actor, "subscription.card_update_link", id, { sentTo: sub.customerEmail });
      return { message: CARD_LINK_SENT };
    });
  }

  /** The demo provider's own rule (docs/decisions.md#24): a card whose renewals fail declines the retry too. */
  private async retryDemo(
    seen: ProviderSubscription,
    key: string,
    actor: string,
    now: Date,
  ): Promise<Subscription | string> {
    const { repo, changes, state: apply, demo, transaction } = this.deps;
    return transaction(async (tx) => {
      await changes.lock(seen.id, tx);
      const first = await changes.answer(key, tx);
      if (first) return first.response as Subscription;
      const sub = (await repo.find(seen.id, tx))!;
      const open = await this.openInvoice(sub, tx);
      if (sub.cardFailsRenewals) return DEMO_RENEWAL_DECLINE;
      if (sub.cardLast4 === DEMO_AUTHENTICATION_CARD.slice(-4)) return ACTION_REQUIRED_REASON;
      await apply.applyProviderInvoice(
        { ...demo.invoiceState(sub, open), status: "paid", paidAt: now, failureReason: null, attemptCount: 1 },
        tx,
      );
      await apply.applyProviderState({ ...demo.stateOf(sub), status: "active" }, tx, { actor, now });
      return this.answered(sub, key, actor, tx);
    });
  }

  private async retryStripe(
    seen: ProviderSubscription,
    invoiceId: string,
    key: string,
    actor: string,
    now: Date,
  ): Promise<Subscription | string> {
    const { repo, changes, state: apply, stripe } = this.deps;
    if (!stripe) throw new BillingUnavailableError();
    const done = await readThenStore(this.deps, seen.providerSubscriptionId, {
      // The same key each attempt: Stripe answers a repeat with its first answer, never a second charge.
      read: () => this.call(() => stripe.retryInvoice(seen, invoiceId, key)),
      lock: (tx) => changes.lock(seen.id, tx),
      store: async (tx, read): Promise<Subscription | string> => {
        const first = await changes.answer(key, tx);
        if (first) return first.response as Subscription;
        if (read.declined) return read.declined;
        const sub = (await repo.find(seen.id, tx))!;
        await apply.applyProviderState(read.state, tx, { actor, now });
        if (read.invoice) await apply.applyProviderInvoice(read.invoice, tx);
        return this.answered(sub, key, actor, tx);
      },
    });
    if (!done) throw new BillingUnavailableError();
    return done.stored;
  }

  /** The first answer kept for the key, and the audit event of a paid retry. */
  private async answered(before: ProviderSubscription, key: string, actor: string, tx: Tx): Promise<Subscription> {
    const answer = publicSubscription((await this.deps.repo.find(before.id, tx))!);
    await this.deps.changes.record(before.id, { key, statusCode: 200, response: answer }, tx);
    await this.audit(tx, actor, "subscription.retry_payment", before.id, {
      outcome: "paid",
      status: answer.status,
      from: before.status,
    });
    return answer;
  }

  private async openInvoice(sub: ProviderSubscription, tx?: Tx) {
    this.refuseEnded(sub);
    if (!RETRYABLE.includes(sub.status))
      throw new ConflictError("This subscription is not past due: there is no failed payment to retry");
    const open = await (tx
      ? this.deps.repo.openInvoice(sub.id, tx)
      : this.deps.transaction((t) => this.deps.repo.openInvoice(sub.id, t)));
    if (!open) throw new ConflictError("This subscription has no open invoice to pay");
    return open;
  }

  private refuseEnded(sub: Subscription) {
    if (ENDED_STATUSES.includes(sub.status) && sub.status !== "unpaid")
      throw new ConflictError("This subscription has already ended");
  }

  private audit(tx: Tx, actor: string, action: string, id: number, after: object) {
    return this.deps.audit.record(tx, { actor, action, recordType: "subscription", recordId: id, after });
  }

  /** A provider failure other than Haven's own answers is an outage: 503, nothing changed. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.warn({ err: error }, "payment retry failed");
      throw new BillingUnavailableError();
    }
  }
}
