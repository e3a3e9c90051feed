// The subscriptions module's interface for other modules, the CLI and the seeds (README "Interface for other modules").
export { type SubscriptionsDeps, SubscriptionsService, type SubscriptionsSettings } from "./subscriptions.service.js";
export { BillingUnavailableError } from "./billing-provider.js";
export type { PlanDeliveryListener, PlanDeliverySchedule } from "./plan-delivery-listener.js";
export {
  PORTAL_CONFIGURATIONS,
  type StripeRead,
  StripeBilling,
  createStripeBilling,
  invoiceStateOf,
  priceLookupKey,
  stateOf,
} from "./stripe-billing.js";
export { StripeWebhooks, type StripeWebhooksDeps } from "./webhooks.js";
export { DEMO_FAILING_CARD, DEMO_RENEWAL_DECLINE } from "./demo-billing.js";
export {
  cancellationTakesEffect,
  minimumTermEnd,
  monthsAfter,
  period,
  periodOn,
  startOfBusinessDay,
} from "./billing-dates.js";
export { billingPagePath, signBillingToken } from "./billing-links.js";
export { billingAmount, billingDate } from "./subscriptions.mail.js";
// The plan pages' amounts, dates, names and statuses in the page's language (My Home's Plan, the billing link).
export { billingWords, planFlash } from "./billing-words.js";
// What a homeowner is asked for or told of, said whole with tax (docs/decisions.md#63): My Home's pages.
export { type ChargeWithTax, chargeWords } from "./charge-with-tax.js";
export { type SubscriptionsRoutesDeps, subscriptionsApi } from "./subscriptions.routes.js";
export {
  type SubscriptionsAdminDeps,
  pastDueProperties,
  propertySubscription,
  subscriptionsAdminPages,
} from "./subscriptions-admin.routes.js";
export { type BillingRoutesDeps, billingApi, billingPages } from "./billing.routes.js";
export { SUBSCRIPTIONS_CRONTAB, SUBSCRIPTIONS_RENEW_TASK, subscriptionsRenewTask } from "./subscriptions.tasks.js";
export type { CustomerSubscriptionView, Subscription, SubscriptionEvent } from "./subscriptions.constants.js";
export { ENDED_STATUSES, SERVING_STATUSES, SUBSCRIPTION_STATUSES } from "./subscriptions.constants.js";
