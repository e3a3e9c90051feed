// How StripeBilling's calls fail (docs/decisions.md#35): a read or a refused change is a BillingUnavailableError
// (503, nothing changed); a change Stripe did not answer is a BillingUncertainError (503, being checked).
import type { Logger } from "pino";
import { BillingUncertainError, BillingUnavailableError } from "./billing-provider.js";
import { ForeignSubscriptionError } from "./stripe-billing-state.js";

/** Stripe answered a change with a 4xx: it refused it and nothing changed (to the caller, the same 503). */
export class BillingRefusedError extends BillingUnavailableError {}

/**
 * A call that changes something at Stripe. Refused (a 4xx answer): nothing changed, 503. Not answered (the
 * network, a timeout, a 5xx): Stripe may have applied it, so the caller is told it is being checked.
 */
export async function changeAtStripe<T>(work: () => Promise<T>, log?: Logger): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BillingUnavailableError || error instanceof BillingUncertainError) throw error;
    log?.warn({ err: error }, "Stripe billing change failed");
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status < 500) throw new BillingRefusedError();
    throw new BillingUncertainError();
  }
}

/** A read (or a Stripe refusal): any failure is an outage to the caller: 503, nothing changed. */
export async function readAtStripe<T>(work: () => Promise<T>, log?: Logger): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (
      error instanceof BillingUnavailableError ||
      error instanceof BillingUncertainError ||
      error instanceof ForeignSubscriptionError
    )
      throw error;
    log?.warn({ err: error }, "Stripe billing call failed");
    throw new BillingUnavailableError();
  }
}
