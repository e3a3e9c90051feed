// How a payment provider's call fails (docs/decisions.md#35): a refund's here, a subscription's change in the
// subscriptions module, which re-exports these.
import { HttpError } from "../../http/errors.js";

/** A provider outage before anything was sent that could change the subscription: nothing changed anywhere. */
export class BillingUnavailableError extends HttpError {
  constructor() {
    super(503, "The payment provider could not be reached. Nothing was changed.");
  }
}

/**
 * The provider did not answer a call that changes the subscription: it may have applied it. Nothing local changed;
 * the provider's webhook or the next read settles it, and a repeat carries the same idempotency key
 * (docs/decisions.md#35).
 */
export class BillingUncertainError extends HttpError {
  constructor() {
    super(
      503,
      "The payment provider did not confirm the change. It is being checked, and your plan will show the outcome shortly.",
    );
  }
}
