// What the provider says a subscription or invoice is now, stored and followed by Haven's rules: the plan, the
// events log, the e-mails, the property's plan and its plan services. SubscriptionsService builds it and
// delegates to it; every change (purchase, staff and customer actions, demo renewals, Stripe webhooks) ends here.
import type { Logger } from "pino";
import type { Tx } from "../../db/transaction.js";
import { NotFoundError } from "../../http/errors.js";
import { todayIn } from "../../shared/business-time.js";
import type { Notifications } from "../notifications/index.js";
import { provinceOfPostalCode } from "../tax/index.js";
import { minimumTermEnd } from "./billing-dates.js";
import { type BillingMailer, mailInvoice } from "./billing-mailer.js";
import type { ProviderSubscription } from "./billing-provider.js";
import { RUNNING_STATUSES, disputeHolds } from "./disputes.repository.js";
import type { PlanDeliveryListener } from "./plan-delivery-listener.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import {
  ENDED_STATUSES,
  type ProviderInvoiceState,
  type ProviderSubscriptionState,
  SERVING_STATUSES,
  type Subscription,
  isKnownStatus,
} from "./subscriptions.constants.js";

/** The failure reason of a payment waiting for the customer's bank (3-D Secure), as stripe-billing.ts reads it. */
export const ACTION_REQUIRED_REASON = "Your bank asks you to confirm this payment.";

export interface ApplyContext {
  actor: string;
  now: Date;
  reason?: string | null;
  /** Local fields of a new subscription (demo card). */
  card?: { last4: string; failsRenewals: boolean };
}

export interface ProviderStateDeps {
  repo: SubscriptionsRepository;
  mailer: Pick<BillingMailer, "send" | "planName">;
  planDeliveries: Pick<PlanDeliveryListener, "sync"> | null;
  log: Logger;
  timeZone: string;
  clock: () => Date;
  /** The staff bell (src/modules/notifications/README.md): payment failed, cancellation scheduled and undone. */
  notifications?: Pick<Notifications, "raise"> | null;
}

const whoPays = (sub: Subscription) => sub.customerName ?? sub.customerEmail ?? `Subscription #${sub.id}`;

/** A subscription without the provider's ids and the billing anchor, as callers outside the module see it. */
export const publicSubscription = ({
  providerSubscriptionId: _p,
  providerCustomerId: _c,
  billingAnchor: _a,
  priceList: _l,
  cardFailsRenewals: _f,
  lastPaymentErrorCode: _e,
  ...rest
}: ProviderSubscription): Subscription => rest;

export async function loadSubscription(
  repo: Pick<SubscriptionsRepository, "find">,
  id: number,
): Promise<ProviderSubscription> {
  const sub = await repo.find(id);
  if (!sub) throw new NotFoundError("Subscription not found");
  return sub;
}

export class ProviderState {
  constructor(private readonly deps: ProviderStateDeps) {}

  /**
   * Stores what the provider says the subscription is now, then applies Haven's rules to what changed: the
   * plan (a scheduled downgrade waits for its date), the events log, the e-mails, the property's plan and its
   * plan services. Safe to repeat: a state already stored changes nothing and sends nothing.
   */
  async applyProviderState(
    read: ProviderSubscriptionState,
    tx: Tx,
    context: Partial<ApplyContext> = {},
  ): Promise<Subscription> {
    const { repo, log, timeZone, clock } = this.deps;
    // A dispute holding the plan keeps it past due whatever Stripe reads (docs/decisions.md#53): its services stay
    // held until the dispute is won or its funds reinstated (disputes.ts).
    const held =
      read.provider === "stripe" &&
      RUNNING_STATUSES.includes(read.status) &&
      (await disputeHolds(tx, read.provider, read.providerSubscriptionId));
    const state: ProviderSubscriptionState = held ? { ...read, status: "past_due" } : read;
    const ctx: ApplyContext = {
      actor: context.actor ?? "stripe",
      now: context.now ?? clock(),
      reason: context.reason ?? null,
      card: context.card,
    };
    if (!isKnownStatus(state.status))
      log.warn(
        { status: state.status, subscription: state.providerSubscriptionId },
        "unknown subscription status kept as it is",
      );
    const anchor = todayIn(timeZone, state.startedAt);
    const { before, id } = await repo.upsertState(
      state,
      {
        billingAnchor: anchor,
        // The end of the provider's own third period (Stripe's in UTC from its anchor; the demo's in business time).
        minimumTermEndsAt: state.minimumTermEndsAt ?? minimumTermEnd(anchor, timeZone),
        taxProvince: state.postalCode ? provinceOfPostalCode(state.postalCode) : null,
        cardLast4: ctx.card?.last4,
        cardFailsRenewals: ctx.card?.failsRenewals,
      },
      tx,
    );
    if (!before) {
      await repo.logEvent(
        id,
        { kind: "created", actor: ctx.actor, toPlan: state.planType, detail: { status: state.status } },
        tx,
      );
    } else {
      await this.applyPlan(before, state, ctx, tx);
      await this.logTransitions(before, state, ctx, tx);
    }
    const after = (await repo.find(id, tx))!;
    await this.followOnProperty(after, ctx.now, tx);
    return publicSubscription(after);
  }

  /** The plan the provider now bills, unless it is a downgrade whose date has not come (decision: downgrades at period end). */
  private async applyPlan(
    before: ProviderSubscription,
    state: ProviderSubscriptionState,
    ctx: ApplyContext,
    tx: Tx,
  ): Promise<void> {
    const { repo, mailer } = this.deps;
    const scheduledAt = before.scheduledPlanAt ? new Date(before.scheduledPlanAt) : null;
    const scheduleDue = before.scheduledPlanType !== null && scheduledAt !== null && ctx.now >= scheduledAt;
    if (state.planType === before.planType) {
      if (before.scheduledPlanType && scheduleDue)
        await repo.update(before.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
      return;
    }
    const waiting = before.scheduledPlanType === state.planType && !scheduleDue;
    if (waiting) {
      // The provider already bills the lower price from the next period; Haven keeps the plan until then.
      await repo.update(
        before.id,
        { plan_type: before.planType, monthly_amount_cents: Math.round(before.monthlyAmount * 100) },
        tx,
      );
      return;
    }
    await repo.update(before.id, { plan_type: state.planType, scheduled_plan_type: null, scheduled_plan_at: null }, tx);
    const applyingSchedule = before.scheduledPlanType === state.planType;
    await repo.logEvent(
      before.id,
      {
        kind: "plan_changed",
        actor: applyingSchedule ? "system" : ctx.actor,
        fromPlan: before.planType,
        toPlan: state.planType,
      },
      tx,
    );
    // A scheduled downgrade was announced when it was asked for.
    if (!applyingSchedule) {
      const after = (await repo.find(before.id, tx))!;
      await mailer.send("plan_changed", after, tx, {
        fromPlanName: await mailer.planName(before.planType),
        toPlanName: await mailer.planName(state.planType),
        effectiveAt: ctx.now.toISOString(),
      });
    }
  }

  private async logTransitions(
    before: ProviderSubscription,
    state: ProviderSubscriptionState,
    ctx: ApplyContext,
    tx: Tx,
  ): Promise<void> {
    const { repo, mailer } = this.deps;
    const after = (await repo.find(before.id, tx))!;
    const cancelBefore = before.cancelAt;
    const cancelAfter = state.cancelAt?.toISOString() ?? null;
    const endedNow = ENDED_STATUSES.includes(state.status) && !ENDED_STATUSES.includes(before.status);
    if (cancelAfter && cancelAfter !== cancelBefore && !endedNow) {
      if (ctx.reason !== undefined && ctx.reason !== null)
        await repo.update(before.id, { cancellation_reason: ctx.reason }, tx);
      await repo.logEvent(
        before.id,
        { kind: "cancel_scheduled", actor: ctx.actor, detail: { cancelAt: cancelAfter, reason: ctx.reason } },
        tx,
      );
      await mailer.send("cancel_scheduled", { ...after, cancelAt: cancelAfter }, tx, { reason: ctx.reason });
      await this.deps.notifications?.raise(tx, {
        kind: "cancel-scheduled",
        recordType: "subscription",
        recordId: before.id,
        link: `/admin/subscriptions/${before.id}`,
        text: `${whoPays(after)}'s plan is set to end on ${cancelAfter.slice(0, 10)}`,
      });
    } else if (!cancelAfter && cancelBefore && !ENDED_STATUSES.includes(state.status)) {
      await repo.update(before.id, { cancellation_reason: null }, tx);
      await repo.logEvent(before.id, { kind: "cancel_undone", actor: ctx.actor }, tx);
      await mailer.send("cancel_undone", after, tx, { amount: after.monthlyAmount });
      await this.deps.notifications?.raise(tx, {
        kind: "cancel-undone",
        recordType: "subscription",
        recordId: before.id,
        link: `/admin/subscriptions/${before.id}`,
        text: `${whoPays(after)}'s cancellation was undone: the plan continues`,
      });
    }
    if (state.status === before.status) return;
    if (endedNow) {
      if (ctx.reason) await repo.update(before.id, { cancellation_reason: ctx.reason }, tx);
      await repo.logEvent(
        before.id,
        { kind: "canceled", actor: ctx.actor, detail: { status: state.status, reason: ctx.reason } },
        tx,
      );
      await mailer.send("canceled", after, tx, {
        reason: ctx.reason,
        effectiveAt: (state.canceledAt ?? ctx.now).toISOString(),
        unpaid: state.status === "unpaid",
      });
      return;
    }
    const kind =
      state.status === "past_due"
        ? "payment_failed"
        : state.status === "active" && (before.status === "past_due" || before.status === "unpaid")
          ? "payment_recovered"
          : state.status === "active" && before.status === "incomplete"
            ? "activated"
            : "status_changed";
    await repo.logEvent(before.id, { kind, actor: ctx.actor, detail: { from: before.status, to: state.status } }, tx);
    if (kind === "payment_recovered")
      await repo.update(before.id, { last_payment_error: null, last_payment_error_code: null }, tx);
  }

  /** The property's subscriptionPlan follows the subscription, and its plan services follow the plan and status. */
  async followOnProperty(sub: ProviderSubscription, now: Date, tx: Tx): Promise<void> {
    if (!sub.propertyId) return;
    const serving = SERVING_STATUSES.includes(sub.status);
    const ended = ENDED_STATUSES.includes(sub.status);
    if (serving || ended) {
      const plan = serving ? sub.planType : "free-score";
      await tx("properties")
        .where({ id: sub.propertyId })
        .whereNot({ subscription_plan: plan })
        .update({ subscription_plan: plan, updated_at: tx.fn.now() });
    }
    const planDeliveries = this.deps.planDeliveries;
    if (planDeliveries) {
      await planDeliveries.sync(
        tx,
        {
          id: sub.id,
          propertyId: sub.propertyId,
          planType: sub.planType,
          status: sub.status,
          anchor: sub.billingAnchor,
        },
        todayIn(this.deps.timeZone, now),
      );
    }
  }

  /**
   * Stores a provider invoice (one row per provider id). The first time one is paid, a receipt goes out; each
   * failed attempt sends the payment-failed e-mail with the reason. A paid invoice never goes back.
   */
  async applyProviderInvoice(invoice: ProviderInvoiceState, tx: Tx, known?: Subscription): Promise<void> {
    const { repo, mailer, log } = this.deps;
    // A declined upgrade's invoice (a pending update, docs/decisions.md#49): the plan did not change and the customer
    // was told at once; Stripe voids it when the update expires. Stored once paid, as the upgrade then applies.
    if (invoice.billingReason === "subscription_update" && invoice.status !== "paid") return;
    // The caller that has just stored the subscription passes it (demo renewals): one query less per invoice.
    const sub = known ?? (await repo.findByProviderId(invoice.provider, invoice.providerSubscriptionId, tx));
    if (!sub) {
      log.warn({ invoice: invoice.providerInvoiceId }, "invoice of an unknown subscription ignored");
      return;
    }
    const { before, attemptsBefore, id } = await repo.upsertInvoice(sub.id, invoice, tx);
    const data = {
      amount: invoice.amountCents / 100,
      periodStart: invoice.periodStart.toISOString(),
      periodEnd: invoice.periodEnd.toISOString(),
    };
    if (invoice.status === "paid" && before !== "paid") {
      // The receipt names the invoice as stored: its number, each tax and its PDF (docs/decisions.md#33).
      const stored = await repo.invoiceRows.find(id, tx);
      await mailer.send("receipt", sub, tx, { ...data, invoice: stored ? mailInvoice(stored) : undefined });
    } else if (
      invoice.status === "open" &&
      invoice.failureReason &&
      (before === null || invoice.attemptCount > attemptsBefore)
    ) {
      await this.followFailedPayment(invoice, sub, tx);
    }
  }

  /**
   * A failed attempt to pay an invoice, told: its reason kept on the subscription, the staff bell, and the
   * payment-failed e-mail (or, when the bank asks to confirm it, nothing here: the caller sends that e-mail). A demo
   * renewal batch calls it for the invoices it inserts itself (renewals.ts).
   */
  async followFailedPayment(invoice: ProviderInvoiceState, sub: Subscription, tx: Tx): Promise<void> {
    const { repo, mailer } = this.deps;
    if (!invoice.failureReason) return;
    const data = {
      amount: invoice.amountCents / 100,
      periodStart: invoice.periodStart.toISOString(),
      periodEnd: invoice.periodEnd.toISOString(),
    };
    await repo.update(
      sub.id,
      { last_payment_error: invoice.failureReason, last_payment_error_code: invoice.failureCode ?? null },
      tx,
    );
    await this.deps.notifications?.raise(tx, {
      kind: "payment-failed",
      recordType: "subscription",
      recordId: sub.id,
      link: `/admin/subscriptions/${sub.id}`,
      text: `${whoPays(sub)}'s payment of $${(invoice.amountCents / 100).toFixed(2)} failed: ${invoice.failureReason}`,
    });
    // A payment the bank wants confirmed (3-D Secure) gets its own e-mail, with the page to confirm it (webhooks.ts).
    if (invoice.failureReason !== ACTION_REQUIRED_REASON)
      await mailer.send("payment_failed", sub, tx, {
        ...data,
        reason: invoice.failureReason,
        reasonCode: invoice.failureCode ?? null,
        // Unpaid, a renewal's plan ends when the period this invoice bills ends (demo billing; Stripe set as
        // docs/operations.md says), or at a cancellation before that. A first payment has no plan to end yet.
        endsAt:
          invoice.billingReason === "subscription_create"
            ? null
            : sub.cancelAt && new Date(sub.cancelAt) < invoice.periodEnd
              ? sub.cancelAt
              : invoice.periodEnd.toISOString(),
      });
  }
}
