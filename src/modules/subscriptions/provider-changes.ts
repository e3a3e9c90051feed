// What a staff or customer change sends to the provider and how its answer is applied (change-runner.ts's
// ChangeDriver, docs/decisions.md#76): the steps SubscriptionActions decided under the lock, stored on the change's
// claim so the `subscriptions:finish-change` job can send them again with the same key.
import type { Tx } from "../../db/transaction.js";
import { HttpError } from "../../http/errors.js";
import { CardDeclinedError } from "../payments/index.js";
import type { Plan } from "../plans/index.js";
import {
  type BillingProvider,
  BillingUnavailableError,
  type PlanChange,
  type ProviderSubscription,
} from "./billing-provider.js";
import { type ChangeDriver, Refused } from "./change-runner.js";
import type { Logger } from "pino";
import type { BillingMailer } from "./billing-mailer.js";
import type { DemoBilling } from "./demo-billing.js";
import type { ProviderState } from "./provider-state.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type { ProviderSubscriptionState, Subscription } from "./subscriptions.constants.js";

type PricedPlan = Plan & { amountCents: number };

/**
 * What a change sends, decided under the lock and stored on its claim (JSON), so the job can send it again.
 * `decidedAt` is the provider's `now` (the demo's proration and cancellation instant). `dropFirst`: a waiting
 * downgrade is taken back at the provider first (its Stripe schedule released).
 */
export type ChangeSteps = { decidedAt: string } & (
  | { do: "cancel_now"; dropFirst: boolean; reason: string | null }
  | { do: "schedule_cancel"; at: string; dropFirst: boolean; reason: string | null }
  | { do: "undo_cancel" }
  | { do: "keep"; plan: PricedPlan }
  | { do: "upgrade"; plan: PricedPlan; prorationDate: string | null; fromPlan: string }
  | { do: "downgrade"; plan: PricedPlan; effectiveAt: string; fromName: string }
);

/** The provider's answers: the state after a waiting downgrade was dropped first, and the change's own. */
export interface ChangeSent {
  dropped: ProviderSubscriptionState | null;
  change: PlanChange;
}

export interface ProviderChangesDeps {
  repo: SubscriptionsRepository;
  state: Pick<ProviderState, "applyProviderState" | "applyProviderInvoice">;
  mailer: Pick<BillingMailer, "send">;
  demo: DemoBilling;
  stripe: BillingProvider | null;
  log: Logger;
}

export class ProviderChanges implements ChangeDriver<ChangeSteps, ChangeSent> {
  constructor(private readonly deps: ProviderChangesDeps) {}

  /** Sends what was decided, with no transaction open (ChangeDriver); the claim's key is the provider's key. */
  async send(sub: ProviderSubscription, steps: ChangeSteps, key: string): Promise<ChangeSent> {
    const provider = await this.reach(sub);
    const now = new Date(steps.decidedAt);
    let dropped: ProviderSubscriptionState | null = null;
    if ("dropFirst" in steps && steps.dropFirst)
      dropped = (await this.call(() => provider.changePlan(sub, this.keep(sub), "keep", now, `${key}:keep`))).state;
    const only = (state: ProviderSubscriptionState): ChangeSent => ({ dropped, change: { state, invoice: null } });
    switch (steps.do) {
      case "cancel_now":
        return only(await this.call(() => provider.cancelNow(sub, now, key)));
      case "schedule_cancel":
        return only(await this.call(() => provider.scheduleCancel(sub, new Date(steps.at), key)));
      case "undo_cancel":
        return only(await this.call(() => provider.undoCancel(sub, key)));
      case "keep":
        return { dropped, change: await this.call(() => provider.changePlan(sub, steps.plan, "keep", now, key)) };
      case "upgrade": {
        const at = steps.prorationDate ? new Date(steps.prorationDate) : null;
        return { dropped, change: await this.call(() => provider.changePlan(sub, steps.plan, "now", now, key, at)) };
      }
      case "downgrade":
        return { dropped, change: await this.call(() => provider.changePlan(sub, steps.plan, "period_end", now, key)) };
    }
  }

  /**
   * The job's read back (ChangeDriver): Stripe's subscription when it shows the change made (a cancellation's date,
   * its undoing, the end, the upgraded price); a downgrade's or take-back's schedule is sent again instead, which
   * its keys make the same calls.
   */
  async readBack(sub: ProviderSubscription, steps: ChangeSteps): Promise<ChangeSent | null> {
    if (sub.provider !== "stripe") return null;
    const state = await this.call(() => this.providerOf(sub).read(sub));
    const made =
      steps.do === "cancel_now"
        ? state.status === "canceled"
        : steps.do === "schedule_cancel"
          ? state.cancelAt?.getTime() === new Date(steps.at).getTime()
          : steps.do === "undo_cancel"
            ? !state.cancelAt
            : steps.do === "upgrade" &&
              state.planType === steps.plan.type &&
              state.monthlyAmountCents === steps.plan.amountCents;
    return made ? { dropped: null, change: { state, invoice: null } } : null;
  }

  /** The provider's answer applied under the lock, on the row read again (ChangeDriver). */
  async apply(
    sub: ProviderSubscription,
    steps: ChangeSteps,
    sent: ChangeSent,
    tx: Tx,
    { actor, now }: { actor: string; now: Date },
  ): Promise<Subscription | Refused> {
    const { repo, state: apply, mailer } = this.deps;
    const { state, invoice, declined } = sent.change;
    const dropsScheduled = steps.do === "keep" || steps.do === "upgrade" || ("dropFirst" in steps && steps.dropFirst);
    if (dropsScheduled && sub.scheduledPlanType) await this.undoScheduled(sub, actor, tx);
    if (sent.dropped) await apply.applyProviderState(sent.dropped, tx, { actor, now });
    switch (steps.do) {
      case "cancel_now":
      case "schedule_cancel":
        return apply.applyProviderState(state, tx, { actor, now, reason: steps.reason });
      case "undo_cancel":
      case "keep":
        return apply.applyProviderState(state, tx, { actor, now });
      case "upgrade": {
        if (declined) {
          // docs/decisions.md#49: the plan stays as it was; its history says why, and the card's message is the answer.
          await repo.logEvent(
            sub.id,
            { kind: "plan_change_declined", actor, fromPlan: steps.fromPlan, toPlan: steps.plan.type },
            tx,
          );
          await apply.applyProviderState(state, tx, { actor, now });
          return new Refused(new CardDeclinedError(declined));
        }
        const after = await apply.applyProviderState(state, tx, { actor, now });
        if (invoice) await apply.applyProviderInvoice(invoice, tx);
        return after;
      }
      case "downgrade": {
        const effectiveAt = steps.effectiveAt;
        await repo.update(
          sub.id,
          { scheduled_plan_type: steps.plan.type, scheduled_plan_at: new Date(effectiveAt) },
          tx,
        );
        await repo.logEvent(
          sub.id,
          {
            kind: "plan_change_scheduled",
            actor,
            fromPlan: sub.planType,
            toPlan: steps.plan.type,
            detail: { effectiveAt },
          },
          tx,
        );
        const after = await apply.applyProviderState(state, tx, { actor, now });
        await mailer.send("plan_changed", (await repo.find(sub.id, tx))!, tx, {
          fromPlanName: steps.fromName,
          toPlanName: steps.plan.name,
          effectiveAt,
        });
        return after;
      }
    }
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

  private async undoScheduled(sub: ProviderSubscription, actor: string, tx: Tx): Promise<void> {
    await this.deps.repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
    await this.deps.repo.logEvent(
      sub.id,
      { kind: "plan_change_undone", actor, fromPlan: sub.scheduledPlanType, toPlan: sub.planType },
      tx,
    );
  }

  providerOf(sub: Subscription): BillingProvider {
    if (sub.provider === "demo") return this.deps.demo;
    if (!this.deps.stripe) throw new BillingUnavailableError();
    return this.deps.stripe;
  }

  /**
   * A provider failure other than Haven's own refusals and the provider's own 503s (BillingUnavailableError,
   * BillingUncertainError) is an outage: a 503, and the transaction rolls back.
   */
  async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.warn({ err: error }, "billing provider call failed");
      throw new BillingUnavailableError();
    }
  }
}
