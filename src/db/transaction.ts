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
