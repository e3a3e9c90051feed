// The payments module's interface for other modules, the CLI and the seeds (README "Interface for other modules").
export { PaymentsService } from "./payments.service.js";
export {
  CHECKOUT_LIMIT,
  CardDeclinedError,
  type DemoSubscriptionStart,
  PAYER_EMAIL_MESSAGE,
  type PaymentIntentEvents,
  type PaymentsDeps,
  type StripeSubscriptionEvents,
  type SubscriptionCheckouts,
  TooManyCheckoutsError,
} from "./payments.ports.js";
export { StripeTaxRates, stripeTaxRates, taxRateKey } from "./stripe-tax-rates.js";
export {
  CURRENCY,
  type PaymentProvider,
  type Purchase,
  type PurchasedSubscription,
  ProviderUnavailableError,
  type StripeSubscriptionSide,
  invoiceSubscriptionId,
} from "./provider-types.js";
export { createPaymentProvider, createStripeClient } from "./payment-providers.js";
export {
  allowStripeJs,
  type CheckoutRoutesDeps,
  checkoutApi,
  checkoutFormActions,
  checkoutPages,
  planParam,
} from "./checkout.routes.js";
export {
  DEMO_CUSTOMER,
  DEMO_DECLINES,
  HOME_POSTAL_CODE_PATTERN,
  type VerifyPaymentResponse,
  digitsOnly,
} from "./checkout.constants.js";
export { type DemoCard, demoCardSchema } from "./checkout.schemas.js";
