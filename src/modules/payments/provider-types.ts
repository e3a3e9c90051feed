// The payment providers' shared shapes (docs/decisions.md#4, #32): what a purchase is, what a provider answers, and
// the port onto Stripe's billing side. Stripe's provider is payment-providers.ts, the demo's demo-provider.ts.
import type { Locale } from "../../i18n/index.js";
import type Stripe from "stripe";
import { HttpError } from "../../http/errors.js";
import { type Plan, type PlanType, planTypeSchema } from "../plans/index.js";
import type { TaxedAmount } from "../tax/index.js";
import type { PriceList } from "./checkout.constants.js";
import type { NewPayment, PaymentProviderName } from "./payments.repository.js";

export const CURRENCY = "cad";

/**
 * A subscription a Stripe purchase started, as subscriptions' Stripe billing reads it back (its StripeRead).
 * Payments reads only who paid and whether it is live, and hands the whole read back to subscriptions to store
 * (StripeSubscriptionEvents.store): payments sits below subscriptions (docs/architecture.md).
 */
export interface PurchasedSubscription {
  state: { status: string; planType: PlanType; payerEmail: string | null; payerName: string | null };
}

/**
 * What StripeProvider needs of Stripe's billing side: subscriptions/stripe-billing.ts's StripeBilling, passed in
 * by container.ts (the purchase paths and the billing side share its one Stripe client).
 */
export interface StripeSubscriptionSide {
  readonly stripe: Stripe;
  /** docs/decisions.md#23: the recurring monthly Price for this plan and amount. */
  priceFor(plan: Pick<Plan, "type" | "name">, amountCents: number): Promise<string>;
  /** The subscription now, with its customer and latest invoice. */
  readBack(subscriptionId: string, checkoutRef: string | null): Promise<PurchasedSubscription>;
  /** A subscription /checkout has just created (latest_invoice expanded), read as readBack reads one. */
  readCreated(subscription: Stripe.Subscription, checkoutRef: string): PurchasedSubscription;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

/** The subscription an invoice bills (current API: under parent.subscription_details). */
export const invoiceSubscriptionId = (invoice: Stripe.Invoice): string | null =>
  idOf(invoice.parent?.subscription_details?.subscription as string | { id: string } | null | undefined);

export interface Verification {
  paid: boolean;
  plan: PlanType | null;
  /** Who paid, for the intake form: what the provider knows, or demo defaults. */
  customer: { email: string | null; name: string | null };
  /**
   * The e-mail the provider itself holds for the payer (Stripe's customer_details or receipt_email, the
   * demo card form's), null when it holds none. Defaults never count: intake compares against this.
   */
  payerEmail: string | null;
  /** What to record when the provider says it is paid (a one-time Stripe payment from before subscriptions). */
  payment: NewPayment | null;
  /** The home's postal code the purchase was made for, when the provider kept one (intake prefills it). */
  postalCode?: string | null;
  /** Stripe: the subscription the purchase started, read back, to store (PaymentsService.verify). */
  subscription?: PurchasedSubscription | null;
}

/**
 * What a purchase is, decided before anything is made (docs/decisions.md#32): the price list, the home's postal code
 * and its tax today, and (from /checkout's submit) who pays.
 */
export interface Purchase {
  priceList: PriceList;
  /** 'K1S 2B4'; null when the caller gave none (the tax is then the business's province's). */
  postalCode: string | null;
  /** The plan's price for this price list and its tax for the home, today. */
  taxed: TaxedAmount;
  /** Today in the business's time zone: which rates apply. */
  day: string;
  payer: { email: string | null; name: string | null };
  /** The language of the page that paid: Stripe's customer's preferred_locales and its Checkout page (docs/decisions.md#65). */
  locale: Locale;
}

/** What Haven needs from a payment provider: Stripe, or the offline demo provider in its place. */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** A hosted checkout for the plan; its url is where the browser goes next. */
  createCheckoutSession(plan: Plan, baseUrl: string, purchase: Purchase): Promise<{ url: string }>;
  /**
   * A payment for the /checkout card form; the client secret lets the browser confirm it. With Stripe it is the
   * first invoice of a new subscription, returned to be recorded at once.
   */
  createPaymentIntent(
    plan: Plan,
    purchase: Purchase,
  ): Promise<{ id: string; clientSecret: string; subscription?: PurchasedSubscription }>;
  /** Whether a Checkout Session or PaymentIntent id is paid, and by whom. */
  verify(id: string): Promise<Verification>;
}

export const NOT_PAID: Verification = {
  paid: false,
  plan: null,
  customer: { email: null, name: null },
  payerEmail: null,
  payment: null,
};

export const planOf = (metadata: Record<string, string> | null | undefined): PlanType | null => {
  const parsed = planTypeSchema.safeParse(metadata?.plan);
  return parsed.success ? parsed.data : null;
};

export class ProviderUnavailableError extends HttpError {
  constructor() {
    super(502, "The payment provider could not be reached. Please try again.");
  }
}
