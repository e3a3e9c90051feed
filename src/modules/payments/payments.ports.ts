// The payments module's ports and errors (README "Layers"): what PaymentsService takes (PaymentsDeps), what it reaches
// above it through the container (SubscriptionCheckouts, StripeSubscriptionEvents) and the refusals it answers.
import type Stripe from "stripe";
import type { BusinessSettings } from "../../config/env.js";
import { HttpError } from "../../http/errors.js";
import type { LoginAttemptCounter } from "../auth/index.js";
import type { PlanType, PlansService } from "../plans/index.js";
import type { PriceList } from "./checkout.constants.js";
import type { PaymentsRepository } from "./payments.repository.js";
import type { PaymentProvider, PurchasedSubscription } from "./provider-types.js";

export const PAYER_EMAIL_MESSAGE = "Email must be the address the payment was made with";

/** A card the demo provider declines: 402 with the provider's reason, like Stripe's card errors. */
export class CardDeclinedError extends HttpError {
  constructor(message: string) {
    super(402, message);
  }
}

/** /checkout's submits per client address (docs/decisions.md#32): each may create a customer at Stripe. */
export const CHECKOUT_LIMIT = { perAddress: 20, windowMs: 15 * 60_000 } as const;

/** Too many /checkout submits from one address: 429, with how long to wait (Retry-After). */
export class TooManyCheckoutsError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(
      429,
      `Too many payment attempts from your network. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    );
  }
}

/** A demo purchase confirmed: the monthly subscription it starts (docs/decisions.md#24). */
export interface DemoSubscriptionStart {
  checkoutRef: string;
  planType: PlanType;
  /** The monthly price before tax; the first invoice adds the home's tax (docs/decisions.md#32). */
  amountCents: number;
  /** The home's postal code typed at checkout ('K1S 2B4'), null when none was given. */
  postalCode: string | null;
  /** /checkout's page or /pricing's hosted checkout (docs/decisions.md#23). */
  priceList: PriceList;
  payerEmail: string;
  payerName: string;
  cardNumber: string;
}

/**
 * What payments calls in subscriptions, which sits above it (docs/architecture.md): container.ts passes the
 * SubscriptionsService.
 */
export interface SubscriptionCheckouts {
  /** Idempotent per checkoutRef; a second call returns the first subscription. */
  startDemo(input: DemoSubscriptionStart): Promise<unknown>;
  /** Paid subscription invoices, for Total Revenue. */
  paidInvoicesCents(): Promise<number>;
}

/**
 * Stripe mode: subscriptions' StripeWebhooks (subscriptions/webhooks.ts), passed in by container.ts. It stores
 * what a purchase read back and takes the webhook's subscription events; this module keeps the signature check
 * and the one-time payments of before subscriptions.
 */
export interface StripeSubscriptionEvents {
  /** Stores a subscription read back by StripeSubscriptionSide (at run time subscriptions' own StripeRead). */
  store(read: PurchasedSubscription): Promise<void>;
  handles(event: Stripe.Event): boolean;
  /** True when this delivery was the one that recorded the event. */
  handle(event: Stripe.Event): Promise<boolean>;
}

/**
 * A succeeded one-time PaymentIntent that is no purchase of a plan (no `metadata.plan`): an accepted quote's invoice
 * (docs/decisions.md#43). The container passes the quotes module's QuotePayments; true when this delivery paid it.
 */
export interface PaymentIntentEvents {
  succeeded(intent: { id: string; metadata?: Record<string, string> | null }): Promise<boolean>;
}

export interface PaymentsSettings {
  /** STRIPE_WEBHOOK_SECRET: without it no webhook is trusted. */
  webhookSecret?: string;
  publishableKey?: string;
  /** BUSINESS_TZ: which day's tax rates apply. */
  timeZone: string;
  /** /checkout's submits per address; CHECKOUT_LIMIT unless set. */
  checkoutLimit?: { perAddress: number; windowMs: number };
}

export interface PaymentsDeps {
  repo: PaymentsRepository;
  plans: Pick<PlansService, "get" | "list">;
  /** Stripe or the offline demo provider, as PAYMENTS_MODE says (docs/decisions.md#4). */
  provider: PaymentProvider;
  subscriptions: SubscriptionCheckouts;
  /** Null in demo mode. */
  stripeSubscriptions: StripeSubscriptionEvents | null;
  /** The business: its province taxes a purchase that names no home (docs/decisions.md#32). */
  business: Pick<BusinessSettings, "province" | "taxRegistered">;
  /** Postgres counters shared by every web process (auth's), for /checkout's limit per address. */
  attempts: LoginAttemptCounter;
  /** Other one-time intents' webhook (an accepted quote's invoice); none when null or left out. */
  intents?: PaymentIntentEvents | null;
  settings: PaymentsSettings;
  clock?: () => Date;
}
