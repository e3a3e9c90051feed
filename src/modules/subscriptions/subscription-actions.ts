// What staff and customers do to a subscription (cancel, resume, change plan, the card): the provider is called
// first, outside any transaction, so an outage is a 503 that changed nothing; then the new state is applied
// locally through ProviderState. SubscriptionsService builds it and delegates to it.
import type { Logger } from "pino";
import type { TransactionRunner } from "../../db/transaction.js";
import { ConflictError, HttpError, ValidationError } from "../../http/errors.js";
import { DEMO_DECLINES, digitsOnly } from "../payments/index.js";
import type { PlanType, PlansService } from "../plans/index.js";
import { cancellationTakesEffect } from "./billing-dates.js";
import type { BillingMailer } from "./billing-mailer.js";
import { type BillingPortal, type BillingProvider, BillingUnavailableError } from "./billing-provider.js";
import { DEMO_FAILING_CARD, type DemoBilling } from "./demo-billing.js";
import { type ProviderState, loadSubscription, publicSubscription } from "./provider-state.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { ENDED_STATUSES, type ProviderSubscriptionState, type Subscription } from "./subscriptions.constants.js";

export interface SubscriptionActionsDeps {
  repo: SubscriptionsRepository;
  state: Pick<ProviderState, "applyProviderState" | "applyProviderInvoice">;
  mailer: Pick<BillingMailer, "send" | "planName">;
  plans: Pick<PlansService, "get">;
  demo: DemoBilling;
  stripe: (BillingProvider & BillingPortal) | null;
  transaction: TransactionRunner;
  log: Logger;
}

export class SubscriptionActions {
  constructor(private readonly deps: SubscriptionActionsDeps) {}

  /**
   * docs/decisions.md#25. At period end: before the minimum term ends, the cancellation takes effect when it ends;
   * after, at the end of the paid period. `now` (staff only) ends it at once.
   */
  async cancel(
    id: number,
    input: { when: "period_end" | "now"; reason?: string | null; actor: string },
    now: Date,
  ): Promise<Subscription> {
    const sub = await loadSubscription(this.deps.repo, id);
    this.refuseEnded(sub);
    const provider = this.providerOf(sub);
    let state: ProviderSubscriptionState;
    if (input.when === "now") {
      state = await this.call(() => provider.cancelNow(sub, now));
    } else {
      const at = cancellationTakesEffect({
        now,
        minimumTermEndsAt: new Date(sub.minimumTermEndsAt),
        currentPeriodEnd: new Date(sub.currentPeriodEnd),
      });
      if (sub.cancelAt && new Date(sub.cancelAt).getTime() === at.getTime()) return publicSubscription(sub);
      state = await this.call(() => provider.scheduleCancel(sub, at));
    }
    return this.deps.transaction((tx) =>
      this.deps.state.applyProviderState(state, tx, { actor: input.actor, now, reason: input.reason ?? null }),
    );
  }

  /** Undoes a scheduled cancellation; possible until it takes effect. */
  async resume(id: number, input: { actor: string }, now: Date): Promise<Subscription> {
    const sub = await loadSubscription(this.deps.repo, id);
    this.refuseEnded(sub);
    if (!sub.cancelAt) throw new ConflictError("This subscription has no cancellation to undo");
    const state = await this.call(() => this.providerOf(sub).undoCancel(sub));
    return this.deps.transaction((tx) => this.deps.state.applyProviderState(state, tx, { actor: input.actor, now }));
  }

  /**
   * An upgrade applies at once with a prorated invoice; a downgrade at the end of the period. Asking for the
   * current plan while a downgrade waits takes the downgrade back.
   */
  async changePlan(id: number, input: { planType: PlanType; actor: string }, now: Date): Promise<Subscription> {
    const { repo, state: apply, mailer, plans, demo, transaction } = this.deps;
    const sub = await loadSubscription(repo, id);
    this.refuseEnded(sub);
    if (input.planType === sub.planType && !sub.scheduledPlanType)
      throw new ConflictError(`This subscription is already on the ${await mailer.planName(sub.planType)} plan`);
    if (input.planType === sub.scheduledPlanType)
      throw new ConflictError(`The change to ${await mailer.planName(input.planType)} is already scheduled`);
    const [current, target] = await Promise.all([plans.get(sub.planType), plans.get(input.planType)]);
    const priced = { ...target, amountCents: demo.amountFor(target, current, Math.round(sub.monthlyAmount * 100)) };
    const provider = this.providerOf(sub);
    if (input.planType === sub.planType) {
      // Taking back a scheduled downgrade: the current price stays.
      const { state } = await this.call(() => provider.changePlan(sub, priced, "period_end", now));
      return transaction(async (tx) => {
        await repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
        await repo.logEvent(
          sub.id,
          { kind: "plan_change_undone", actor: input.actor, fromPlan: sub.scheduledPlanType, toPlan: sub.planType },
          tx,
        );
        return apply.applyProviderState(state, tx, { actor: input.actor, now });
      });
    }
    const upgrade = target.price > current.price;
    if (upgrade) {
      const { state, invoice } = await this.call(() => provider.changePlan(sub, priced, "now", now));
      return transaction(async (tx) => {
        await repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
        const after = await apply.applyProviderState(state, tx, { actor: input.actor, now });
        if (invoice) await apply.applyProviderInvoice(invoice, tx);
        return after;
      });
    }
    const effectiveAt = new Date(sub.currentPeriodEnd);
    const { state } = await this.call(() => provider.changePlan(sub, priced, "period_end", now));
    return transaction(async (tx) => {
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
    });
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
  async updateDemoCard(id: number, input: { cardNumber: string; actor: string }, now: Date): Promise<Subscription> {
    const { repo, state: apply, demo } = this.deps;
    const sub = await loadSubscription(repo, id);
    if (sub.provider !== "demo") throw new ConflictError("This subscription's card is managed by Stripe");
    this.refuseEnded(sub);
    const digits = digitsOnly(input.cardNumber);
    const decline = DEMO_DECLINES[digits];
    if (decline) throw new ValidationError(decline, { cardNumber: decline });
    return this.deps.transaction(async (tx) => {
      await repo.lock(id, tx);
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
    });
  }

  private refuseEnded(sub: Subscription) {
    if (ENDED_STATUSES.includes(sub.status)) throw new ConflictError("This subscription has already ended");
  }

  private providerOf(sub: Subscription): BillingProvider {
    if (sub.provider === "demo") return this.deps.demo;
    if (!this.deps.stripe) throw new BillingUnavailableError();
    return this.deps.stripe;
  }

  /** Any provider failure other than Haven's own refusals is an outage: a 503, nothing local changed. */
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
