// Stripe's subscription webhooks. Events may come in any order and more than once, so none
// is trusted for the state it carries: each one names a subscription, read back from Stripe with no transaction open
// (docs/decisions.md#56), then stored under its row's lock (#35) in ONE transaction with the event id
// (provider_events), unless the row changed between the read and the lock: then it is read again, so a read older
// than what a change has stored is never stored. An event id already there is a replay and changes nothing. Stripe
// unreachable while reading is a 503 (BillingUnavailableError) with nothing claimed, so Stripe sends the event again.
import type { Logger } from "pino";
import type Stripe from "stripe";
import type { ChargeEvents } from "./charge-events.js";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { invoiceSubscriptionId } from "../payments/index.js";
import { BillingUnavailableError } from "./billing-provider.js";
import { ForeignSubscriptionError, type StripeBilling, type StripeRead } from "./stripe-billing.js";
import type { BillingMailer } from "./billing-mailer.js";
import { ChangesRepository } from "./changes.repository.js";
import { StripeInvoiceNumbers } from "../invoices/index.js";
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

/** A change stored between the read and the lock: the read may be older, so it is made again. */
class MovedMeanwhile extends Error {}

/** Stripe read again at most this many times while a subscription keeps changing, then 503. */
const READ_ATTEMPTS = 5;

type Target = { subscription: string } | { customer: string } | null;

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
  repo: Pick<SubscriptionsRepository, "claimEvent" | "eventClaimed" | "findByProviderId" | "invoiceRows">;
  /** The row locks (docs/decisions.md#35); a ChangesRepository unless given. */
  changes?: Pick<ChangesRepository, "lockByProviderId" | "lockByCustomer" | "versions">;
  transaction: TransactionRunner;
  log?: Logger;
  /** charge.refunded and charge.dispute.* (charge-events.ts, docs/decisions.md#34, #53). */
  charges?: Pick<ChargeEvents, "handles" | "handle"> | null;
}

export class StripeWebhooks {
  private readonly changes: Pick<ChangesRepository, "lockByProviderId" | "lockByCustomer" | "versions">;
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

  /**
   * Processes a subscription event once; true when this delivery was the one that recorded it. Stripe is read with no
   * transaction open; the event is claimed and what was read stored in one transaction (readThenStore), so a read that
   * fails leaves no claim and answers 503, and Stripe sends the event again.
   */
  async handle(event: Stripe.Event): Promise<boolean> {
    if (this.deps.charges?.handles(event)) return this.deps.charges.handle(event);
    const outcome = await this.readThenStore(this.target(event), (again) => this.read(event, again), {
      replay: () => this.deps.repo.eventClaimed(event.id),
      claim: (tx) => this.deps.repo.claimEvent(event.id, event.type, tx),
    });
    return outcome !== "replay";
  }

  /**
   * A purchase read back outside a webhook (verify-payment, /checkout): stored the same way, without an event id,
   * under the row's lock. A row already there may have moved on since `read`: it is read again first.
   */
  async store(read: StripeRead): Promise<void> {
    const id = read.state.providerSubscriptionId;
    await this.readThenStore({ subscription: id }, async (again) => {
      const known = again || (await this.deps.repo.findByProviderId("stripe", id)) !== null;
      const fresh = known ? await this.deps.billing.readBack(id, read.state.checkoutRef) : read;
      if (!fresh.state.payerEmail && read.state.payerEmail)
        fresh.state = { ...fresh.state, payerEmail: read.state.payerEmail, payerName: read.state.payerName };
      return { reads: [fresh], invoices: [] };
    });
  }

  /**
   * Back from the billing portal's card flow (the return URL of every page that offers it): the customer's new default
   * card becomes the subscription's and pays its open invoice (at Stripe, with no transaction open, each call under a
   * key naming the card), then the state is stored under the row's lock. False when there was nothing to do.
   */
  async afterCardUpdate(sub: { providerSubscriptionId: string }): Promise<boolean> {
    const id = sub.providerSubscriptionId;
    const outcome = await this.readThenStore({ subscription: id }, async (again) => {
      const read = await this.deps.billing.adoptCustomerDefaultCard(sub);
      // Adopted by a first attempt whose store was rolled back: a second finds nothing to do and stores the state now.
      if (read || again) return { reads: [read ?? (await this.deps.billing.readBack(id))], invoices: [] };
      return null;
    });
    return outcome !== "nothing";
  }

  /** The rows an event is about: a subscription, or a customer's (customer.updated); null when it names none. */
  private target(event: Stripe.Event): Target {
    const object = event.data.object as { id?: string; subscription?: unknown; object?: string };
    let subscriptionId: string | null = null;
    if (event.type === "customer.updated") return object.id ? { customer: object.id } : null;
    if (event.type.startsWith("customer.subscription.")) subscriptionId = object.id ?? null;
    else if (event.type.startsWith("invoice."))
      subscriptionId = invoiceSubscriptionId(event.data.object as Stripe.Invoice);
    else if (event.type === "checkout.session.completed") subscriptionId = idOf(object.subscription as string | null);
    return subscriptionId ? { subscription: subscriptionId } : null;
  }

  /** Locks the rows the target names, before what was read is stored (docs/decisions.md#35). */
  private async lock(target: Target, tx: Tx, noWait = false): Promise<void> {
    if (!target) return;
    if ("customer" in target) await this.changes.lockByCustomer("stripe", target.customer, tx, noWait);
    else await this.changes.lockByProviderId("stripe", target.subscription, tx, noWait);
  }

  /**
   * Locks the target's rows; true when another transaction held one, so had to be waited for: a change may have
   * reached Stripe meanwhile without storing anything (its answer lost), and the read is made again.
   */
  private async lockWaited(target: Target, tx: Tx): Promise<boolean> {
    try {
      await tx.transaction((savepoint) => this.lock(target, savepoint, true));
      return false;
    } catch (error) {
      if ((error as { code?: string }).code !== "55P03") throw error;
      await this.lock(target, tx);
      return true;
    }
  }

  private versions(target: Target, tx: Tx): Promise<string> {
    return target ? this.changes.versions("stripe", target, tx) : Promise.resolve("");
  }

  /**
   * Providers are called with no transaction open (docs/decisions.md#56): the versions of the rows `target` names
   * are read, then Stripe (`read`), then, in ONE transaction, the event claimed, the rows locked and their versions
   * read again. Unchanged and not held by another, what was read is stored; a change stored meanwhile (a staff change,
   * another event), or one holding the rows, may be newer than the read, so it is all rolled back, claim included,
   * and Stripe read again: at most READ_ATTEMPTS times, then 503 (Stripe sends the event again). "nothing" when `read`
   * found nothing to store.
   */
  private async readThenStore(
    target: Target,
    read: (again: boolean) => Promise<Work | null>,
    event?: { replay: () => Promise<boolean>; claim: (tx: Tx) => Promise<boolean> },
  ): Promise<"stored" | "nothing" | "replay"> {
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      // A replay is answered without calling Stripe; the claim below still decides.
      if (event && (await event.replay())) return "replay";
      const seen = await this.deps.transaction((tx) => this.versions(target, tx));
      const work = await read(attempt > 0);
      try {
        return await this.once(async (tx, stored) => {
          if (event && !(await event.claim(tx))) return "replay";
          if (!work) return "nothing";
          const waited = await this.lockWaited(target, tx);
          if (waited || (await this.versions(target, tx)) !== seen) throw new MovedMeanwhile();
          await this.apply(work, tx, stored);
          return "stored";
        });
      } catch (error) {
        if (!(error instanceof MovedMeanwhile)) throw error;
      }
    }
    this.deps.log?.warn({ target }, "Stripe: the subscription kept changing while it was read; 503");
    throw new BillingUnavailableError();
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

  /** Reads back what the event names (`again`: a second attempt). Nothing is written here. */
  private async read(event: Stripe.Event, again = false): Promise<Work> {
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
            // Adopted by a first attempt whose store was rolled back: stored as it is now.
            if (read || again) reads.push(read ?? (await this.deps.billing.readBack(subscriptionId)));
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
