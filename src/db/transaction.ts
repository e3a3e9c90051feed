import type { Knex } from "knex";

/** An open transaction. Services pass it along to repositories without looking inside. */
export type Tx = Knex.Transaction;

/** Runs work in one transaction: commits when it resolves, rolls back when it throws. */
export type TransactionRunner = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

export const transactionRunner =
  (db: Knex): TransactionRunner =>
  (work) =>
    db.transaction(work);

/** Enqueues a graphile-worker job inside the caller's transaction, so it exists only if the write commits. */
export async function enqueueJob(tx: Tx | Knex, task: string, payload: object, options: { maxAttempts?: number } = {}): Promise<void> {
  await tx.raw("select graphile_worker.add_job(?, ?::json, max_attempts => ?)", [task, JSON.stringify(payload), options.maxAttempts ?? 10]);
}
