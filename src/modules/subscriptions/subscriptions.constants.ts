// Subscriptions (docs/decisions.md#23–27): the shapes every part of the module shares. Zod-free.
import type { Locale } from "../../i18n/index.js";
import type { PlanType } from "../plans/plans.schemas.js";
import type { InvoiceProvider } from "../invoices/invoices.constants.js";

// The invoices' shapes live in the invoices module (src/modules/invoices/README.md); re-exported for this module.
export {
  type BusinessIdentity,
  INVOICE_STATUSES,
  type Invoice,
  type ProviderInvoiceState,
} from "../invoices/invoices.constants.js";

/** Stripe's subscription statuses, kept as Stripe names them. An unknown value is stored as it is, never mapped. */
export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
] as const;
export type KnownSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const isKnownStatus = (status: string): status is KnownSubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status);

/** Statuses whose plan services run (past_due runs them held). */
export const SERVING_STATUSES: readonly string[] = ["active", "trialing", "past_due"];
/** Statuses that count towards MRR. */
export const MRR_STATUSES: readonly string[] = ["active", "trialing", "past_due"];
/** Statuses after which nothing more is billed or delivered. */
export const ENDED_STATUSES: readonly string[] = ["canceled", "unpaid", "incomplete_expired"];

export const STATUS_LABELS: Record<KnownSubscriptionStatus, string> = {
  incomplete: "Incomplete",
  incomplete_expired: "Expired",
  trialing: "Trial",
  active: "Active",
  past_due: "Past due",
  canceled: "Canceled",
  unpaid: "Unpaid",
  paused: "Paused",
};

/** docs/decisions.md#25: the minimum term, in months from the start. */
export const MINIMUM_TERM_MONTHS = 3;

export type SubscriptionProvider = InvoiceProvider;

/** A subscription as the API returns it (docs/api.md). Instants are ISO strings; amounts are dollars. */
export interface Subscription {
  id: number;
  customerId: number | null;
  propertyId: number | null;
  planType: PlanType;
  status: string;
  provider: SubscriptionProvider;
  startedAt: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  minimumTermEndsAt: string;
  cancelAt: string | null;
  canceledAt: string | null;
  monthlyAmount: number;
  // Beyond the API's own fields: what staff pages and e-mails need.
  cancellationReason: string | null;
  scheduledPlanType: PlanType | null;
  scheduledPlanAt: string | null;
  customerName: string | null;
  customerEmail: string | null;
  /** The customer's language (customers.locale): their billing e-mails follow it. */
  customerLocale?: Locale;
  propertyAddress: string | null;
  cardLast4: string | null;
  lastPaymentError: string | null;
  version: number;
}

export interface SubscriptionEvent {
  id: number;
  kind: string;
  fromPlan: string | null;
  toPlan: string | null;
  actor: string;
  detail: Record<string, unknown> | null;
  createdAt: string;
}

/**
 * What a provider says a subscription is now. The Stripe provider builds it by reading the subscription back
 * (on every webhook, so events may come in any order); the demo provider from its own rows. The service stores
 * it as the truth, then applies Haven's rules (plan services, holds, e-mails) to the change.
 */
export interface ProviderSubscriptionState {
  provider: SubscriptionProvider;
  providerSubscriptionId: string;
  providerCustomerId: string | null;
  status: string;
  /** The plan of the subscription's price now (Stripe: the price's metadata.plan or lookup key). */
  planType: PlanType;
  monthlyAmountCents: number;
  currency: string;
  startedAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAt: Date | null;
  canceledAt: Date | null;
  payerEmail: string | null;
  payerName: string | null;
  /** The Checkout Session or PaymentIntent that bought it, when known (metadata or the caller). */
  checkoutRef: string | null;
  /** The price list it was sold from (Stripe: metadata.price_list), stored when it is made (docs/decisions.md#23). */
  priceList?: "pricing" | "checkout";
  /** The home's postal code (Stripe: metadata.postal_code): the tax province follows it (docs/decisions.md#32). */
  postalCode?: string | null;
  /** When the provider's third period ends (Stripe counts months from its billing anchor, in UTC). */
  minimumTermEndsAt?: Date;
}

/**
 * What a customer sees of their subscription (the billing page and My Home's Plan page): nothing staff-only
 * (reasons, people, provider ids), the invoices, and when a cancellation asked for now would take effect.
 */
export interface CustomerSubscriptionView {
  subscription: {
    id: number;
    propertyId: number | null;
    propertyAddress: string | null;
    planType: PlanType;
    planName: string;
    status: string;
    statusLabel: string;
    provider: SubscriptionProvider;
    startedAt: string;
    currentPeriodStart: string;
    currentPeriodEnd: string;
    minimumTermEndsAt: string;
    cancelAt: string | null;
    canceledAt: string | null;
    monthlyAmount: number;
    scheduledPlanType: PlanType | null;
    scheduledPlanAt: string | null;
    /** The price list it was sold from (docs/decisions.md#23): another plan costs this subscriber that list's price. */
    priceList: "pricing" | "checkout";
    cardLast4: string | null;
    /** Only while past due. */
    lastPaymentError: string | null;
    /** Its code, when the provider gave one ("insufficient_funds"); only while past due. */
    lastPaymentErrorCode: string | null;
  };
  invoices: {
    id: number;
    /** HAV-YYYY-NNNNNN (docs/decisions.md#33). */
    number: string | null;
    /** The invoice's date, set once when it was numbered (docs/decisions.md#54); the payment's is `paidAt`. */
    issuedAt: string | null;
    /** The total, tax included; `subtotal` before tax, each tax in `taxLines`, `refunded` so far (dollars). */
    amount: number;
    subtotal: number;
    tax: number;
    taxLines: { label: string; amountCents: number }[];
    refunded: number;
    currency: string;
    periodStart: string;
    periodEnd: string;
    status: string;
    paidAt: string | null;
    failureReason: string | null;
  }[];
  /** Whether the plan has ended; nothing can be changed then. */
  ended: boolean;
  /** When a cancellation asked for now would take effect, and whether that is the minimum term's end. */
  cancellation: { takesEffectAt: string; atMinimumTerm: boolean } | null;
}
