// One change at a time (docs/decisions.md#35): the row locks every change takes first, and the first answer given
// to each change (subscription_changes), so a repeat gets it again. A staff or customer change is first a claim
// (pending), written under the lock before the provider is called with no transaction open (change-runner.ts).
import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { SubscriptionProvider } from "./subscriptions.constants.js";

type Db = Knex | Tx;

/** The job that settles a change the provider did not answer (change-runner.ts). */
export const SUBSCRIPTIONS_FINISH_CHANGE_TASK = "subscriptions:finish-change";

/** A change's claim: what was decided, under which key, and where it stands. */
export interface ChangeClaim {
  id: number;
  subscriptionId: number;
  key: string;
  status: "pending" | "done" | "failed";
  statusCode: number;
  response: unknown;
  kind: string | null;
  actor: string | null;
  steps: unknown;
  attempts: number;
  /** When a request or the job started sending it; null while nobody is. */
  sendingSince: Date | null;
  lastError: string | null;
}

const toClaim = (row: Record<string, unknown>): ChangeClaim => ({
  id: Number(row.id),
  subscriptionId: row.subscription_id as number,
  key: row.change_key as string,
  status: row.status as ChangeClaim["status"],
  statusCode: row.status_code as number,
  response: row.response,
  kind: (row.kind as string | null) ?? null,
  actor: (row.actor as string | null) ?? null,
  steps: row.steps ?? null,
  attempts: row.attempts as number,
  sendingSince: row.sending_since ? new Date(row.sending_since as string) : null,
  lastError: (row.last_error as string | null) ?? null,
});

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
    const row = await tx("subscription_changes").where({ change_key: key, status: "done" }).first();
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

  async claimByKey(key: string, db: Db): Promise<ChangeClaim | null> {
    const row = await db("subscription_changes").where({ change_key: key }).first();
    return row ? toClaim(row) : null;
  }

  async claimById(id: number, db: Db): Promise<ChangeClaim | null> {
    const row = await db("subscription_changes").where({ id }).first();
    return row ? toClaim(row) : null;
  }

  /** The subscription's pending claim, if any (there is at most one). */
  async pendingOf(subscriptionId: number, tx: Tx): Promise<ChangeClaim | null> {
    const row = await tx("subscription_changes").where({ subscription_id: subscriptionId, status: "pending" }).first();
    return row ? toClaim(row) : null;
  }

  /**
   * Claims a change in the caller's transaction (it holds the row's lock), being sent from now: a new row, or the
   * failed claim of the same key taken up again.
   */
  async claim(
    subscriptionId: number,
    change: { key: string; kind: string; actor: string; steps: unknown },
    tx: Tx,
  ): Promise<ChangeClaim> {
    const fields = {
      status: "pending",
      status_code: 202,
      response: JSON.stringify({}),
      kind: change.kind,
      actor: change.actor,
      steps: JSON.stringify(change.steps),
      sending_since: tx.fn.now(),
      last_error: null,
      updated_at: tx.fn.now(),
    };
    const [row] = await tx("subscription_changes")
      .insert({ subscription_id: subscriptionId, change_key: change.key, attempts: 1, ...fields })
      .onConflict("change_key")
      .merge({ ...fields, attempts: tx.raw("subscription_changes.attempts + 1") })
      .returning("*");
    return toClaim(row);
  }

  /**
   * A pending claim nobody is sending (its sender gave up, or started before `staleBefore`) taken over for one more
   * try; null when it is settled or being sent.
   */
  async takeOver(id: number, staleBefore: Date, db: Db): Promise<ChangeClaim | null> {
    const [row] = await db("subscription_changes")
      .where({ id, status: "pending" })
      .where((q) => q.whereNull("sending_since").orWhere("sending_since", "<", staleBefore))
      .update({ sending_since: db.fn.now(), attempts: db.raw("attempts + 1"), updated_at: db.fn.now() })
      .returning("*");
    return row ? toClaim(row) : null;
  }

  /** A try with no answer: still pending, nobody sending it; the job or a repeat sends it again. */
  async release(id: number, error: string, db: Db): Promise<void> {
    await db("subscription_changes")
      .where({ id, status: "pending" })
      .update({ sending_since: null, last_error: error.slice(0, 500), updated_at: db.fn.now() });
  }

  /** Settled: `done` with the answer repeats get, or `failed` (nothing changed; the same request may try again). */
  async settle(
    id: number,
    outcome: { status: "done" | "failed"; statusCode: number; response: unknown; error?: string },
    db: Db,
  ): Promise<void> {
    await db("subscription_changes")
      .where({ id })
      .update({
        status: outcome.status,
        status_code: outcome.statusCode,
        response: JSON.stringify(outcome.response),
        sending_since: null,
        last_error: outcome.error?.slice(0, 500) ?? null,
        updated_at: db.fn.now(),
      });
  }

  /**
   * The job that settles the claim if its sender does not, queued with the claim (it exists only if the claim
   * does) to run once the claim is stale; one per claim (its job key).
   */
  async queueFinish(id: number, afterSeconds: number, tx: Tx): Promise<void> {
    await tx.raw(
      `select graphile_worker.add_job(?, json_build_object('changeId', ?::bigint), run_at => now() + make_interval(secs => ?),
              max_attempts => 25, job_key => ?)`,
      [SUBSCRIPTIONS_FINISH_CHANGE_TASK, id, afterSeconds, `subscription-change:${id}`],
    );
  }
}
