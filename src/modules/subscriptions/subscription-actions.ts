// What staff and customers do to a subscription (cancel, resume, change plan, the card), one change at a time
// (docs/decisions.md#35): each runs in one transaction that first locks the subscription's row, then reads it,
// decides, calls the provider with an idempotency key derived from the change (never the clock), and applies the
// provider's answer. A repeat of a change gets its first answer (subscription_changes); a different change waits
// for the lock and is decided on the state the first one left. An outage before anything was sent is a 503 that
// changed nothing; a change call the provider did not answer is a 503 that says it is being checked.
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { ConflictError, HttpError, ValidationError } from "../../http/errors.js";
import { CardDeclinedError, DEMO_DECLINES, digitsOnly } from "../payments/index.js";
import type { Plan, PlanType, PlansService } from "../plans/index.js";
import { cancellationTakesEffect } from "./billing-dates.js";
import type { BillingMailer } from "./billing-mailer.js";
import {
  type BillingPortal,
  type BillingProvider,
  BillingUnavailableError,
  type ProviderSubscription,
} from "./billing-provider.js";
import type { ChangesRepository } from "./changes.repository.js";
import { DEMO_FAILING_CARD, type DemoBilling } from "./demo-billing.js";
import { type ProviderState, loadSubscription, publicSubscription } from "./provider-state.js";
import { readThenStore } from "./read-then-store.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { ENDED_STATUSES, type Subscription } from "./subscriptions.constants.js";

export interface SubscriptionActionsDeps {
  repo: SubscriptionsRepository;
  changes: ChangesRepository;
  state: Pick<ProviderState, "applyProviderState" | "applyProviderInvoice">;
  mailer: Pick<BillingMailer, "send" | "planName">;
  plans: Pick<PlansService, "list">;
  demo: DemoBilling;
  stripe: (BillingProvider & BillingPortal) | null;
  transaction: TransactionRunner;
  log: Logger;
  /** The audit trail: a change by staff or the CLI is one event (docs/decisions.md#39); a customer's own is not. */
  audit: Pick<AuditLog, "record">;
}

/** What names a change: its kind and target, and the client's Idempotency-Key when it sent one. */
interface ChangeSpec {
  kind: "cancel" | "cancel_now" | "resume" | "change_plan" | "card";
  target: string;
  requestKey?: string | null;
  /** Who asks: "staff:<id>", "cli" or "customer". */
  actor: string;
}

/** A change the provider refused once something was kept (a declined upgrade): committed, then answered with `error`. */
class Refused {
  constructor(readonly error: HttpError) {}
}

/** A past-due plan pays its open invoice before it changes (the proration would be charged to the failing card). */
export const PAST_DUE_CHANGE_MESSAGE =
  "This plan's last payment has not gone through. Please pay the open invoice (update your card) before changing plan.";

export class SubscriptionActions {
  constructor(private readonly deps: SubscriptionActionsDeps) {}

  /**
   * docs/decisions.md#25. At period end: before the minimum term ends, the cancellation takes effect when it ends;
   * after, at the end of the paid period. `now` (staff only) ends it at once. A downgrade waiting for a date the
   * cancellation comes before (or on) is dropped: the plan ends first. One waiting for an earlier date is a 409.
   */
  async cancel(
    id: number,
    input: { when: "period_end" | "now"; reason?: string | null; actor: string; requestKey?: string | null },
    now: Date,
  ): Promise<Subscription> {
    const kind = input.when === "now" ? "cancel_now" : "cancel";
    return this.change(
      id,
      { kind, target: "", requestKey: input.requestKey, actor: input.actor },
      async (locked, tx, key) => {
        let sub = locked;
        this.refuseEnded(sub);
        const provider = await this.reach(sub);
        const context = { actor: input.actor, now, reason: input.reason ?? null };
        if (input.when === "now") {
          // Ending now, a waiting downgrade never applies: its schedule is released first.
          if (sub.scheduledPlanType) sub = await this.dropScheduled(sub, provider, input.actor, now, key, tx);
          const state = await this.call(() => provider.cancelNow(sub, now, key));
          return this.deps.state.applyProviderState(state, tx, context);
        }
        const at = cancellationTakesEffect({
          now,
          minimumTermEndsAt: new Date(sub.minimumTermEndsAt),
          currentPeriodEnd: new Date(sub.currentPeriodEnd),
        });
        if (sub.cancelAt && new Date(sub.cancelAt).getTime() === at.getTime()) return publicSubscription(sub);
        if (sub.scheduledPlanType && sub.scheduledPlanAt) {
          if (new Date(sub.scheduledPlanAt) < at)
            throw new ConflictError(
              `A change to the ${await this.deps.mailer.planName(sub.scheduledPlanType)} plan is waiting for its date: take it back first, or cancel once it has taken effect`,
            );
          // The plan ends before the downgrade would apply: the downgrade is dropped with the provider and here.
          sub = await this.dropScheduled(sub, provider, input.actor, now, key, tx);
        }
        const state = await this.call(() => provider.scheduleCancel(sub, at, key));
        return this.deps.state.applyProviderState(state, tx, context);
      },
    );
  }

  /** Undoes a scheduled cancellation; possible until it takes effect. */
  async resume(id: number, input: { actor: string; requestKey?: string | null }, now: Date): Promise<Subscription> {
    return this.change(
      id,
      { kind: "resume", target: "", requestKey: input.requestKey, actor: input.actor },
      async (sub, tx, key) => {
        this.refuseEnded(sub);
        if (!sub.cancelAt) throw new ConflictError("This subscription has no cancellation to undo");
        const provider = await this.reach(sub);
        const state = await this.call(() => provider.undoCancel(sub, key));
        return this.deps.state.applyProviderState(state, tx, { actor: input.actor, now });
      },
    );
  }

  /**
   * An upgrade applies at once with a prorated invoice, prorated from the plan paid for (a waiting downgrade is
   * dropped first), once that invoice is paid: declined, the plan stays as it was and the answer is the card's
   * message (402, docs/decisions.md#49). A downgrade applies at the end of the period, the paid price kept until then. Asking for the current
   * plan while a downgrade waits takes the downgrade back. A past-due plan cannot change (409).
   */
  async changePlan(
    id: number,
    input: { planType: PlanType; actor: string; requestKey?: string | null; prorationDate?: Date | null },
    now: Date,
  ): Promise<Subscription> {
    const { repo, state: apply, mailer, demo } = this.deps;
    const prorationDate = input.prorationDate ?? null;
    // Read before the lock: the catalogue is not the subscription's state, and a transaction waiting for the
    // lock must not need a second connection.
    const catalogue = await this.deps.plans.list();
    const planOf = (type: PlanType): Plan => {
      const plan = catalogue.find((p) => p.type === type);
      if (!plan) throw new ValidationError("Unknown plan", { planType: "Unknown plan" });
      return plan;
    };
    return this.change(
      id,
      { kind: "change_plan", target: input.planType, requestKey: input.requestKey, actor: input.actor },
      async (sub, tx, key) => {
        this.refuseEnded(sub);
        if (sub.status !== "active" && sub.status !== "trialing") throw new ConflictError(PAST_DUE_CHANGE_MESSAGE);
        if (input.planType === sub.planType && !sub.scheduledPlanType)
          throw new ConflictError(`This subscription is already on the ${await mailer.planName(sub.planType)} plan`);
        if (input.planType === sub.scheduledPlanType)
          throw new ConflictError(`The change to ${await mailer.planName(input.planType)} is already scheduled`);
        const current = planOf(sub.planType);
        const target = planOf(input.planType);
        const priced = { ...target, amountCents: demo.amountFor(target, current, sub) };
        const provider = await this.reach(sub);
        if (input.planType === sub.planType) {
          // Taking back a scheduled downgrade: the current price stays.
          const { state } = await this.call(() => provider.changePlan(sub, priced, "keep", now, key));
          await this.undoScheduled(sub, input.actor, tx);
          return apply.applyProviderState(state, tx, { actor: input.actor, now });
        }
        if (target.price > current.price) {
          // docs/decisions.md#63: prorated at the instant its preview showed, when that is in this period.
          if (
            prorationDate &&
            (prorationDate < new Date(sub.currentPeriodStart) || prorationDate.getTime() > now.getTime() + 60_000)
          )
            throw new ValidationError("The prorated amount shown is out of date: please look at it again", {
              prorationDate: "Out of date",
            });
          const { state, invoice, declined } = await this.call(() =>
            provider.changePlan(sub, priced, "now", now, key, prorationDate),
          );
          if (sub.scheduledPlanType) await this.undoScheduled(sub, input.actor, tx);
          if (declined) {
            // docs/decisions.md#49: the plan stays as it was; its history says why, and the card's message is the answer.
            await repo.logEvent(
              sub.id,
              { kind: "plan_change_declined", actor: input.actor, fromPlan: sub.planType, toPlan: input.planType },
              tx,
            );
            await apply.applyProviderState(state, tx, { actor: input.actor, now });
            return new Refused(new CardDeclinedError(declined));
          }
          const after = await apply.applyProviderState(state, tx, { actor: input.actor, now });
          if (invoice) await apply.applyProviderInvoice(invoice, tx);
          return after;
        }
        const effectiveAt = new Date(sub.currentPeriodEnd);
        if (sub.cancelAt && new Date(sub.cancelAt) <= effectiveAt)
          throw new ConflictError("This plan ends before the change would apply");
        const { state } = await this.call(() => provider.changePlan(sub, priced, "period_end", now, key));
        await repo.update(sub.id, { scheduled_plan_type: input.planType, scheduled_plan_at: effectiveAt }, tx);
        await repo.logEvent(
          sub.id,
          {
            kind: "plan_change_scheduled",
            actor: input.actor,
            fromPlan: sub.planType,
            toPlan: input.planType,
            detail: { effectiveAt: effectiveAt.toISOString() },
          },
          tx,
        );
        const after = await apply.applyProviderState(state, tx, { actor: input.actor, now });
        await mailer.send("plan_changed", (await repo.find(sub.id, tx))!, tx, {
          fromPlanName: current.name,
          toPlanName: target.name,
          effectiveAt: effectiveAt.toISOString(),
        });
        return after;
      },
    );
  }

  /**
   * Stripe's billing portal for this subscription's customer: `card` opens the payment-method flow; `manage` the
   * portal's home, whose configuration offers cancellation only once the minimum term has ended (docs/decisions.md#25).
   */
  async portalUrl(id: number, input: { flow: "card" | "manage"; returnUrl: string }, now: Date): Promise<string> {
    const sub = await loadSubscription(this.deps.repo, id);
    if (sub.provider !== "stripe")
      throw new ConflictError("This plan is not billed through Stripe: update the card on the billing page");
    const stripe = this.deps.stripe;
    if (!stripe) throw new BillingUnavailableError();
    return this.call(() =>
      input.flow === "card"
        ? stripe.cardUpdateUrl(sub, input.returnUrl)
        : stripe.portalUrl(sub, input.returnUrl, { canCancel: now >= new Date(sub.minimumTermEndsAt) }),
    );
  }

  /** Demo mode's card form (docs/decisions.md#24): stores the card; a past-due subscription's open invoice is tried at once. */
  async updateDemoCard(
    id: number,
    input: { cardNumber: string; actor: string; requestKey?: string | null },
    now: Date,
  ): Promise<Subscription> {
    const { repo, state: apply, demo } = this.deps;
    const digits = digitsOnly(input.cardNumber);
    const decline = DEMO_DECLINES[digits];
    if (decline) throw new ValidationError(decline, { cardNumber: decline });
    return this.change(
      id,
      { kind: "card", target: digits.slice(-4), requestKey: input.requestKey, actor: input.actor },
      async (sub, tx) => {
        if (sub.provider !== "demo") throw new ConflictError("This subscription's card is managed by Stripe");
        this.refuseEnded(sub);
        await repo.update(id, { card_last4: digits.slice(-4), card_fails_renewals: digits === DEMO_FAILING_CARD }, tx);
        await repo.logEvent(id, { kind: "card_updated", actor: input.actor, detail: { last4: digits.slice(-4) } }, tx);
        const open = await repo.openInvoice(id, tx);
        const current = (await repo.find(id, tx))!;
        if (open && digits !== DEMO_FAILING_CARD) {
          await apply.applyProviderInvoice(
            { ...demo.invoiceState(current, open), status: "paid", paidAt: now, failureReason: null, attemptCount: 1 },
            tx,
          );
          if (current.status === "past_due")
            return apply.applyProviderState({ ...demo.stateOf(current), status: "active" }, tx, {
              actor: input.actor,
              now,
            });
        }
        return publicSubscription(current);
      },
    );
  }

  /**
   * Back from Stripe's card flow, whichever page offered it (My Home, the billing link): the customer's new default
   * card becomes the subscription's and pays its open invoice (past due or unpaid), at Stripe with no transaction
   * open, then the state is stored under the row's lock (read-then-store.ts, docs/decisions.md#56). Nothing to do
   * (no new card) changes nothing.
   */
  async afterStripeCard(id: number, input: { actor: string }, now: Date): Promise<Subscription> {
    const { repo, changes, state: apply, stripe } = this.deps;
    const sub = await loadSubscription(repo, id);
    if (sub.provider !== "stripe") throw new ConflictError("This subscription's card is not managed by Stripe");
    if (!stripe) throw new BillingUnavailableError();
    const done = await readThenStore(this.deps, sub.providerSubscriptionId, {
      // Adopted by a first attempt: a second finds nothing to do, and stores the state as it is now.
      read: async (again) =>
        (await this.call(() => stripe.adoptCustomerDefaultCard(sub))) ??
        (again ? { state: await this.call(() => stripe.read(sub)), invoice: null } : null),
      lock: (tx) => changes.lock(id, tx),
      store: async (tx, read) => {
        if (!read) return publicSubscription((await repo.find(id, tx))!);
        const after = await apply.applyProviderState(read.state, tx, { actor: input.actor, now });
        if (read.invoice) await apply.applyProviderInvoice(read.invoice, tx);
        return after;
      },
    });
    if (!done) throw new BillingUnavailableError();
    return done.stored;
  }

  /**
   * Runs one change under the subscription's row lock (docs/decisions.md#35). The change's key names the
   * subscription, the kind and target, and the client's Idempotency-Key or else the version the request saw: two
   * identical requests sent together share it, and the second gets the first's answer. One sent after the first
   * was answered sees the new state and is decided on it (a 409 when there is nothing left to do).
   */
  private async change(
    id: number,
    spec: ChangeSpec,
    work: (sub: ProviderSubscription, tx: Tx, key: string) => Promise<Subscription | Refused>,
  ): Promise<Subscription> {
    const { repo, changes, transaction, mailer } = this.deps;
    const seen = await loadSubscription(repo, id);
    // Warmed outside the transaction (it reads the plan names once per process).
    await mailer.planName(seen.planType);
    const name = `sub:${id}:${spec.kind}:${spec.target}`;
    const key = `${name}:${spec.requestKey ? `key:${spec.requestKey}` : `v${seen.version}`}`;
    const outcome = await transaction(async (tx) => {
      await changes.lock(id, tx);
      const first = await changes.answer(key, tx);
      if (first) return first.response as Subscription;
      const sub = (await repo.find(id, tx))!;
      const done = await work(sub, tx, key);
      if (done instanceof Refused) return done;
      const answer = publicSubscription((await repo.find(id, tx))!);
      await changes.record(id, { key, statusCode: 200, response: answer }, tx);
      // A repeat returned above: one change, one event.
      if (spec.actor !== "customer")
        await this.deps.audit.record(tx, {
          actor: spec.actor,
          action: `subscription.${spec.kind}`,
          recordType: "subscription",
          recordId: id,
          before: publicSubscription(sub),
          after: answer,
        });
      return answer;
    });
    if (outcome instanceof Refused) throw outcome.error;
    return outcome;
  }

  /** Reaches the provider before anything is sent that changes the subscription: failing here changed nothing. */
  private async reach(sub: ProviderSubscription): Promise<BillingProvider> {
    const provider = this.providerOf(sub);
    if (provider.name === "stripe") await this.call(() => provider.read(sub));
    return provider;
  }

  /** The plan priced as it is now (taking a waiting downgrade back keeps the current price). */
  private keep(sub: ProviderSubscription): Plan & { amountCents: number } {
    return {
      type: sub.planType,
      name: sub.planType,
      price: sub.monthlyAmount,
      checkoutPrice: sub.monthlyAmount,
      amountCents: Math.round(sub.monthlyAmount * 100),
    } as Plan & { amountCents: number };
  }

  /** Drops a waiting downgrade with the provider (Stripe: releases its schedule) and here; the row after. */
  private async dropScheduled(
    sub: ProviderSubscription,
    provider: BillingProvider,
    actor: string,
    now: Date,
    key: string,
    tx: Tx,
  ): Promise<ProviderSubscription> {
    const { state } = await this.call(() => provider.changePlan(sub, this.keep(sub), "keep", now, `${key}:keep`));
    await this.undoScheduled(sub, actor, tx);
    await this.deps.state.applyProviderState(state, tx, { actor, now });
    return (await this.deps.repo.find(sub.id, tx))!;
  }

  private async undoScheduled(sub: ProviderSubscription, actor: string, tx: Tx): Promise<void> {
    await this.deps.repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
    await this.deps.repo.logEvent(
      sub.id,
      { kind: "plan_change_undone", actor, fromPlan: sub.scheduledPlanType, toPlan: sub.planType },
      tx,
    );
  }

  private refuseEnded(sub: Subscription) {
    if (ENDED_STATUSES.includes(sub.status)) throw new ConflictError("This subscription has already ended");
  }

  private providerOf(sub: Subscription): BillingProvider {
    if (sub.provider === "demo") return this.deps.demo;
    if (!this.deps.stripe) throw new BillingUnavailableError();
    return this.deps.stripe;
  }

  /**
   * A provider failure other than Haven's own refusals and the provider's own 503s (BillingUnavailableError,
   * BillingUncertainError) is an outage: a 503, and the transaction rolls back.
   */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.warn({ err: error }, "billing provider call failed");
      throw new BillingUnavailableError();
    }
  }
}
