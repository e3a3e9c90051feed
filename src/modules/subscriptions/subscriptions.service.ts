import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, HttpError, NotFoundError, ValidationError } from "../../http/errors.js";
import { todayIn } from "../../shared/business-time.js";
import type { MailService } from "../mail/index.js";
import { DEMO_DECLINES, digitsOnly } from "../payments/index.js";
import type { PlanType, PlansService } from "../plans/index.js";
import { cancellationTakesEffect, minimumTermEnd, period, startOfBusinessDay } from "./billing-dates.js";
import type { BillingPortal, BillingProvider, ProviderSubscription } from "./billing-provider.js";
import { BillingMailer } from "./billing-mailer.js";
import { toCustomerView } from "./customer-view.js";
import { DEMO_FAILING_CARD, DemoBilling, demoInvoiceId } from "./demo-billing.js";
import type { PlanDeliveryListener, PlanDeliverySchedule } from "./plan-delivery-listener.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import {
  type CustomerSubscriptionView,
  ENDED_STATUSES,
  type Invoice,
  type ProviderInvoiceState,
  type ProviderSubscriptionState,
  SERVING_STATUSES,
  type Subscription,
  type SubscriptionEvent,
  isKnownStatus,
} from "./subscriptions.constants.js";

/** A provider outage during a change: nothing local was changed. */
export class BillingUnavailableError extends HttpError {
  constructor() {
    super(503, "The payment provider could not be reached. Nothing was changed.");
  }
}

export interface SubscriptionsSettings {
  timeZone: string;
  publicUrl: string;
  sessionSecret: string;
  supportEmail: string;
  supportPhone: string;
}

export interface SubscriptionsDeps {
  plans: PlansService;
  mail: Pick<MailService, "enqueue" | "enqueueMany">;
  transaction: TransactionRunner;
  /** Maintenance's PlanDeliveries: each plan's services follow the subscription (plan-delivery-listener.ts). */
  planDeliveries: Pick<PlanDeliveryListener, "sync" | "forSubscription"> | null;
  /** Stripe's billing side when Stripe is configured. */
  stripe: (BillingProvider & BillingPortal) | null;
  log: Logger;
  settings: SubscriptionsSettings;
  clock?: () => Date;
}

interface ApplyContext {
  actor: string;
  now: Date;
  reason?: string | null;
  /** Local fields of a new subscription (demo card). */
  card?: { last4: string; failsRenewals: boolean };
}

const publicSubscription = ({ providerSubscriptionId: _p, providerCustomerId: _c, billingAnchor: _a, ...rest }: ProviderSubscription): Subscription => rest;

export class SubscriptionsService {
  readonly demo: DemoBilling;
  /** The billing e-mails (receipts, payment failed, cancellation, plan changed) and their signed links. */
  readonly mailer: BillingMailer;
  private readonly clock: () => Date;

  constructor(
    private readonly repo: SubscriptionsRepository,
    private readonly deps: SubscriptionsDeps,
  ) {
    this.clock = deps.clock ?? (() => new Date());
    this.demo = new DemoBilling(deps.plans);
    this.mailer = new BillingMailer(deps.mail, deps.plans, deps.settings, this.clock);
  }

  // ---------------------------------------------------------------- purchase paths

  /**
   * The demo card form confirmed a purchase (docs/decisions.md#24): a subscription that starts now, its first invoice
   * paid. 4000 0000 0000 0002 is declined before anything is written; 4000 0000 0000 0341 pays this invoice and
   * fails every renewal. A second confirmation of the same checkout returns the first subscription.
   */
  async startDemo(
    input: { checkoutRef: string; planType: PlanType; amountCents: number; payerEmail: string; payerName: string; cardNumber: string },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    const existing = await this.repo.findByCheckoutRef(input.checkoutRef);
    if (existing) return publicSubscription(existing);
    const digits = digitsOnly(input.cardNumber);
    if (DEMO_DECLINES[digits]) throw new ValidationError(DEMO_DECLINES[digits]!, { cardNumber: DEMO_DECLINES[digits]! });
    const { timeZone } = this.deps.settings;
    const anchor = todayIn(timeZone, now);
    const first = period(anchor, 0, timeZone);
    const providerSubscriptionId = `demo_sub_${randomBytes(10).toString("hex")}`;
    const state: ProviderSubscriptionState = {
      provider: "demo",
      providerSubscriptionId,
      providerCustomerId: null,
      status: "active",
      planType: input.planType,
      monthlyAmountCents: input.amountCents,
      currency: "cad",
      startedAt: now,
      currentPeriodStart: first.start,
      currentPeriodEnd: first.end,
      cancelAt: null,
      canceledAt: null,
      payerEmail: input.payerEmail,
      payerName: input.payerName,
      checkoutRef: input.checkoutRef,
    };
    return this.deps.transaction(async (tx) => {
      const sub = await this.applyProviderState(state, tx, { actor: "customer", now, card: { last4: digits.slice(-4), failsRenewals: digits === DEMO_FAILING_CARD } });
      await this.applyProviderInvoice(
        {
          provider: "demo",
          providerInvoiceId: demoInvoiceId(sub.id, first.startDate),
          providerSubscriptionId,
          amountCents: input.amountCents,
          currency: "cad",
          periodStart: first.start,
          periodEnd: first.end,
          status: "paid",
          billingReason: "subscription_create",
          paidAt: now,
          failureReason: null,
          attemptCount: 1,
        },
        tx,
      );
      await tx("payments").where({ provider: "demo", provider_id: input.checkoutRef }).update({ subscription_id: sub.id });
      return sub;
    });
  }

  /**
   * Stores what the provider says the subscription is now, then applies Haven's rules to what changed: the
   * plan (a scheduled downgrade waits for its date), the events log, the e-mails, the property's plan and its
   * plan services. Safe to repeat: a state already stored changes nothing and sends nothing.
   */
  async applyProviderState(state: ProviderSubscriptionState, tx: Tx, context: Partial<ApplyContext> = {}): Promise<Subscription> {
    const ctx: ApplyContext = { actor: context.actor ?? "stripe", now: context.now ?? this.clock(), reason: context.reason ?? null, card: context.card };
    const { timeZone } = this.deps.settings;
    if (!isKnownStatus(state.status)) this.deps.log.warn({ status: state.status, subscription: state.providerSubscriptionId }, "unknown subscription status kept as it is");
    const anchor = todayIn(timeZone, state.startedAt);
    const { before, id } = await this.repo.upsertState(
      state,
      { billingAnchor: anchor, minimumTermEndsAt: minimumTermEnd(anchor, timeZone), cardLast4: ctx.card?.last4, cardFailsRenewals: ctx.card?.failsRenewals },
      tx,
    );
    if (!before) {
      await this.repo.logEvent(id, { kind: "created", actor: ctx.actor, toPlan: state.planType, detail: { status: state.status } }, tx);
    } else {
      await this.applyPlan(before, state, ctx, tx);
      await this.logTransitions(before, state, ctx, tx);
    }
    const after = (await this.repo.find(id, tx))!;
    await this.followOnProperty(after, ctx.now, tx);
    return publicSubscription(after);
  }

  /** The plan the provider now bills, unless it is a downgrade whose date has not come (decision: downgrades at period end). */
  private async applyPlan(before: ProviderSubscription, state: ProviderSubscriptionState, ctx: ApplyContext, tx: Tx): Promise<void> {
    const scheduledAt = before.scheduledPlanAt ? new Date(before.scheduledPlanAt) : null;
    const scheduleDue = before.scheduledPlanType !== null && scheduledAt !== null && ctx.now >= scheduledAt;
    if (state.planType === before.planType) {
      if (before.scheduledPlanType && scheduleDue) await this.repo.update(before.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
      return;
    }
    const waiting = before.scheduledPlanType === state.planType && !scheduleDue;
    if (waiting) {
      // The provider already bills the lower price from the next period; Haven keeps the plan until then.
      await this.repo.update(before.id, { plan_type: before.planType, monthly_amount_cents: Math.round(before.monthlyAmount * 100) }, tx);
      return;
    }
    await this.repo.update(before.id, { plan_type: state.planType, scheduled_plan_type: null, scheduled_plan_at: null }, tx);
    const applyingSchedule = before.scheduledPlanType === state.planType;
    await this.repo.logEvent(before.id, { kind: "plan_changed", actor: applyingSchedule ? "system" : ctx.actor, fromPlan: before.planType, toPlan: state.planType }, tx);
    // A scheduled downgrade was announced when it was asked for.
    if (!applyingSchedule) {
      const after = (await this.repo.find(before.id, tx))!;
      await this.mailer.send("plan_changed", after, tx, { fromPlanName: await this.mailer.planName(before.planType), toPlanName: await this.mailer.planName(state.planType), effectiveAt: ctx.now.toISOString() });
    }
  }

  private async logTransitions(before: ProviderSubscription, state: ProviderSubscriptionState, ctx: ApplyContext, tx: Tx): Promise<void> {
    const after = (await this.repo.find(before.id, tx))!;
    const cancelBefore = before.cancelAt;
    const cancelAfter = state.cancelAt?.toISOString() ?? null;
    const endedNow = ENDED_STATUSES.includes(state.status) && !ENDED_STATUSES.includes(before.status);
    if (cancelAfter && cancelAfter !== cancelBefore && !endedNow) {
      if (ctx.reason !== undefined && ctx.reason !== null) await this.repo.update(before.id, { cancellation_reason: ctx.reason }, tx);
      await this.repo.logEvent(before.id, { kind: "cancel_scheduled", actor: ctx.actor, detail: { cancelAt: cancelAfter, reason: ctx.reason } }, tx);
      await this.mailer.send("cancel_scheduled", { ...after, cancelAt: cancelAfter }, tx, { reason: ctx.reason });
    } else if (!cancelAfter && cancelBefore && !ENDED_STATUSES.includes(state.status)) {
      await this.repo.update(before.id, { cancellation_reason: null }, tx);
      await this.repo.logEvent(before.id, { kind: "cancel_undone", actor: ctx.actor }, tx);
    }
    if (state.status === before.status) return;
    if (endedNow) {
      if (ctx.reason) await this.repo.update(before.id, { cancellation_reason: ctx.reason }, tx);
      await this.repo.logEvent(before.id, { kind: "canceled", actor: ctx.actor, detail: { status: state.status, reason: ctx.reason } }, tx);
      await this.mailer.send("canceled", after, tx, { reason: ctx.reason, effectiveAt: (state.canceledAt ?? ctx.now).toISOString() });
      return;
    }
    const kind =
      state.status === "past_due" ? "payment_failed" : state.status === "active" && before.status === "past_due" ? "payment_recovered" : state.status === "active" && before.status === "incomplete" ? "activated" : "status_changed";
    await this.repo.logEvent(before.id, { kind, actor: ctx.actor, detail: { from: before.status, to: state.status } }, tx);
    if (kind === "payment_recovered") await this.repo.update(before.id, { last_payment_error: null }, tx);
  }

  /** The property's subscriptionPlan follows the subscription, and its plan services follow the plan and status. */
  private async followOnProperty(sub: ProviderSubscription, now: Date, tx: Tx): Promise<void> {
    if (!sub.propertyId) return;
    const serving = SERVING_STATUSES.includes(sub.status);
    const ended = ENDED_STATUSES.includes(sub.status);
    if (serving || ended) {
      const plan = serving ? sub.planType : "free-score";
      await tx("properties").where({ id: sub.propertyId }).whereNot({ subscription_plan: plan }).update({ subscription_plan: plan, updated_at: tx.fn.now() });
    }
    const planDeliveries = this.deps.planDeliveries;
    if (planDeliveries) {
      await planDeliveries.sync(tx, { id: sub.id, propertyId: sub.propertyId, planType: sub.planType, status: sub.status, anchor: sub.billingAnchor }, todayIn(this.deps.settings.timeZone, now));
    }
  }

  /**
   * Stores a provider invoice (one row per provider id). The first time one is paid, a receipt goes out; each
   * failed attempt sends the payment-failed e-mail with the reason. A paid invoice never goes back.
   */
  async applyProviderInvoice(invoice: ProviderInvoiceState, tx: Tx, known?: Subscription): Promise<void> {
    // The caller that has just stored the subscription passes it (demo renewals): one query less per invoice.
    const sub = known ?? (await this.repo.findByProviderId(invoice.provider, invoice.providerSubscriptionId, tx));
    if (!sub) {
      this.deps.log.warn({ invoice: invoice.providerInvoiceId }, "invoice of an unknown subscription ignored");
      return;
    }
    const { before, attemptsBefore } = await this.repo.upsertInvoice(sub.id, invoice, tx);
    const data = { amount: invoice.amountCents / 100, periodStart: invoice.periodStart.toISOString(), periodEnd: invoice.periodEnd.toISOString() };
    if (invoice.status === "paid" && before !== "paid") {
      await this.mailer.send("receipt", sub, tx, data);
    } else if (invoice.status === "open" && invoice.failureReason && (before === null || invoice.attemptCount > attemptsBefore)) {
      await this.repo.update(sub.id, { last_payment_error: invoice.failureReason }, tx);
      await this.mailer.send("payment_failed", sub, tx, { ...data, reason: invoice.failureReason });
    }
  }

  /** Intake: the customer and property just created take over the subscription their checkout bought. */
  async attachToProperty(checkoutRef: string, ids: { customerId: number; propertyId: number }, tx: Tx, now: Date = this.clock()): Promise<Subscription | null> {
    const sub = await this.repo.findByCheckoutRef(checkoutRef, tx);
    if (!sub) return null;
    if (sub.propertyId === null) await this.repo.attach(sub.id, ids, tx);
    const after = (await this.repo.find(sub.id, tx))!;
    await this.followOnProperty(after, now, tx);
    return publicSubscription(after);
  }

  async byCheckoutRef(ref: string): Promise<Subscription | null> {
    const sub = await this.repo.findByCheckoutRef(ref);
    return sub ? publicSubscription(sub) : null;
  }

  // ---------------------------------------------------------------- reads

  async list(filter: { limit: number; offset: number; q?: string; status?: string; plan?: PlanType }): Promise<{ rows: Subscription[]; total: number }> {
    const { rows, total } = await this.repo.list(filter);
    return { rows: rows.map(publicSubscription), total };
  }

  async get(id: number): Promise<Subscription> {
    return publicSubscription(await this.load(id));
  }

  async detail(id: number): Promise<{ subscription: Subscription; invoices: Invoice[]; events: SubscriptionEvent[]; services: PlanDeliverySchedule[] }> {
    const sub = await this.load(id);
    const [invoices, events, services] = await Promise.all([this.repo.invoices(id), this.repo.events(id), this.deps.planDeliveries?.forSubscription(id) ?? Promise.resolve([])]);
    return { subscription: publicSubscription(sub), invoices, events, services };
  }

  /** The customer's view of a subscription (docs/decisions.md#25's cancellation date for `now` included). */
  async customerView(id: number, now: Date = this.clock()): Promise<CustomerSubscriptionView> {
    const sub = await this.load(id);
    return toCustomerView(sub, await this.repo.invoices(id), await this.mailer.planName(sub.planType), now);
  }

  /** The figures of /admin/subscriptions: MRR in dollars, counts, and cancellations that took effect this month (business zone). */
  async metrics(now: Date = this.clock()): Promise<{ mrr: number; active: number; pastDue: number; canceledThisMonth: number }> {
    const monthStart = startOfBusinessDay(`${todayIn(this.deps.settings.timeZone, now).slice(0, 7)}-01`, this.deps.settings.timeZone);
    const m = await this.repo.metrics(monthStart, now);
    return { mrr: m.mrrCents / 100, active: m.active, pastDue: m.pastDue, canceledThisMonth: m.canceledThisMonth };
  }

  async forProperty(propertyId: number): Promise<{ subscription: Subscription; invoices: Invoice[] } | null> {
    const sub = await this.repo.latestForProperty(propertyId);
    return sub ? { subscription: publicSubscription(sub), invoices: await this.repo.invoices(sub.id) } : null;
  }

  /** Which of these properties have a past-due subscription (the properties page's red badge), in one query. */
  pastDuePropertyIds(propertyIds: number[]): Promise<number[]> {
    return this.repo.pastDuePropertyIds(propertyIds);
  }

  pastDueCount(): Promise<number> {
    return this.repo.pastDueCount();
  }

  /** Paid invoices, in cents (Total Revenue adds the one-time payments). */
  paidInvoicesCents(): Promise<number> {
    return this.repo.paidInvoicesCents();
  }

  billingLink(id: number, now: Date = this.clock()): string {
    return this.mailer.link(id, now);
  }

  // ---------------------------------------------------------------- actions

  /**
   * docs/decisions.md#25. At period end: before the minimum term ends, the cancellation takes effect when it ends;
   * after, at the end of the paid period. `now` (staff only) ends it at once.
   */
  async cancel(id: number, input: { when: "period_end" | "now"; reason?: string | null; actor: string }, now: Date = this.clock()): Promise<Subscription> {
    const sub = await this.load(id);
    this.refuseEnded(sub);
    const provider = this.providerOf(sub);
    let state: ProviderSubscriptionState;
    if (input.when === "now") {
      state = await this.call(() => provider.cancelNow(sub, now));
    } else {
      const at = cancellationTakesEffect({ now, minimumTermEndsAt: new Date(sub.minimumTermEndsAt), currentPeriodEnd: new Date(sub.currentPeriodEnd) });
      if (sub.cancelAt && new Date(sub.cancelAt).getTime() === at.getTime()) return publicSubscription(sub);
      state = await this.call(() => provider.scheduleCancel(sub, at));
    }
    return this.deps.transaction((tx) => this.applyProviderState(state, tx, { actor: input.actor, now, reason: input.reason ?? null }));
  }

  /** Undoes a scheduled cancellation; possible until it takes effect. */
  async resume(id: number, input: { actor: string }, now: Date = this.clock()): Promise<Subscription> {
    const sub = await this.load(id);
    this.refuseEnded(sub);
    if (!sub.cancelAt) throw new ConflictError("This subscription has no cancellation to undo");
    const state = await this.call(() => this.providerOf(sub).undoCancel(sub));
    return this.deps.transaction((tx) => this.applyProviderState(state, tx, { actor: input.actor, now }));
  }

  /**
   * An upgrade applies at once with a prorated invoice; a downgrade at the end of the period. Asking for the
   * current plan while a downgrade waits takes the downgrade back.
   */
  async changePlan(id: number, input: { planType: PlanType; actor: string }, now: Date = this.clock()): Promise<Subscription> {
    const sub = await this.load(id);
    this.refuseEnded(sub);
    if (input.planType === sub.planType && !sub.scheduledPlanType) throw new ConflictError(`This subscription is already on the ${await this.mailer.planName(sub.planType)} plan`);
    if (input.planType === sub.scheduledPlanType) throw new ConflictError(`The change to ${await this.mailer.planName(input.planType)} is already scheduled`);
    const [current, target] = await Promise.all([this.deps.plans.get(sub.planType), this.deps.plans.get(input.planType)]);
    const priced = { ...target, amountCents: this.demo.amountFor(target, current, Math.round(sub.monthlyAmount * 100)) };
    const provider = this.providerOf(sub);
    if (input.planType === sub.planType) {
      // Taking back a scheduled downgrade: the current price stays.
      const { state } = await this.call(() => provider.changePlan(sub, priced, "period_end", now));
      return this.deps.transaction(async (tx) => {
        await this.repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
        await this.repo.logEvent(sub.id, { kind: "plan_change_undone", actor: input.actor, fromPlan: sub.scheduledPlanType, toPlan: sub.planType }, tx);
        return this.applyProviderState(state, tx, { actor: input.actor, now });
      });
    }
    const upgrade = target.price > current.price;
    if (upgrade) {
      const { state, invoice } = await this.call(() => provider.changePlan(sub, priced, "now", now));
      return this.deps.transaction(async (tx) => {
        await this.repo.update(sub.id, { scheduled_plan_type: null, scheduled_plan_at: null }, tx);
        const after = await this.applyProviderState(state, tx, { actor: input.actor, now });
        if (invoice) await this.applyProviderInvoice(invoice, tx);
        return after;
      });
    }
    const effectiveAt = new Date(sub.currentPeriodEnd);
    const { state } = await this.call(() => provider.changePlan(sub, priced, "period_end", now));
    return this.deps.transaction(async (tx) => {
      await this.repo.update(sub.id, { scheduled_plan_type: input.planType, scheduled_plan_at: effectiveAt }, tx);
      await this.repo.logEvent(sub.id, { kind: "plan_change_scheduled", actor: input.actor, fromPlan: sub.planType, toPlan: input.planType, detail: { effectiveAt: effectiveAt.toISOString() } }, tx);
      const after = await this.applyProviderState(state, tx, { actor: input.actor, now });
      await this.mailer.send("plan_changed", (await this.repo.find(sub.id, tx))!, tx, { fromPlanName: current.name, toPlanName: target.name, effectiveAt: effectiveAt.toISOString() });
      return after;
    });
  }

  /**
   * Stripe's billing portal for this subscription's customer: `card` opens the payment-method flow; `manage` the
   * portal's home, whose configuration offers cancellation only once the minimum term has ended (docs/decisions.md#25).
   */
  async portalUrl(id: number, input: { flow: "card" | "manage"; returnUrl: string }, now: Date = this.clock()): Promise<string> {
    const sub = await this.load(id);
    if (sub.provider !== "stripe") throw new ConflictError("This plan is not billed through Stripe: update the card on the billing page");
    const stripe = this.deps.stripe;
    if (!stripe) throw new BillingUnavailableError();
    return this.call(() => (input.flow === "card" ? stripe.cardUpdateUrl(sub, input.returnUrl) : stripe.portalUrl(sub, input.returnUrl, { canCancel: now >= new Date(sub.minimumTermEndsAt) })));
  }

  /** The provider's ids of a subscription (Stripe's customer and subscription), for its card flow. */
  async providerRef(id: number): Promise<{ providerSubscriptionId: string; providerCustomerId: string | null }> {
    const { providerSubscriptionId, providerCustomerId } = await this.load(id);
    return { providerSubscriptionId, providerCustomerId };
  }

  /** Demo mode's card form (docs/decisions.md#24): stores the card; a past-due subscription's open invoice is tried at once. */
  async updateDemoCard(id: number, input: { cardNumber: string; actor: string }, now: Date = this.clock()): Promise<Subscription> {
    const sub = await this.load(id);
    if (sub.provider !== "demo") throw new ConflictError("This subscription's card is managed by Stripe");
    this.refuseEnded(sub);
    const digits = digitsOnly(input.cardNumber);
    const decline = DEMO_DECLINES[digits];
    if (decline) throw new ValidationError(decline, { cardNumber: decline });
    return this.deps.transaction(async (tx) => {
      await this.repo.lock(id, tx);
      await this.repo.update(id, { card_last4: digits.slice(-4), card_fails_renewals: digits === DEMO_FAILING_CARD }, tx);
      await this.repo.logEvent(id, { kind: "card_updated", actor: input.actor, detail: { last4: digits.slice(-4) } }, tx);
      const open = await this.repo.openInvoice(id, tx);
      const current = (await this.repo.find(id, tx))!;
      if (open && digits !== DEMO_FAILING_CARD) {
        await this.applyProviderInvoice({ ...this.demo.invoiceState(current, open), status: "paid", paidAt: now, failureReason: null, attemptCount: 1 }, tx);
        if (current.status === "past_due") return this.applyProviderState({ ...this.demo.stateOf(current), status: "active" }, tx, { actor: input.actor, now });
      }
      return publicSubscription(current);
    });
  }

  /**
   * Demo billing (docs/decisions.md#24): every demo subscription whose period has ended by `asOf` moves on one period at a
   * time until none is due: a cancellation or a scheduled downgrade takes effect, the next period is invoiced
   * (idempotent per subscription and period: the invoice id is derived from both), a failing card leaves it
   * past due, and a subscription still past due when its next period ends is canceled (retries ran out).
   */
  async renewDue(asOf: Date, onProgress?: (done: number) => void): Promise<{ billed: number; paid: number; failed: number; ended: number; planChanges: number }> {
    return this.demo.renewDue(asOf, { repo: this.repo, service: this, transaction: this.deps.transaction, timeZone: this.deps.settings.timeZone, onProgress });
  }

  // ---------------------------------------------------------------- helpers

  private async load(id: number): Promise<ProviderSubscription> {
    const sub = await this.repo.find(id);
    if (!sub) throw new NotFoundError("Subscription not found");
    return sub;
  }

  private refuseEnded(sub: Subscription) {
    if (ENDED_STATUSES.includes(sub.status)) throw new ConflictError("This subscription has already ended");
  }

  private providerOf(sub: Subscription): BillingProvider {
    if (sub.provider === "demo") return this.demo;
    if (!this.deps.stripe) throw new BillingUnavailableError();
    return this.deps.stripe;
  }

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

