// One change at a time (docs/decisions.md#35): the row locks every change takes first, and the first answer given
// to each change (subscription_changes), so a repeat gets it again.
import type { Tx } from "../../db/transaction.js";
import type { SubscriptionProvider } from "./subscriptions.constants.js";

export interface ChangeAnswer {
  key: string;
  statusCode: number;
  response: unknown;
}

export class ChangesRepository {
  /** Locks a subscription's row for the caller's transaction; false when there is none. */
  async lock(id: number, tx: Tx): Promise<boolean> {
    return Boolean(await tx("subscriptions").where({ id }).forUpdate().first("id"));
  }

  /** Locks the row of a provider's subscription (webhooks); the local id, or null when Haven has none yet. */
  async lockByProviderId(
    provider: SubscriptionProvider,
    providerSubscriptionId: string,
    tx: Tx,
  ): Promise<number | null> {
    const row = await tx("subscriptions")
      .where({ provider, provider_subscription_id: providerSubscriptionId })
      .forUpdate()
      .first("id");
    return (row?.id as number | undefined) ?? null;
  }

  /** Locks every row of a provider customer's subscriptions, in id order (so two callers never wait on each other). */
  async lockByCustomer(provider: SubscriptionProvider, providerCustomerId: string, tx: Tx): Promise<void> {
    await tx("subscriptions")
      .where({ provider, provider_customer_id: providerCustomerId })
      .orderBy("id")
      .forUpdate()
      .select("id");
  }

  /** The answer already given to this change, if any. */
  async answer(key: string, tx: Tx): Promise<ChangeAnswer | null> {
    const row = await tx("subscription_changes").where({ change_key: key }).first();
    return row ? { key, statusCode: row.status_code as number, response: row.response } : null;
  }

  async record(subscriptionId: number, answer: ChangeAnswer, tx: Tx): Promise<void> {
    await tx("subscription_changes").insert({
      subscription_id: subscriptionId,
      change_key: answer.key,
      status_code: answer.statusCode,
      response: JSON.stringify(answer.response),
    });
  }
}
