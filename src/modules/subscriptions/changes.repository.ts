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
    noWait = false,
  ): Promise<number | null> {
    const query = tx("subscriptions").where({ provider, provider_subscription_id: providerSubscriptionId }).forUpdate();
    // noWait: a row another transaction holds is an error (55P03) at once.
    const row = await (noWait ? query.noWait() : query).first("id");
    return (row?.id as number | undefined) ?? null;
  }

  /** Locks every row of a provider customer's subscriptions, in id order (so two callers never wait on each other). */
  async lockByCustomer(
    provider: SubscriptionProvider,
    providerCustomerId: string,
    tx: Tx,
    noWait = false,
  ): Promise<void> {
    const query = tx("subscriptions")
      .where({ provider, provider_customer_id: providerCustomerId })
      .orderBy("id")
      .forUpdate();
    await (noWait ? query.noWait() : query).select("id");
  }

  /**
   * The rows a provider's subscription (or customer) names, as "id:version" in id order, "" when none: read before a
   * provider call made with no transaction open, and again under the lock, it says whether a change was stored
   * meanwhile (docs/decisions.md#56). Every write to a row moves its version.
   */
  async versions(
    provider: SubscriptionProvider,
    by: { subscription: string } | { customer: string },
    tx: Tx,
  ): Promise<string> {
    const rows = await tx("subscriptions")
      .where(
        "subscription" in by
          ? { provider, provider_subscription_id: by.subscription }
          : { provider, provider_customer_id: by.customer },
      )
      .orderBy("id")
      .select("id", "version");
    return rows.map((r) => `${r.id}:${r.version}`).join(",");
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
