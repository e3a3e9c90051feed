import type { Knex } from "knex";

/** An open transaction. Services pass it along to repositories without looking inside. */
export type Tx = Knex.Transaction;

/** Runs work in one transaction: commits when it resolves, rolls back when it throws. */
export type TransactionRunner = <T>(work: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * An error whose answer needs the database once its transaction is over (a lost booking's free times): the
 * transaction's runner calls `afterRollback` when the transaction has rolled back and given its connection back,
 * so the read never waits for a second connection while holding the first (docs/decisions.md#46).
 */
export interface AnsweredAfterRollback {
  afterRollback(): Promise<void>;
}

const answeredAfterRollback = (error: unknown): error is AnsweredAfterRollback =>
  typeof (error as Partial<AnsweredAfterRollback> | null)?.afterRollback === "function";

/** `db.transaction(work)`, then an error's `afterRollback` (AnsweredAfterRollback) before it is thrown on. */
export async function runTransaction<T>(db: Knex, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (answeredAfterRollback(error)) await error.afterRollback();
    throw error;
  }
}

export const transactionRunner =
  (db: Knex): TransactionRunner =>
  (work) =>
    runTransaction(db, work);

/** Enqueues a graphile-worker job inside the caller's transaction, so it exists only if the write commits. */
export async function enqueueJob(
  tx: Tx | Knex,
  task: string,
  payload: object,
  options: { maxAttempts?: number } = {},
): Promise<void> {
  await tx.raw("select graphile_worker.add_job(?, ?::json, max_attempts => ?)", [
    task,
    JSON.stringify(payload),
    options.maxAttempts ?? 10,
  ]);
}

/** Many jobs of one task in a single statement (graphile-worker's add_jobs), inside the caller's transaction. */
export async function enqueueJobs(
  tx: Tx | Knex,
  task: string,
  payloads: object[],
  options: { maxAttempts?: number } = {},
): Promise<void> {
  if (!payloads.length) return;
  const specs = payloads.map((payload) => ({ identifier: task, payload, max_attempts: options.maxAttempts ?? 10 }));
  await tx.raw(
    "select graphile_worker.add_jobs(array(select json_populate_record(null::graphile_worker.job_spec, j) from json_array_elements(?::json) j))",
    [JSON.stringify(specs)],
  );
}
