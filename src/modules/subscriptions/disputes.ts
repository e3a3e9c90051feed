// Disputes through their close (docs/decisions.md#53). Stripe's dispute, read back (its status and the funds its
// balance transactions moved), is stored in the caller's transaction, after the subscription's row lock:
// - opened: recorded once, the subscription flagged and its history says so, the staff bell rings;
// - funds withdrawn and not given back, or lost: the plan's services are held as a failed payment holds them (the
//   same `past_due` state, the customer sees the same words); won, or the funds reinstated, releases them;
// - lost: the amount taken back, tax included, is figured once (each tax line's running total, as a refund's,
//   tax/refundedTax): it comes off revenue, and its tax is an adjustment of the period it was lost in; the bell rings.
// A quote invoice's dispute has no subscription: its bell links to the quote requests of its home.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { Tx } from "../../db/transaction.js";
import type { Notifications } from "../notifications/index.js";
import { refundedTax } from "../tax/index.js";
import { BillingUnavailableError } from "./billing-provider.js";
import { ChangesRepository } from "./changes.repository.js";
import {
  type DisputeFacts,
  type DisputesRepository,
  RUNNING_STATUSES,
  type StoredDispute,
} from "./disputes.repository.js";
import type { Invoice } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";

/** The reason a held plan shows its customer, in the failed payment's words (views/billing, My Home's Plan). */
export const DISPUTE_HOLD_REASON = "Your bank took the payment back (a dispute).";

/** Stripe's dispute as Haven stores it; the funds are its balance transactions (withdrawn < 0, reinstated > 0). */
export function disputeFactsOf(dispute: Stripe.Dispute): DisputeFacts {
  const moves = (dispute.balance_transactions ?? []).map((t) => t.amount);
  return {
    providerDisputeId: dispute.id,
    amountCents: dispute.amount,
    reason: dispute.reason ?? null,
    status: dispute.status,
    fundsWithdrawnCents: -moves.filter((a) => a < 0).reduce((sum, a) => sum + a, 0),
    fundsReinstatedCents: moves.filter((a) => a > 0).reduce((sum, a) => sum + a, 0),
  };
}

/**
 * Whether a dispute holds the plan's services (docs/decisions.md#53): the money is out of Haven's hands, withdrawn
 * and not given back, or the dispute is lost. Won, or the funds reinstated, it holds nothing.
 */
export function holdsServices(f: DisputeFacts): boolean {
  if (f.status === "won") return false;
  if (f.fundsWithdrawnCents > 0 && f.fundsReinstatedCents >= f.fundsWithdrawnCents) return false;
  return f.status === "lost" || f.fundsWithdrawnCents > f.fundsReinstatedCents;
}

/** Stripe's disputes, read back; any failure is BillingUnavailableError (503, Stripe sends the event again). */
export class StripeDisputes {
  constructor(
    private readonly stripe: Pick<Stripe, "disputes">,
    private readonly log?: Logger,
  ) {}

  async retrieve(id: string): Promise<Stripe.Dispute> {
    try {
      return await this.stripe.disputes.retrieve(id);
    } catch (error) {
      this.log?.warn({ err: error, dispute: id }, "Stripe dispute read failed");
      throw new BillingUnavailableError();
    }
  }
}

export interface DisputesDeps {
  disputes: DisputesRepository;
  subscriptions: Pick<SubscriptionsRepository, "find" | "update" | "logEvent">;
  /** The plan's services follow a hold or its release (SubscriptionsService.followOnProperty). */
  follow: { followOnProperty(subscriptionId: number, tx: Tx): Promise<void> };
  /** The subscriptions' row locks (docs/decisions.md#35); a ChangesRepository unless given. */
  changes?: Pick<ChangesRepository, "lock">;
  /** The staff bell (src/modules/notifications/README.md): opened, lost and won are each a notification. */
  notifications?: Pick<Notifications, "raise"> | null;
  log?: Logger;
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

export class DisputesService {
  private readonly changes: Pick<ChangesRepository, "lock">;

  constructor(private readonly deps: DisputesDeps) {
    this.changes = deps.changes ?? new ChangesRepository();
  }

  /**
   * Stores what Stripe says the dispute is now and applies the rules to what changed, in the caller's transaction
   * (its event id claimed there). `at` is when a loss counts (the tax report's period). Safe to repeat.
   */
  async apply(facts: DisputeFacts, invoice: Invoice | null, at: Date, tx: Tx): Promise<void> {
    const subscriptionId = invoice?.subscriptionId ?? null;
    // The subscription's row first, then the dispute's and the invoice's (docs/decisions.md#35's order).
    if (subscriptionId) await this.changes.lock(subscriptionId, tx);
    const { dispute: before, created } = await this.deps.disputes.lockOrInsert(
      { ...facts, invoiceId: invoice?.id ?? null, subscriptionId },
      tx,
    );
    // Only a plan has services to hold: a quote invoice's dispute holds nothing.
    const holds = subscriptionId !== null && holdsServices(facts);
    await this.deps.disputes.update(before.id, { ...facts, holdsServices: holds }, tx);
    if (created) await this.opened(facts, invoice, tx);
    if (facts.status === "lost" && !before.lostAt && invoice) await this.lost(before, facts, invoice, at, tx);
    if (facts.status === "won" && (created || before.status !== "won")) await this.won(facts, invoice, tx);
    if (subscriptionId && holds !== before.holdsServices) await this.follow(subscriptionId, tx);
  }

  private label(invoice: Invoice | null) {
    return invoice?.number ? `Invoice ${invoice.number}` : "A payment";
  }

  /** The bell: a subscription's page, or for a quote invoice the quote requests of its home. */
  private async ring(invoice: Invoice | null, text: string, tx: Tx): Promise<void> {
    if (!invoice) return;
    if (invoice.subscriptionId) {
      await this.deps.notifications?.raise(tx, {
        kind: "dispute",
        recordType: "subscription",
        recordId: invoice.subscriptionId,
        link: `/admin/subscriptions/${invoice.subscriptionId}`,
        text,
      });
      return;
    }
    if (!invoice.quoteRequestId) return;
    const address = await this.deps.disputes.quoteAddress(invoice.quoteRequestId, tx);
    await this.deps.notifications?.raise(tx, {
      kind: "dispute",
      recordType: "quote_request",
      recordId: invoice.quoteRequestId,
      link: `/admin/quote-requests?${new URLSearchParams(address ? { q: address } : { status: "accepted" })}`,
      text: `${text} (quote invoice)`,
    });
  }

  private async opened(facts: DisputeFacts, invoice: Invoice | null, tx: Tx): Promise<void> {
    const { subscriptions, disputes } = this.deps;
    await this.ring(invoice, `${this.label(invoice)} disputed (${facts.reason ?? "no reason given"})`, tx);
    if (!invoice?.subscriptionId) return;
    await disputes.flagSubscription(invoice.subscriptionId, tx);
    await subscriptions.logEvent(
      invoice.subscriptionId,
      {
        kind: "disputed",
        actor: "stripe",
        detail: { invoice: invoice.number, amountCents: facts.amountCents, reason: facts.reason },
      },
      tx,
    );
  }

  /**
   * Lost: what the customer took back, at most what the card paid less what went back before, and its tax
   * continuing the running total of the invoice's refunds (tax/refundedTax), set once.
   */
  private async lost(dispute: StoredDispute, facts: DisputeFacts, invoice: Invoice, at: Date, tx: Tx): Promise<void> {
    const locked = await this.deps.disputes.lockInvoice(invoice.id, dispute.id, tx);
    if (!locked) return;
    const before = locked.refundedCents + locked.lostBeforeCents;
    const lostCents = Math.max(0, Math.min(facts.amountCents, locked.paidCents - before));
    const taxLines = refundedTax(locked.taxLines, locked.totalCents, before, lostCents, locked.earlier);
    await this.deps.disputes.recordLoss(dispute.id, { lostAt: at, lostCents, taxLines }, tx);
    await this.ring(invoice, `${this.label(invoice)}: dispute lost, ${money(lostCents)} taken back`, tx);
    if (invoice.subscriptionId)
      await this.deps.subscriptions.logEvent(
        invoice.subscriptionId,
        { kind: "dispute_lost", actor: "stripe", detail: { invoice: invoice.number, amountCents: lostCents } },
        tx,
      );
    this.deps.log?.info({ dispute: facts.providerDisputeId, lostCents }, "dispute lost");
  }

  private async won(facts: DisputeFacts, invoice: Invoice | null, tx: Tx): Promise<void> {
    await this.ring(invoice, `${this.label(invoice)}: dispute won, the funds are back`, tx);
    if (invoice?.subscriptionId)
      await this.deps.subscriptions.logEvent(
        invoice.subscriptionId,
        { kind: "dispute_won", actor: "stripe", detail: { invoice: invoice.number, amountCents: facts.amountCents } },
        tx,
      );
  }

  /**
   * The plan follows its disputes: one holding makes a running plan past due (its services held, the failed
   * payment's words); none left releases it, unless an unpaid invoice still keeps it past due (Stripe's own state).
   */
  private async follow(subscriptionId: number, tx: Tx): Promise<void> {
    const { subscriptions, disputes } = this.deps;
    const sub = await subscriptions.find(subscriptionId, tx);
    if (!sub) return;
    const held = await disputes.holding(subscriptionId, tx);
    if (held && RUNNING_STATUSES.includes(sub.status)) {
      await subscriptions.update(
        sub.id,
        { status: "past_due", last_payment_error: DISPUTE_HOLD_REASON, last_payment_error_code: null },
        tx,
      );
      await subscriptions.logEvent(
        sub.id,
        { kind: "payment_failed", actor: "stripe", detail: { from: sub.status, to: "past_due", dispute: true } },
        tx,
      );
    } else if (!held && sub.status === "past_due" && !(await disputes.hasOpenInvoice(sub.id, tx))) {
      await subscriptions.update(
        sub.id,
        { status: "active", last_payment_error: null, last_payment_error_code: null },
        tx,
      );
      await subscriptions.logEvent(
        sub.id,
        { kind: "payment_recovered", actor: "stripe", detail: { from: "past_due", to: "active", dispute: true } },
        tx,
      );
    } else return;
    await this.deps.follow.followOnProperty(sub.id, tx);
  }
}
