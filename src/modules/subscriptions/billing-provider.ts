// What the subscriptions service needs from a billing provider: Stripe (stripe-billing.ts) or the offline demo
// provider (demo-billing.ts). Every change calls it under the subscription's row lock, with an idempotency key
// derived from the change (docs/decisions.md#35), so a repeat of the same change is the same provider call.
import type { Plan } from "../plans/plans.schemas.js";
import type { ProviderInvoiceState, ProviderSubscriptionState, Subscription } from "./subscriptions.constants.js";

// The provider's outage errors are the invoices module's too (a refund's Stripe call): declared there.
export { BillingUncertainError, BillingUnavailableError } from "../invoices/index.js";

export type ProviderSubscription = Subscription & {
  providerSubscriptionId: string;
  providerCustomerId: string | null;
  billingAnchor: string;
  /** The price list the subscription was sold from (docs/decisions.md#23): its plan changes bill the same list. */
  priceList: PriceList;
  /** The demo provider's card declines every charge after the first (docs/decisions.md#24). */
  cardFailsRenewals?: boolean;
  /** Stripe's code of the last payment's failure (docs/decisions.md#78): the homeowner's text is chosen by it. */
  lastPaymentErrorCode?: string | null;
};

export type PriceList = "pricing" | "checkout";

/** What a plan change did at the provider: the subscription now, and the upgrade's prorated invoice. */
export interface PlanChange {
  state: ProviderSubscriptionState;
  invoice: ProviderInvoiceState | null;
  /**
   * The upgrade's charge was declined, and why (the card's message): the provider kept the plan as it was
   * (docs/decisions.md#49). A waiting downgrade was dropped before the charge was tried.
   */
  declined?: string;
}

export interface BillingProvider {
  readonly name: "stripe" | "demo";
  /** The subscription as the provider holds it now. */
  read(sub: ProviderSubscription): Promise<ProviderSubscriptionState>;
  /** `key` names the change (docs/decisions.md#35): the provider's idempotency key, never the clock. */
  scheduleCancel(sub: ProviderSubscription, cancelAt: Date, key: string): Promise<ProviderSubscriptionState>;
  undoCancel(sub: ProviderSubscription, key: string): Promise<ProviderSubscriptionState>;
  cancelNow(sub: ProviderSubscription, now: Date, key: string): Promise<ProviderSubscriptionState>;
  /**
   * Upgrade ("now"): the new price at once, prorated from the price paid (a waiting downgrade is dropped first).
   * Downgrade ("period_end"): the paid price stays until the period ends, then the new one (a Subscription Schedule
   * with Stripe). "keep": a waiting downgrade is taken back. `plan.amountCents` is the monthly amount to bill: the
   * plan's price in the list the subscription was sold from.
   */
  changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end" | "keep",
    now: Date,
    key: string,
    /** An upgrade's proration instant, as its preview showed it (docs/decisions.md#63); else `now`. */
    prorationDate?: Date | null,
  ): Promise<PlanChange>;
}

/** Stripe's hosted billing portal (the card update flow, and cancellation once the minimum term has ended). */
export interface BillingPortal {
  portalUrl(
    sub: Pick<ProviderSubscription, "providerCustomerId">,
    returnUrl: string,
    options: { canCancel: boolean },
  ): Promise<string>;
  cardUpdateUrl(sub: Pick<ProviderSubscription, "providerCustomerId">, returnUrl: string): Promise<string>;
  /** Back from the card flow: the customer's new default card becomes the subscription's and pays its open invoice. */
  adoptCustomerDefaultCard(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
  ): Promise<{ state: ProviderSubscriptionState; invoice: ProviderInvoiceState | null } | null>;
  /**
   * Staff's "Retry the payment now" (docs/decisions.md#62): the open invoice charged again with the card on file,
   * under `key`. Declined, `declined` is the card's message; the subscription and the invoice as they are after.
   */
  retryInvoice(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
    invoiceId: string,
    key: string,
  ): Promise<{ state: ProviderSubscriptionState; invoice: ProviderInvoiceState | null; declined: string | null }>;
  /**
   * What an upgrade to `plan` would charge now, prorated at `prorationDate` (Stripe's invoice preview), tax included
   * (docs/decisions.md#63): changePlan with the same date charges it.
   */
  previewUpgrade(
    sub: Pick<ProviderSubscription, "providerSubscriptionId">,
    plan: Plan & { amountCents: number },
    prorationDate: Date,
  ): Promise<{ subtotalCents: number; taxLines: { label: string; amountCents: number }[]; totalCents: number }>;
}
