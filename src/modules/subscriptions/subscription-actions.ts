// What staff and customers do to a subscription (cancel, resume, change plan, the card). A cancellation, a
// resumption or a plan change is claimed under the subscription's row lock, sent to the provider with no
// transaction open, and applied under the lock again (change-runner.ts, docs/decisions.md#76): this file decides
// each (the same refusals as ever), says what to send, and applies the provider's answer. A repeat of a change gets
// its first answer; a different change while one is pending is a 409. Nothing sent, or refused: a 503 that changed
// nothing; sent and not answered: a 202, settled by the `subscriptions:finish-change` job.
import type { Logger } from "pino";
import type { TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { ConflictError, ValidationError } from "../../http/errors.js";
import { DEMO_DECLINES, digitsOnly } from "../payments/index.js";
import type { Plan, PlanType, PlansService } from "../plans/index.js";
import { cancellationTakesEffect } from "./billing-dates.js";
import type { BillingMailer } from "./billing-mailer.js";
import {
  type BillingPortal,
  type BillingProvider,
  BillingUnavailableError,
  type ProviderSubscription,
} from "./billing-provider.js";
import { ChangeRunner, type ChangeSpec } from "./change-runner.js";
import type { ChangesRepository } from "./changes.repository.js";
import { DEMO_FAILING_CARD, type DemoBilling } from "./demo-billing.js";
import { type ProviderState, loadSubscription, publicSubscription } from "./provider-state.js";
import { readThenStore } from "./read-then-store.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import { type ChangeSent, type ChangeSteps, ProviderChanges } from "./provider-changes.js";
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

/** A past-due plan pays its open invoice before it changes (the proration would be charged to the failing card). */
export const PAST_DUE_CHANGE_MESSAGE =
  "This plan's last payment has not gone through. Please pay the open invoice (update your card) before changing plan.";

export class SubscriptionActions {
  private readonly provider: ProviderChanges;
  private readonly runner: ChangeRunner<ChangeSteps, ChangeSent>;

  constructor(private readonly deps: SubscriptionActionsDeps) {
    this.provider = new ProviderChanges(deps);
    this.runner = new ChangeRunner(deps, this.provider);
  }

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
    const reason = input.reason ?? null;
    const decidedAt = now.toISOString();
    return this.run(id, { kind, target: "", requestKey: input.requestKey, actor: input.actor }, now, async (sub) => {
      this.refuseEnded(sub);
      // Ending now, a waiting downgrade never applies: its schedule is released first.
      if (input.when === "now")
        return { steps: { decidedAt, do: "cancel_now", dropFirst: Boolean(sub.scheduledPlanType), reason } };
      const at = cancellationTakesEffect({
        now,
        minimumTermEndsAt: new Date(sub.minimumTermEndsAt),
        currentPeriodEnd: new Date(sub.currentPeriodEnd),
      });
      if (sub.cancelAt && new Date(sub.cancelAt).getTime() === at.getTime()) return { answer: publicSubscription(sub) };
      let dropFirst = false;
      if (sub.scheduledPlanType && sub.scheduledPlanAt) {
        if (new Date(sub.scheduledPlanAt) < at)
          throw new ConflictError(
            `A change to the ${await this.deps.mailer.planName(sub.scheduledPlanType)} plan is waiting for its date: take it back first, or cancel once it has taken effect`,
          );
        // The plan ends before the downgrade would apply: the downgrade is dropped with the provider and here.
        dropFirst = true;
      }
      return { steps: { decidedAt, do: "schedule_cancel", at: at.toISOString(), dropFirst, reason } };
    });
  }

  /** Undoes a scheduled cancellation; possible until it takes effect. */
  async resume(id: number, input: { actor: string; requestKey?: string | null }, now: Date): Promise<Subscription> {
    const spec = { kind: "resume", target: "", requestKey: input.requestKey, actor: input.actor } as const;
    return this.run(id, spec, now, async (sub) => {
      this.refuseEnded(sub);
      if (!sub.cancelAt) throw new ConflictError("This subscription has no cancellation to undo");
      return { steps: { decidedAt: now.toISOString(), do: "undo_cancel" } };
    });
  }

  /**
   * An upgrade applies at once with a prorated invoice, prorated from the plan paid for (a waiting downgrade is
   * dropped first), once that invoice is paid: declined, the plan stays as it was and the answer is the card's
   * message (402, docs/decisions.md#49). A downgrade applies at the end of the period, the paid price kept until
   * then. Asking for the current plan while a downgrade waits takes the downgrade back. A past-due plan cannot
   * change (409).
   */
  async changePlan(
    id: number,
    input: { planType: PlanType; actor: string; requestKey?: string | null; prorationDate?: Date | null },
    now: Date,
  ): Promise<Subscription> {
    const { mailer, demo } = this.deps;
    const prorationDate = input.prorationDate ?? null;
    // Read before the lock: the catalogue is not the subscription's state, and a transaction waiting for the
    // lock must not need a second connection.
    const catalogue = await this.deps.plans.list();
    const planOf = (type: PlanType): Plan => {
      const plan = catalogue.find((p) => p.type === type);
      if (!plan) throw new ValidationError("Unknown plan", { planType: "Unknown plan" });
      return plan;
    };
    const spec = {
      kind: "change_plan",
      target: input.planType,
      requestKey: input.requestKey,
      actor: input.actor,
    } as const;
    const decidedAt = now.toISOString();
    return this.run(id, spec, now, async (sub) => {
      this.refuseEnded(sub);
      if (sub.status !== "active" && sub.status !== "trialing") throw new ConflictError(PAST_DUE_CHANGE_MESSAGE);
      if (input.planType === sub.planType && !sub.scheduledPlanType)
        throw new ConflictError(`This subscription is already on the ${await mailer.planName(sub.planType)} plan`);
      if (input.planType === sub.scheduledPlanType)
        throw new ConflictError(`The change to ${await mailer.planName(input.planType)} is already scheduled`);
      const current = planOf(sub.planType);
      const target = planOf(input.planType);
      const plan = { ...target, amountCents: demo.amountFor(target, current, sub) };
      // Taking back a scheduled downgrade: the current price stays.
      if (input.planType === sub.planType) return { steps: { decidedAt, do: "keep", plan } };
      if (target.price > current.price) {
        // docs/decisions.md#63: prorated at the instant its preview showed, when that is in this period.
        if (
          prorationDate &&
          (prorationDate < new Date(sub.currentPeriodStart) || prorationDate.getTime() > now.getTime() + 60_000)
        )
          throw new ValidationError("The prorated amount shown is out of date: please look at it again", {
            prorationDate: "Out of date",
          });
        const at = prorationDate?.toISOString() ?? null;
        return { steps: { decidedAt, do: "upgrade", plan, prorationDate: at, fromPlan: sub.planType } };
      }
      const effectiveAt = new Date(sub.currentPeriodEnd);
      if (sub.cancelAt && new Date(sub.cancelAt) <= effectiveAt)
        throw new ConflictError("This plan ends before the change would apply");
      return {
        steps: { decidedAt, do: "downgrade", plan, effectiveAt: effectiveAt.toISOString(), fromName: current.name },
      };
    });
  }

  /** The `subscriptions:finish-change` job (change-runner.ts): a pending change settled; `now` is its clock. */
  finishChange(changeId: number, now: Date): Promise<void> {
    return this.runner.finish(changeId, now);
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
    return this.provider.call(() =>
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
    return this.runner.runLocal(
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
        (await this.provider.call(() => stripe.adoptCustomerDefaultCard(sub))) ??
        (again ? { state: await this.provider.call(() => stripe.read(sub)), invoice: null } : null),
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

  private run(
    id: number,
    spec: ChangeSpec,
    now: Date,
    decide: (sub: ProviderSubscription) => Promise<{ steps: ChangeSteps } | { answer: Subscription }>,
  ): Promise<Subscription> {
    return this.runner.run(id, spec, decide, now);
  }

  private refuseEnded(sub: Subscription) {
    if (ENDED_STATUSES.includes(sub.status)) throw new ConflictError("This subscription has already ended");
  }
}
