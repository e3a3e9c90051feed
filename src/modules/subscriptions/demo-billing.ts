// The offline demo provider's billing (docs/decisions.md#24). Haven's own rows are the demo provider's
// subscriptions and invoices; this file turns them into provider states and changes them as Stripe would; the
// periods that have come due are billed by renewals.ts.
import { todayIn } from "../../shared/business-time.js";
import type { Plan } from "../plans/plans.schemas.js";
import type { PlansService } from "../plans/index.js";
import type { BillingProvider, PlanChange, ProviderSubscription } from "./billing-provider.js";
import {
  DEMO_AUTHENTICATION_CARD,
  DEMO_RENEWAL_DECLINE,
  type RenewContext,
  type Totals,
  demoInvoiceId,
  renewDueDemo,
} from "./renewals.js";
import type { Invoice, ProviderInvoiceState, ProviderSubscriptionState } from "./subscriptions.constants.js";

export { DEMO_AUTHENTICATION_CARD, DEMO_RENEWAL_DECLINE, demoInvoiceId };

/** 4000 0000 0000 0341: pays the first invoice, fails every renewal (as Stripe's test card). */
export const DEMO_FAILING_CARD = "4000000000000341";
/** The share of `cents` left for the rest of a period, for an upgrade in its middle. */
export function prorate(cents: number, periodStart: Date, periodEnd: Date, now: Date): number {
  const total = periodEnd.getTime() - periodStart.getTime();
  const left = Math.min(Math.max(periodEnd.getTime() - now.getTime(), 0), total);
  return total > 0 ? Math.round((cents * left) / total) : 0;
}

export class DemoBilling implements BillingProvider {
  readonly name = "demo" as const;
  constructor(readonly plans: PlansService) {}

  /**
   * docs/decisions.md#23: a subscription keeps the price list its journey showed, stored on it when it was made
   * (`price_list`). A plan change bills the new plan from the same list. Given only an amount (a page that shows
   * prices without the subscription's row), the list is read from it as it used to be.
   */
  amountFor(target: Plan, current: Plan, sub: number | Pick<ProviderSubscription, "priceList">): number {
    const list =
      typeof sub === "number" ? (sub === current.checkoutPrice * 100 ? "checkout" : "pricing") : sub.priceList;
    return list === "checkout" ? target.checkoutPrice * 100 : target.price * 100;
  }

  stateOf(sub: ProviderSubscription): ProviderSubscriptionState {
    return {
      provider: "demo",
      providerSubscriptionId: sub.providerSubscriptionId,
      providerCustomerId: null,
      status: sub.status,
      planType: sub.planType,
      monthlyAmountCents: Math.round(sub.monthlyAmount * 100),
      currency: "cad",
      startedAt: new Date(sub.startedAt),
      currentPeriodStart: new Date(sub.currentPeriodStart),
      currentPeriodEnd: new Date(sub.currentPeriodEnd),
      cancelAt: sub.cancelAt ? new Date(sub.cancelAt) : null,
      canceledAt: sub.canceledAt ? new Date(sub.canceledAt) : null,
      payerEmail: sub.customerEmail,
      payerName: sub.customerName,
      checkoutRef: null,
    };
  }

  invoiceState(sub: ProviderSubscription, invoice: Invoice): ProviderInvoiceState {
    return {
      provider: "demo",
      providerInvoiceId: invoice.providerInvoiceId,
      providerSubscriptionId: sub.providerSubscriptionId,
      amountCents: Math.round(invoice.amount * 100),
      currency: invoice.currency,
      periodStart: new Date(invoice.periodStart),
      periodEnd: new Date(invoice.periodEnd),
      status: invoice.status,
      billingReason: invoice.billingReason,
      paidAt: invoice.paidAt ? new Date(invoice.paidAt) : null,
      failureReason: invoice.failureReason,
      attemptCount: 1,
    };
  }

  async read(sub: ProviderSubscription) {
    return this.stateOf(sub);
  }

  async scheduleCancel(sub: ProviderSubscription, cancelAt: Date, _key: string) {
    return { ...this.stateOf(sub), cancelAt };
  }

  async undoCancel(sub: ProviderSubscription, _key: string) {
    return { ...this.stateOf(sub), cancelAt: null };
  }

  async cancelNow(sub: ProviderSubscription, now: Date, _key: string) {
    return { ...this.stateOf(sub), status: "canceled", cancelAt: now, canceledAt: now };
  }

  async changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end" | "keep",
    now: Date,
    key: string,
    prorationDate: Date | null = null,
  ): Promise<PlanChange> {
    // A downgrade keeps the paid plan and price until the period ends, when the renewal applies it (renewals.ts prepareBatch).
    if (when !== "now") return { state: this.stateOf(sub), invoice: null };
    // docs/decisions.md#49: a card that declines renewals declines the upgrade's charge too; the plan stays as it was.
    if (sub.cardFailsRenewals) return { state: this.stateOf(sub), invoice: null, declined: DEMO_RENEWAL_DECLINE };
    const state = { ...this.stateOf(sub), planType: plan.type, monthlyAmountCents: plan.amountCents };
    // An upgrade bills the difference for what is left of the period, at once; its id names the change
    // (docs/decisions.md#35), so a repeat of it is the same invoice.
    const start = new Date(sub.currentPeriodStart);
    const end = new Date(sub.currentPeriodEnd);
    // Prorated at the instant its preview showed (upgrade-preview.ts), so the charge is the figure shown.
    const amountCents = prorate(
      plan.amountCents - Math.round(sub.monthlyAmount * 100),
      start,
      end,
      prorationDate ?? now,
    );
    const invoice: ProviderInvoiceState | null =
      amountCents > 0
        ? {
            provider: "demo",
            providerInvoiceId: demoInvoiceId(sub.id, todayIn("UTC", now), `_up_${key.replace(/[^\w]+/g, "_")}`),
            providerSubscriptionId: sub.providerSubscriptionId,
            amountCents,
            currency: "cad",
            periodStart: now,
            periodEnd: end,
            status: "paid",
            billingReason: "subscription_update",
            paidAt: now,
            failureReason: null,
            attemptCount: 1,
          }
        : null;
    return { state, invoice };
  }

  /** Bills every demo period that has come due by `asOf` (renewals.ts). */
  renewDue(asOf: Date, ctx: RenewContext): Promise<Totals> {
    return renewDueDemo(this, asOf, ctx);
  }
}
