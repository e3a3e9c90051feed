// My Home's Plan page: the homeowner's subscriptions (one per home with a plan), their invoices
// and receipts, and the changes the subscriptions issue lets a customer make: change plan, cancel at period end
// or undo it, update the card. Every action is SubscriptionsService's own, with actor 'customer'; this class
// only decides what is the homeowner's (HomeAccess: the subscription's property is theirs) and states the dates.
import type { Logger } from "pino";
import { ConflictError, HttpError, NotFoundError } from "../../http/errors.js";
import type { Plan, PlanType } from "../plans/plans.schemas.js";
import {
  type CustomerSubscriptionView,
  ENDED_STATUSES,
  type Subscription,
} from "../subscriptions/subscriptions.constants.js";
import type { PlansService } from "../plans/index.js";
import {
  BillingUnavailableError,
  type StripeWebhooks,
  type SubscriptionsService,
  chargeWords,
} from "../subscriptions/index.js";
import type { HomeAccess } from "./home-access.js";
import type { RecordsRepository } from "./records.repository.js";

const ACTOR = "customer";

/** A subscription as the homeowner sees it (the billing page's view), with the next charge and the plans it can change to. */
export type HomePlan = CustomerSubscriptionView & {
  /**
   * The next charge: its date, its amount before tax, and said whole with the home's tax (docs/decisions.md#63:
   * "$418.10 CAD ($370.00 + HST $48.10)"); null when the plan ends first or has ended.
   */
  nextCharge: { at: string; amount: number; words: string } | null;
  /** The monthly price said whole with the home's tax, from the next charge on (docs/decisions.md#63). */
  monthlyWords: string;
  /** The other plans, each with when a change to it would apply. */
  changes: PlanChange[];
};

export interface PlanChange {
  planType: PlanType;
  planName: string;
  price: number;
  direction: "upgrade" | "downgrade";
  /** An upgrade applies now (with a prorated charge for the rest of the period); a downgrade at the period's end. */
  appliesAt: string;
  /** Its monthly price said whole with the home's tax (docs/decisions.md#63). */
  words: string;
}

/** What the Plan page uses: SubscriptionsService does every change; the rest says what is the homeowner's. */
export interface HomePlanPageDeps {
  subscriptions: Pick<
    SubscriptionsService,
    | "forProperty"
    | "get"
    | "cancel"
    | "resume"
    | "changePlan"
    | "updateDemoCard"
    | "portalUrl"
    | "providerRef"
    | "customerView"
    | "demo"
    | "amounts"
  >;
  homeAccess: Pick<HomeAccess, "propertyIds" | "ownsProperty">;
  plans: Pick<PlansService, "list">;
  /** Stripe mode: adopting the card chosen in Stripe's portal. Null in demo mode. */
  stripe: { webhooks: Pick<StripeWebhooks, "afterCardUpdate"> } | null;
  /** My Home's read model: an invoice's subscription, for the receipt page. */
  readModel: Pick<RecordsRepository, "invoiceSubscriptionId">;
  /** An invoice's PDF (subscriptions' InvoicesService.pdf, docs/decisions.md#33); container.ts fills it. */
  invoicePdf: (invoiceId: number) => Promise<{ filename: string; body: Buffer }>;
  /** Who bills, as the receipt page names it (env's business settings). */
  business?: { legalName: string; gstHstNumber: string | null; qstNumber?: string | null };
  log: Logger;
}

/** My Home's Plan page (named apart from PlansService, the plan catalogue, and PlanDeliveries, a plan's visits). */
export class HomePlanPage {
  constructor(private readonly deps: HomePlanPageDeps) {}

  /** The business and its GST/HST number, for the receipt page (docs/decisions.md#33). */
  get business() {
    return this.deps.business ?? null;
  }

  private get subscriptions() {
    return this.deps.subscriptions;
  }

  /** One entry per home of the homeowner that has (or had) a subscription: its latest one. */
  async plans(email: string, now: Date = new Date()): Promise<HomePlan[]> {
    const out: HomePlan[] = [];
    for (const propertyId of await this.deps.homeAccess.propertyIds(email)) {
      const found = await this.subscriptions.forProperty(propertyId);
      if (found) out.push(await this.present(found.subscription.id, now));
    }
    return out;
  }

  /** The homeowner's subscription, or 404. */
  async own(email: string, id: number): Promise<Subscription> {
    let sub: Subscription;
    try {
      sub = await this.subscriptions.get(id);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError("Subscription not found");
      throw error;
    }
    if (!sub.propertyId || !(await this.deps.homeAccess.ownsProperty(email, sub.propertyId)))
      throw new NotFoundError("Subscription not found");
    return sub;
  }

  async plan(email: string, id: number, now: Date = new Date()): Promise<HomePlan> {
    await this.own(email, id);
    return this.present(id, now);
  }

  async cancel(email: string, id: number, reason: string | null, now: Date = new Date()): Promise<HomePlan> {
    await this.own(email, id);
    await this.subscriptions.cancel(id, { when: "period_end", reason, actor: ACTOR }, now);
    return this.plan(email, id, now);
  }

  async resume(email: string, id: number, now: Date = new Date()): Promise<HomePlan> {
    await this.own(email, id);
    await this.subscriptions.resume(id, { actor: ACTOR }, now);
    return this.plan(email, id, now);
  }

  /** `prorationDate`: the instant the upgrade's charge was shown at (preview), so it is the charge made. */
  async changePlan(
    email: string,
    id: number,
    planType: PlanType,
    now: Date = new Date(),
    prorationDate: Date | null = null,
  ): Promise<HomePlan> {
    await this.own(email, id);
    await this.subscriptions.changePlan(id, { planType, actor: ACTOR, prorationDate }, now);
    return this.plan(email, id, now);
  }

  /**
   * What a plan change asks for, tax included, before she confirms it (docs/decisions.md#63): an upgrade's prorated
   * charge today (null for a downgrade), and the new monthly charge from when it applies.
   */
  async changeCharges(email: string, id: number, change: PlanChange, now: Date = new Date()) {
    const sub = await this.own(email, id);
    const preview =
      change.direction === "upgrade" ? await this.subscriptions.amounts.previewUpgrade(id, change.planType, now) : null;
    const from = change.direction === "upgrade" ? sub.currentPeriodEnd : change.appliesAt;
    const monthly = await this.subscriptions.amounts.chargeWithTax(id, Math.round(change.price * 100), from);
    return {
      today: preview ? { ...preview, words: chargeWords(preview) } : null,
      monthly: chargeWords(monthly),
    };
  }

  async updateDemoCard(email: string, id: number, cardNumber: string, now: Date = new Date()): Promise<HomePlan> {
    await this.own(email, id);
    await this.subscriptions.updateDemoCard(id, { cardNumber, actor: ACTOR }, now);
    return this.plan(email, id, now);
  }

  /**
   * Stripe's billing portal at its card flow (StripeBilling.cardUpdateUrl), coming back to `returnUrl`, where
   * `afterCardUpdate` adopts the new card. 409 for a demo or ended subscription; 503 when Stripe is not configured
   * or cannot be reached (nothing changed).
   */
  async cardPortalUrl(email: string, id: number, returnUrl: string): Promise<string> {
    const sub = await this.own(email, id);
    if (sub.provider !== "stripe")
      throw new ConflictError("This plan is not billed through Stripe: update the card with the card form");
    if (ENDED_STATUSES.includes(sub.status)) throw new ConflictError("This subscription has already ended");
    return this.subscriptions.portalUrl(id, { flow: "card", returnUrl });
  }

  /** Back from Stripe's card flow: the customer's new default card becomes the subscription's (and pays an open invoice). */
  async afterCardUpdate(email: string, id: number): Promise<void> {
    const sub = await this.own(email, id);
    const stripe = this.deps.stripe;
    if (sub.provider !== "stripe" || !stripe) return;
    const { providerSubscriptionId } = await this.subscriptions.providerRef(id);
    await this.provider(() => stripe.webhooks.afterCardUpdate({ providerSubscriptionId }));
  }

  /** A Stripe call: a refusal Haven made stays as it is; anything else is the provider's outage (503, nothing changed). */
  private async provider<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.deps.log.warn({ err: error }, "Stripe card flow failed");
      throw new BillingUnavailableError();
    }
  }

  /** An invoice of the homeowner's, with its subscription (the receipt page). */
  async receipt(
    email: string,
    invoiceId: number,
    now: Date = new Date(),
  ): Promise<{ plan: HomePlan; invoice: HomePlan["invoices"][number]; billedTo: string | null }> {
    const subscriptionId = await this.deps.readModel.invoiceSubscriptionId(invoiceId);
    if (subscriptionId === null) throw new NotFoundError("Invoice not found");
    let plan: HomePlan;
    try {
      plan = await this.plan(email, subscriptionId, now);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError("Invoice not found");
      throw error;
    }
    const invoice = plan.invoices.find((i) => i.id === invoiceId);
    if (!invoice) throw new NotFoundError("Invoice not found");
    // A receipt is addressed to the customer by name, as the invoice PDF is (docs/decisions.md#33).
    const billedTo = (await this.subscriptions.get(subscriptionId)).customerName?.trim() || null;
    return { plan, invoice, billedTo };
  }

  /** The PDF of an invoice of the homeowner's; 404 for anyone else's (docs/decisions.md#29, #33). */
  async invoicePdf(email: string, invoiceId: number): Promise<{ filename: string; body: Buffer }> {
    await this.receipt(email, invoiceId);
    return this.deps.invoicePdf(invoiceId);
  }

  /** What another plan costs this subscriber a month: the same reading of the prices as their journey (docs/decisions.md#23). */
  private priceFor(target: Plan, current: Plan, sub: { priceList: "pricing" | "checkout" }): number {
    // The list stored on the subscription, as its plan changes bill (docs/decisions.md#23).
    return this.subscriptions.demo.amountFor(target, current, sub) / 100;
  }

  private async present(id: number, now: Date): Promise<HomePlan> {
    const view = await this.subscriptions.customerView(id, now);
    const sub = view.subscription;
    const plans = await this.deps.plans.list();
    const current = plans.find((p) => p.type === sub.planType);
    const periodEnd = new Date(sub.currentPeriodEnd);
    const endsFirst = sub.cancelAt !== null && new Date(sub.cancelAt) <= periodEnd;
    const nextPlan =
      sub.scheduledPlanType && sub.scheduledPlanAt && new Date(sub.scheduledPlanAt) <= periodEnd
        ? plans.find((p) => p.type === sub.scheduledPlanType)
        : null;
    const amount = nextPlan && current ? this.priceFor(nextPlan, current, sub) : sub.monthlyAmount;
    const taxed =
      view.ended || endsFirst
        ? null
        : await this.subscriptions.amounts.chargeWithTax(sub.id, Math.round(amount * 100), sub.currentPeriodEnd);
    // Each monthly price as billed from the next period, with the home's tax (docs/decisions.md#63).
    const monthly = async (dollars: number) =>
      chargeWords(
        await this.subscriptions.amounts.chargeWithTax(sub.id, Math.round(dollars * 100), sub.currentPeriodEnd),
      );
    const others = view.ended || !current ? [] : plans.filter((p) => p.type !== sub.planType);
    const words = await Promise.all(
      [sub.monthlyAmount, ...others.map((p) => this.priceFor(p, current!, sub))].map(monthly),
    );
    return {
      ...view,
      nextCharge: taxed ? { at: sub.currentPeriodEnd, amount, words: chargeWords(taxed) } : null,
      monthlyWords: words[0]!,
      changes: others.map((p, i) => {
        const direction = p.price > current!.price ? ("upgrade" as const) : ("downgrade" as const);
        return {
          planType: p.type,
          planName: p.name,
          price: this.priceFor(p, current!, sub),
          direction,
          appliesAt: direction === "upgrade" ? now.toISOString() : sub.currentPeriodEnd,
          words: words[i + 1]!,
        };
      }),
    };
  }
}
