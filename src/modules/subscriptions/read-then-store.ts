// Providers are called with no transaction open (docs/decisions.md#56): a Stripe call may take 20 s and a retry, and
// a transaction waiting on it would hold a pooled connection, and the row's lock, all that time.
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import type { ChangesRepository } from "./changes.repository.js";

export interface ReadThenStoreDeps {
  transaction: TransactionRunner;
  changes: Pick<ChangesRepository, "versions">;
}

/**
 * The versions of a Stripe subscription's row are read, then Stripe (`read`, no transaction open), then in one
 * transaction the row is locked (`lock`) and what was read is stored (`store`) only when the versions are still
 * those seen: a change stored meanwhile may be newer than the read, so it is read again, at most `attempts` times.
 * Null when the row kept changing (what changed it stored Stripe's state itself).
 */
export async function readThenStore<R, T>(
  deps: ReadThenStoreDeps,
  providerSubscriptionId: string,
  steps: { read(again: boolean): Promise<R>; lock(tx: Tx): Promise<unknown>; store(tx: Tx, read: R): Promise<T> },
  attempts = 3,
): Promise<{ stored: T } | null> {
  const versions = (tx: Tx) => deps.changes.versions("stripe", { subscription: providerSubscriptionId }, tx);
  for (let attempt = 0; attempt < attempts; attempt++) {
    const seen = await deps.transaction(versions);
    const read = await steps.read(attempt > 0);
    const done = await deps.transaction(async (tx) => {
      await steps.lock(tx);
      return (await versions(tx)) === seen ? { stored: await steps.store(tx, read) } : null;
    });
    if (done) return done;
  }
  return null;
}
