// What the subscriptions service needs from a billing provider: Stripe (stripe-billing.ts) or the offline demo
// provider (demo-billing.ts). Every call happens before the local transaction, so an outage changes nothing here.
import { HttpError } from "../../http/errors.js";
import type { Plan } from "../plans/plans.schemas.js";
import type { ProviderInvoiceState, ProviderSubscriptionState, Subscription } from "./subscriptions.constants.js";

/** A provider outage during a change: nothing local was changed. */
export class BillingUnavailableError extends HttpError {
  constructor() {
    super(503, "The payment provider could not be reached. Nothing was changed.");
  }
}

export type ProviderSubscription = Subscription & {
  providerSubscriptionId: string;
  providerCustomerId: string | null;
  billingAnchor: string;
};

export interface BillingProvider {
  readonly name: "stripe" | "demo";
  /** The subscription as the provider holds it now. */
  read(sub: ProviderSubscription): Promise<ProviderSubscriptionState>;
  scheduleCancel(sub: ProviderSubscription, cancelAt: Date): Promise<ProviderSubscriptionState>;
  undoCancel(sub: ProviderSubscription): Promise<ProviderSubscriptionState>;
  cancelNow(sub: ProviderSubscription, now: Date): Promise<ProviderSubscriptionState>;
  /**
   * Upgrade: the new price at once, prorated. Downgrade: the new price from the next period, nothing prorated.
   * `plan.amountCents` is the monthly amount to bill: the plan's price in the reading the subscription was sold at.
   */
  changePlan(
    sub: ProviderSubscription,
    plan: Plan & { amountCents: number },
    when: "now" | "period_end",
    now: Date,
  ): Promise<{ state: ProviderSubscriptionState; invoice: ProviderInvoiceState | null }>;
}

/** Stripe's hosted billing portal (the card update flow, and cancellation once the minimum term has ended). */
export interface BillingPortal {
  portalUrl(
    sub: Pick<ProviderSubscription, "providerCustomerId">,
    returnUrl: string,
    options: { canCancel: boolean },
  ): Promise<string>;
  cardUpdateUrl(sub: Pick<ProviderSubscription, "providerCustomerId">, returnUrl: string): Promise<string>;
}
