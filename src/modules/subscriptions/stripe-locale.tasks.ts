// A customer's language goes to Stripe (docs/decisions.md#65): Stripe's receipts, invoice e-mails and hosted pages
// follow the customer's preferred_locales. Checkout sets it when the customer is made; this job, queued by the
// customers module in the edit's transaction, follows a later change. It reads the language when it runs, so the
// last change wins however the jobs interleave.
import type Stripe from "stripe";
import type { Task } from "graphile-worker";
import { CUSTOMER_LOCALE_TASK } from "../customers/index.js";
import type { SubscriptionsService } from "./subscriptions.service.js";

export { CUSTOMER_LOCALE_TASK };

export const customerLocaleTask =
  (deps: {
    subscriptions: Pick<SubscriptionsService, "stripeCustomersOf">;
    stripe: Pick<Stripe, "customers"> | null;
  }): Task =>
  async (payload) => {
    const customerId = Number((payload as { customerId?: unknown } | null)?.customerId);
    if (!deps.stripe || !Number.isSafeInteger(customerId) || customerId <= 0) return;
    const { ids, locale } = await deps.subscriptions.stripeCustomersOf(customerId);
    if (!locale) return;
    for (const id of ids) await deps.stripe.customers.update(id, { preferred_locales: [locale] });
  };
