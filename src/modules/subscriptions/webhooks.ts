// Stripe's subscription webhooks. Events may come in any order and more than once, so none
// is trusted for the state it carries: each one names a subscription, whose row is locked (docs/decisions.md#35),
// then read back from Stripe, and the state read is stored in that ONE transaction with the event id
// (provider_events). Read under the lock, it is never older than what a change holding the lock has stored. An
// event id already there is a replay and changes nothing. Stripe unreachable while reading is a 503
// (BillingUnavailableError) and the transaction rolls back, so Stripe sends the event again.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { ChargeEvents } from "./charge-events.js";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { invoiceSubscriptionId } from "../payments/index.js";
import { ForeignSubscriptionError, type StripeBilling, type StripeRead } from "./stripe-billing.js";
import type { BillingMailer } from "./billing-mailer.js";
import { ChangesRepository } from "./changes.repository.js";
import { StripeInvoiceNumbers } from "./stripe-invoice-number.js";
import { ENDED_STATUSES, type ProviderInvoiceState } from "./subscriptions.constants.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type { SubscriptionsService } from "./subscriptions.service.js";

/** The event types this module handles; PaymentsService keeps the one-time payments of before subscriptions. */
export const SUBSCRIPTION_EVENTS = [
  "checkout.session.completed",
  "invoice.paid",
  "invoice.payment_failed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.updated",
  "invoice.payment_action_required",
] as const;

const idOf = (value: string | { id?: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : (value.id ?? null);

/** What one event asks to store: subscriptions read back, and invoices beside their latest ones. */
interface Work {
  reads: StripeRead[];
  invoices: ProviderInvoiceState[];
  /** An invoice whose payment the customer's bank must confirm (3-D Secure): e-mailed its hosted page. */
  actionRequired?: ProviderInvoiceState;
}

export interface StripeWebhooksDeps {
  billing: StripeBilling;
  /** Its `mailer` sends the 3-D Secure e-mail. */
  subscriptions: Pick<SubscriptionsService, "applyProviderState" | "applyProviderInvoice"> & {
    readonly mailer: Pick<BillingMailer, "send">;
  };
  repo: Pick<SubscriptionsRepository, "claimEvent" | "findByProviderId" | "invoiceRows">;
  /** The row locks (docs/decisions.md#35); a ChangesRepository unless given. */
  changes?: Pick<ChangesRepository, "lockByProviderId" | "lockByCustomer">;
  transaction: TransactionRunner;
  log?: Logger;
  /** charge.refunded and charge.dispute.* (charge-events.ts, docs/decisions.md#34, #53). */
  charges?: Pick<ChargeEvents, "handles" | "handle"> | null;
}

export class StripeWebhooks {
  private readonly changes: Pick<ChangesRepository, "lockByProviderId" | "lockByCustomer">;
  /** Haven's number on Stripe's page of an open invoice, once the transaction has committed (docs/decisions.md#54). */
  private readonly numbers: StripeInvoiceNumbers;
  constructor(private readonly deps: StripeWebhooksDeps) {
    this.changes = deps.changes ?? new ChangesRepository();
    this.numbers = new StripeInvoiceNumbers({
      stripe: deps.billing.stripe,
      invoices: deps.repo.invoiceRows,
      log: deps.log,
    });
  }

  handles(event: Stripe.Event): boolean {
    return (
      (SUBSCRIPTION_EVENTS as readonly string[]).includes(event.type) || Boolean(this.deps.charges?.handles(event))
    );
  }

  /** Processes a subscription event once; true when this delivery was the one that recorded it. */
  async handle(event: Stripe.Event): Promise<boolean> {
    if (this.deps.charges?.handles(event)) return this.deps.charges.handle(event);
    return this.once(async (tx, stored) => {
      if (!(await this.deps.repo.claimEvent(event.id, event.type, tx))) return false;
      await this.lock(event, tx);
      await this.apply(await this.read(event), tx, stored);
      return true;
    });
  }

  /**
   * A purchase read back outside a webhook (verify-payment, /checkout): stored the same way, without an event id,
   * under the row's lock. A row already there may have moved on since `read`: it is read again under the lock.
   */
  store(read: StripeRead): Promise<void> {
    return this.once(async (tx, stored) => {
      const id = read.state.providerSubscriptionId;
      const fresh = (await this.changes.lockByProviderId("stripe", id, tx))
        ? await this.deps.billing.readBack(id, read.state.checkoutRef)
        : read;
      if (!fresh.state.payerEmail && read.state.payerEmail)
        fresh.state = { ...fresh.state, payerEmail: read.state.payerEmail, payerName: read.state.payerName };
      await this.apply({ reads: [fresh], invoices: [] }, tx, stored);
    });
  }

  /**
   * Back from the billing portal's card flow (the return URL of every page that offers it): under the row's lock,
   * the customer's new default card becomes the subscription's and pays its open invoice, then the state is
   * stored. False when there was nothing to do.
   */
  async afterCardUpdate(sub: { providerSubscriptionId: string }): Promise<boolean> {
    return this.once(async (tx, stored) => {
      await this.changes.lockByProviderId("stripe", sub.providerSubscriptionId, tx);
      const read = await this.deps.billing.adoptCustomerDefaultCard(sub);
      if (read) await this.apply({ reads: [read], invoices: [] }, tx, stored);
      return read !== null;
    });
  }

  /** Locks the rows the event is about, before anything is read (docs/decisions.md#35). */
  private async lock(event: Stripe.Event, tx: Tx): Promise<void> {
    const { changes } = this;
    const object = event.data.object as { id?: string; subscription?: unknown; object?: string };
    let subscriptionId: string | null = null;
    if (event.type === "customer.updated") {
      if (object.id) await changes.lockByCustomer("stripe", object.id, tx);
      return;
    }
    if (event.type.startsWith("customer.subscription.")) subscriptionId = object.id ?? null;
    else if (event.type.startsWith("invoice."))
      subscriptionId = invoiceSubscriptionId(event.data.object as Stripe.Invoice);
    else if (event.type === "checkout.session.completed") subscriptionId = idOf(object.subscription as string | null);
    if (subscriptionId) await changes.lockByProviderId("stripe", subscriptionId, tx);
  }

  /**
   * The checkout's redirect (verify) and Stripe's webhooks race for a new subscription: the loser of the first
   * insert hits the unique key and runs again, finding the row (its transaction, event id included, rolled back).
   * Once committed, the open invoices it stored show Haven's number on Stripe's page, outside every lock.
   */
  private async once<T>(work: (tx: Tx, stored: ProviderInvoiceState[]) => Promise<T>): Promise<T> {
    const stored: ProviderInvoiceState[] = [];
    const run = (tx: Tx) => {
      stored.length = 0;
      return work(tx, stored);
    };
    let result: T;
    try {
      result = await this.deps.transaction(run);
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error;
      result = await this.deps.transaction(run);
    }
    await this.numbers.show(stored);
    return result;
  }

  private async apply(work: Work, tx: Tx, stored: ProviderInvoiceState[]): Promise<void> {
    for (const read of work.reads) {
      await this.deps.subscriptions.applyProviderState(read.state, tx);
      if (read.invoice) await this.deps.subscriptions.applyProviderInvoice(read.invoice, tx);
      if (read.invoice) stored.push(read.invoice);
    }
    for (const invoice of work.invoices) await this.deps.subscriptions.applyProviderInvoice(invoice, tx);
    stored.push(...work.invoices);
    if (work.actionRequired) {
      const invoice = work.actionRequired;
      const sub = await this.deps.repo.findByProviderId("stripe", invoice.providerSubscriptionId, tx);
      if (sub && invoice.status === "open" && invoice.hostedInvoiceUrl)
        await this.deps.subscriptions.mailer.send("payment_action_required", sub, tx, {
          amount: invoice.amountCents / 100,
          periodStart: invoice.periodStart.toISOString(),
          periodEnd: invoice.periodEnd.toISOString(),
          hostedInvoiceUrl: invoice.hostedInvoiceUrl,
        });
    }
  }

  /** Reads back what the event names. Nothing is written here. */
  private async read(event: Stripe.Event): Promise<Work> {
    const none: Work = { reads: [], invoices: [] };
    try {
      switch (event.type) {
        case "checkout.session.completed": {
          const session = event.data.object;
          const subscriptionId = idOf(session.subscription);
          if (session.mode !== "subscription" || !subscriptionId) return none;
          const read = await this.deps.billing.readBack(subscriptionId, session.id);
          if (!read.state.payerEmail && session.customer_details?.email)
            read.state = {
              ...read.state,
              payerEmail: session.customer_details.email,
              payerName: session.customer_details.name ?? null,
            };
          return { reads: [read], invoices: [] };
        }
        case "invoice.payment_action_required": {
          // A renewal the bank wants the customer to confirm (3-D Secure): its hosted page, by e-mail.
          const subscriptionId = invoiceSubscriptionId(event.data.object);
          if (!subscriptionId || !event.data.object.id) return none;
          const [read, invoice] = await Promise.all([
            this.deps.billing.readBack(subscriptionId),
            this.deps.billing.readInvoice(event.data.object.id),
          ]);
          return {
            reads: [read],
            invoices: invoice && invoice.providerInvoiceId !== read.invoice?.providerInvoiceId ? [invoice] : [],
            actionRequired: invoice ?? undefined,
          };
        }
        case "invoice.paid":
        case "invoice.payment_failed": {
          const subscriptionId = invoiceSubscriptionId(event.data.object);
          if (!subscriptionId || !event.data.object.id) return none;
          const [read, invoice] = await Promise.all([
            this.deps.billing.readBack(subscriptionId),
            this.deps.billing.readInvoice(event.data.object.id),
          ]);
          return {
            reads: [read],
            invoices: invoice && invoice.providerInvoiceId !== read.invoice?.providerInvoiceId ? [invoice] : [],
          };
        }
        case "customer.subscription.created":
        case "customer.subscription.updated":
        case "customer.subscription.deleted":
          return { reads: [await this.deps.billing.readBack(event.data.object.id)], invoices: [] };
        case "customer.updated": {
          // The portal's card flow changed the customer's default card: make it each live subscription's too.
          const reads: StripeRead[] = [];
          for (const subscriptionId of await this.liveSubscriptions(event.data.object.id)) {
            const read = await this.deps.billing.adoptCustomerDefaultCard({ providerSubscriptionId: subscriptionId });
            if (read) reads.push(read);
          }
          return { reads, invoices: [] };
        }
        default:
          return none;
      }
    } catch (error) {
      // Not one of Haven's plans: recorded as processed, nothing stored.
      if (error instanceof ForeignSubscriptionError) {
        this.deps.log?.info({ event: event.id, type: event.type }, error.message);
        return none;
      }
      throw error;
    }
  }

  private async liveSubscriptions(customerId: string): Promise<string[]> {
    const ids: string[] = [];
    const list = await this.deps.billing.listSubscriptions(customerId);
    // An unpaid one is recovered by paying its open invoice with the new card.
    for (const subscription of list)
      if (!ENDED_STATUSES.includes(subscription.status) || subscription.status === "unpaid") ids.push(subscription.id);
    return ids;
  }
}
