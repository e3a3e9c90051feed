import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ValidationError } from "../../http/errors.js";
import { todayIn } from "../../shared/business-time.js";
import type { Notifications } from "../notifications/index.js";
import type { AuditLog } from "../audit/index.js";
import type { MailService } from "../mail/index.js";
import { DEMO_DECLINES, digitsOnly } from "../payments/index.js";
import type { PlanType, PlansService } from "../plans/index.js";
import { period, startOfBusinessDay } from "./billing-dates.js";
import type { BillingPortal, BillingProvider } from "./billing-provider.js";
import { BillingMailer } from "./billing-mailer.js";
import { toCustomerView } from "./customer-view.js";
import { DEMO_FAILING_CARD, DemoBilling, demoInvoiceId } from "./demo-billing.js";
import type { Totals } from "./renewals.js";
import type { PlanDeliveryListener, PlanDeliverySchedule } from "./plan-delivery-listener.js";
import { type ApplyContext, ProviderState, loadSubscription, publicSubscription } from "./provider-state.js";
import { ChangesRepository } from "./changes.repository.js";
import { queueHomeTax } from "./home-tax.tasks.js";
import { PaymentRecovery } from "./payment-recovery.js";
import { SubscriptionAmounts } from "./subscription-amounts.js";
import { SubscriptionActions } from "./subscription-actions.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type {
  BusinessIdentity,
  CustomerSubscriptionView,
  Invoice,
  ProviderInvoiceState,
  ProviderSubscriptionState,
  Subscription,
  SubscriptionEvent,
} from "./subscriptions.constants.js";

export interface SubscriptionsSettings {
  timeZone: string;
  publicUrl: string;
  sessionSecret: string;
  supportEmail: string;
  supportPhone: string;
  /** The business's GST/HST number on receipts (docs/decisions.md#33). */
  business?: BusinessIdentity;
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
  /** The audit trail of staff and CLI changes (subscription-actions.ts, docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  /** The staff bell (src/modules/notifications/README.md; provider-state.ts). */
  notifications?: Pick<Notifications, "raise"> | null;
  clock?: () => Date;
}

/**
 * The subscriptions module's one entry for other modules, the CLI and the routes. Applying a provider's state is
 * ProviderState's (provider-state.ts), cancel/resume/plan and card changes SubscriptionActions'
 * (subscription-actions.ts); this class builds both and delegates, and keeps the purchase paths and the reads.
 */
export class SubscriptionsService {
  readonly demo: DemoBilling;
  /** The billing e-mails (receipts, payment failed, cancellation, plan changed) and their signed links. */
  readonly mailer: BillingMailer;
  private readonly clock: () => Date;
  private readonly state: ProviderState;
  private readonly actions: SubscriptionActions;
  /** Staff's retry of a failed payment and the card-update link (payment-recovery.ts, docs/decisions.md#62). */
  readonly recovery: PaymentRecovery;
  /** What its charges come to, tax included (subscription-amounts.ts, docs/decisions.md#63). */
  readonly amounts: SubscriptionAmounts;

  constructor(
    private readonly repo: SubscriptionsRepository,
    private readonly deps: SubscriptionsDeps,
  ) {
    this.clock = deps.clock ?? (() => new Date());
    this.demo = new DemoBilling(deps.plans);
    this.mailer = new BillingMailer(deps.mail, deps.settings, this.clock);
    this.state = new ProviderState({
      repo,
      mailer: this.mailer,
      planDeliveries: deps.planDeliveries,
      log: deps.log,
      timeZone: deps.settings.timeZone,
      clock: this.clock,
      notifications: deps.notifications,
    });
    const shared = { repo, changes: new ChangesRepository(), state: this.state, mailer: this.mailer, demo: this.demo };
    const { stripe, transaction, log, audit, plans } = deps;
    this.actions = new SubscriptionActions({ ...shared, plans, stripe, transaction, log, audit });
    this.recovery = new PaymentRecovery({ ...shared, stripe, transaction, log, audit });
    const { timeZone } = deps.settings;
    this.amounts = new SubscriptionAmounts({ ...shared, plans, stripe, timeZone, clock: this.clock });
  }

  /** A customer's language and their plans' Stripe customers (the customers:locale-changed job). */
  stripeCustomersOf(customerId: number): Promise<{ ids: string[]; locale: string | null }> {
    return this.repo.stripeCustomersOf(customerId);
  }

  // ---------------------------------------------------------------- purchase paths

  /**
   * The demo card form confirmed a purchase (docs/decisions.md#24): a subscription that starts now, its first invoice
   * paid. 4000 0000 0000 0002 is declined before anything is written; 4000 0000 0000 0341 pays this invoice and
   * fails every renewal. A second confirmation of the same checkout returns the first subscription.
   */
  async startDemo(
    input: {
      checkoutRef: string;
      planType: PlanType;
      amountCents: number;
      payerEmail: string;
      payerName: string;
      cardNumber: string;
      /** Which journey sold it (docs/decisions.md#23), and the home's postal code (its tax, docs/decisions.md#32). */
      priceList?: "pricing" | "checkout";
      postalCode?: string | null;
    },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    const existing = await this.repo.findByCheckoutRef(input.checkoutRef);
    if (existing) return publicSubscription(existing);
    const digits = digitsOnly(input.cardNumber);
    if (DEMO_DECLINES[digits])
      throw new ValidationError(DEMO_DECLINES[digits]!, { cardNumber: DEMO_DECLINES[digits]! });
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
      // A caller that does not say (an older payments side) sold it at the list whose price it charged.
      priceList:
        input.priceList ??
        (input.amountCents === (await this.deps.plans.get(input.planType)).checkoutPrice * 100
          ? "checkout"
          : "pricing"),
      postalCode: input.postalCode ?? null,
    };
    return this.deps.transaction(async (tx) => {
      const sub = await this.applyProviderState(state, tx, {
        actor: "customer",
        now,
        card: { last4: digits.slice(-4), failsRenewals: digits === DEMO_FAILING_CARD },
      });
      // Before the invoice: its number locks the year's counter until commit, which every purchase waits for, so
      // nothing that can go first waits under it (docs/decisions.md#84).
      await tx("payments")
        .where({ provider: "demo", provider_id: input.checkoutRef })
        .update({ subscription_id: sub.id });
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
      return sub;
    });
  }

  /**
   * Stores what the provider says the subscription is now, then applies Haven's rules to what changed
   * (provider-state.ts). Safe to repeat: a state already stored changes nothing and sends nothing.
   */
  applyProviderState(
    state: ProviderSubscriptionState,
    tx: Tx,
    context: Partial<ApplyContext> = {},
  ): Promise<Subscription> {
    return this.state.applyProviderState(state, tx, context);
  }

  /** Stores a provider invoice; a receipt the first time it is paid, the payment-failed e-mail on each failed attempt. */
  applyProviderInvoice(invoice: ProviderInvoiceState, tx: Tx, known?: Subscription): Promise<void> {
    return this.state.applyProviderInvoice(invoice, tx, known);
  }

  /** The property's plan and services follow a status Haven set itself: a dispute's hold (docs/decisions.md#53). */
  async followOnProperty(id: number, tx: Tx, now: Date = this.clock()): Promise<void> {
    const sub = await this.repo.find(id, tx);
    if (sub) await this.state.followOnProperty(sub, now, tx);
  }

  /** Intake: the customer and property just created take over the subscription their checkout bought. */
  async attachToProperty(
    checkoutRef: string,
    ids: { customerId: number; propertyId: number },
    tx: Tx,
    now: Date = this.clock(),
  ): Promise<Subscription | null> {
    const sub = await this.repo.findByCheckoutRef(checkoutRef, tx);
    if (!sub) return null;
    if (sub.propertyId === null) {
      await this.repo.attach(sub.id, ids, tx);
      // The home now entered decides the tax: from the next invoice, and the first one's difference settled (#57).
      await queueHomeTax(tx, sub.id, true);
    }
    const after = (await this.repo.find(sub.id, tx))!;
    await this.state.followOnProperty(after, now, tx);
    return publicSubscription(after);
  }

  async byCheckoutRef(ref: string): Promise<Subscription | null> {
    const sub = await this.repo.findByCheckoutRef(ref);
    return sub ? publicSubscription(sub) : null;
  }

  // ---------------------------------------------------------------- reads

  async list(filter: {
    limit: number;
    offset: number;
    q?: string;
    status?: string;
    plan?: PlanType;
  }): Promise<{ rows: Subscription[]; total: number; capped: boolean }> {
    const { rows, total, capped } = await this.repo.list(filter);
    return { rows: rows.map(publicSubscription), total, capped };
  }

  async get(id: number): Promise<Subscription> {
    return publicSubscription(await this.load(id));
  }

  async detail(id: number): Promise<{
    subscription: Subscription;
    /** The price list it was sold from: the staff page prices a plan change from it (docs/decisions.md#23). */
    priceList: "pricing" | "checkout";
    invoices: Invoice[];
    events: SubscriptionEvent[];
    services: PlanDeliverySchedule[];
  }> {
    const sub = await this.load(id);
    const [invoices, events, services] = await Promise.all([
      this.repo.invoices(id),
      this.repo.events(id),
      this.deps.planDeliveries?.forSubscription(id) ?? Promise.resolve([]),
    ]);
    return { subscription: publicSubscription(sub), priceList: sub.priceList, invoices, events, services };
  }

  /** The customer's view of a subscription (docs/decisions.md#25's cancellation date for `now` included). */
  async customerView(id: number, now: Date = this.clock()): Promise<CustomerSubscriptionView> {
    const sub = await this.load(id);
    return toCustomerView(sub, await this.repo.invoices(id), await this.mailer.planName(sub.planType), now);
  }

  /** The figures of /admin/subscriptions: MRR in dollars, counts, and cancellations that took effect this month (business zone). */
  async metrics(
    now: Date = this.clock(),
  ): Promise<{ mrr: number; active: number; pastDue: number; canceledThisMonth: number }> {
    const monthStart = startOfBusinessDay(
      `${todayIn(this.deps.settings.timeZone, now).slice(0, 7)}-01`,
      this.deps.settings.timeZone,
    );
    const m = await this.repo.figures.metrics(monthStart, now);
    return { mrr: m.mrrCents / 100, active: m.active, pastDue: m.pastDue, canceledThisMonth: m.canceledThisMonth };
  }

  async forProperty(propertyId: number): Promise<{ subscription: Subscription; invoices: Invoice[] } | null> {
    const sub = await this.repo.latestForProperty(propertyId);
    return sub ? { subscription: publicSubscription(sub), invoices: await this.repo.invoices(sub.id) } : null;
  }

  /** Which of these properties have a past-due subscription (the properties page's red badge), in one query. */
  pastDuePropertyIds(propertyIds: number[]): Promise<number[]> {
    return this.repo.figures.pastDuePropertyIds(propertyIds);
  }

  pastDueCount(): Promise<number> {
    return this.repo.figures.pastDueCount();
  }

  /** Paid invoices, in cents (Total Revenue adds the one-time payments). */
  paidInvoicesCents(): Promise<number> {
    return this.repo.figures.paidInvoicesCents();
  }

  billingLink(id: number, now: Date = this.clock()): string {
    return this.mailer.link(id, now);
  }

  // ---------------------------------------------------------------- actions (subscription-actions.ts)

  /** docs/decisions.md#25: at period end (never before the minimum term ends), or `now` (staff only). */
  cancel(
    id: number,
    input: { when: "period_end" | "now"; reason?: string | null; actor: string; requestKey?: string | null },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    return this.actions.cancel(id, input, now);
  }

  /** Undoes a scheduled cancellation; possible until it takes effect. */
  resume(
    id: number,
    input: { actor: string; requestKey?: string | null },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    return this.actions.resume(id, input, now);
  }

  /** An upgrade at once, prorated; a downgrade at the end of the period; the current plan takes a waiting downgrade back. */
  changePlan(
    id: number,
    input: { planType: PlanType; actor: string; requestKey?: string | null; prorationDate?: Date | null },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    return this.actions.changePlan(id, input, now);
  }

  /** The `subscriptions:finish-change` job: a change the provider did not answer, settled (change-runner.ts). */
  finishChange(changeId: number, now: Date = this.clock()): Promise<void> {
    return this.actions.finishChange(changeId, now);
  }

  /** Stripe's billing portal for this subscription's customer: the card flow, or its home (`manage`). */
  portalUrl(
    id: number,
    input: { flow: "card" | "manage"; returnUrl: string },
    now: Date = this.clock(),
  ): Promise<string> {
    return this.actions.portalUrl(id, input, now);
  }

  /** Back from Stripe's card flow (every page that offers it): the new card is adopted and pays an open invoice. */
  afterStripeCard(id: number, input: { actor: string }, now: Date = this.clock()): Promise<Subscription> {
    return this.actions.afterStripeCard(id, input, now);
  }

  /** The provider's ids of a subscription (Stripe's customer and subscription), for its card flow. */
  async providerRef(id: number): Promise<{ providerSubscriptionId: string; providerCustomerId: string | null }> {
    const { providerSubscriptionId, providerCustomerId } = await this.load(id);
    return { providerSubscriptionId, providerCustomerId };
  }

  /** Demo mode's card form (docs/decisions.md#24): stores the card; a past-due subscription's open invoice is tried at once. */
  updateDemoCard(
    id: number,
    input: { cardNumber: string; actor: string; requestKey?: string | null },
    now: Date = this.clock(),
  ): Promise<Subscription> {
    return this.actions.updateDemoCard(id, input, now);
  }

  /**
   * Demo billing (docs/decisions.md#24): every demo subscription whose period has ended by `asOf` moves on one period at a
   * time until none is due: a cancellation or a scheduled downgrade takes effect, the next period is invoiced
   * (idempotent per subscription and period: the invoice id is derived from both), a failing card leaves it
   * past due, and a subscription still past due when its next period ends is canceled (retries ran out).
   */
  async renewDue(asOf: Date, onProgress?: (done: number) => void): Promise<Totals> {
    return this.demo.renewDue(asOf, {
      repo: this.repo,
      service: this,
      failures: this.state,
      transaction: this.deps.transaction,
      timeZone: this.deps.settings.timeZone,
      onProgress,
    });
  }

  private load(id: number) {
    return loadSubscription(this.repo, id);
  }
}
