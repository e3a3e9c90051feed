// How a staff or customer change reaches the provider (docs/decisions.md#76): a claim
// first, under the subscription's row lock (decided on the row as it is, with the change's key), committed; then the
// provider's call with no transaction open, under an idempotency key derived from the claim; then, in a second
// transaction under the lock, the row read again and the provider's answer applied and recorded on the claim. A
// slow provider holds no connection and no lock meanwhile. A repeat of the change gets the first one's answer; a
// different change while one is pending is a 409. No answer from the provider is a 202 (pending), and the
// `subscriptions:finish-change` job settles it once the claim is stale.
import type { Logger } from "pino";
import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, HttpError } from "../../http/errors.js";
import type { AuditLog } from "../audit/index.js";
import type { BillingMailer } from "./billing-mailer.js";
import { BillingUncertainError, BillingUnavailableError, type ProviderSubscription } from "./billing-provider.js";
import type { ChangeClaim, ChangesRepository } from "./changes.repository.js";
import { loadSubscription, publicSubscription } from "./provider-state.js";
import { BillingRefusedError } from "./stripe-calls.js";
import type { SubscriptionsRepository } from "./subscriptions.repository.js";
import type { Subscription } from "./subscriptions.constants.js";

/**
 * A claim whose sender has not settled it within this many minutes is stale: its sender is gone (a crash, a
 * restart) or gave up, and the job (or the same request again) sends it again with its key. Longer than the
 * slowest change's provider calls (a few calls of 20 s each, with one retry).
 */
export const STALE_CHANGE_MINUTES = 5;
/** How long an identical request waits for the first one's answer before it answers "pending" too. */
const WAIT_FOR_FIRST_MS = 30_000;

export const CHANGE_IN_PROGRESS_MESSAGE =
  "Another change to this plan is in progress. Please try again once it is done (a minute at most).";
export const CHANGE_PENDING_MESSAGE =
  "The change is pending: the payment provider has not confirmed it yet. It is being checked, and the plan will show the outcome within a few minutes. There is no need to ask again.";

/** 202: the change was sent and not answered; the plan shows the outcome once it is settled. */
export class ChangePendingError extends HttpError {
  constructor() {
    super(202, CHANGE_PENDING_MESSAGE);
  }
}

/** A change the provider refused once something was kept (a declined upgrade): committed, then answered with `error`. */
export class Refused {
  constructor(readonly error: HttpError) {}
}

/** What names a change: its kind and target, and the client's Idempotency-Key when it sent one. */
export interface ChangeSpec {
  kind: "cancel" | "cancel_now" | "resume" | "change_plan" | "card";
  target: string;
  requestKey?: string | null;
  /** Who asks: "staff:<id>", "cli" or "customer". */
  actor: string;
}

/** The change's three parts that know the provider: SubscriptionActions. `Steps` is stored on the claim (JSON). */
export interface ChangeDriver<Steps, Sent> {
  send(sub: ProviderSubscription, steps: Steps, key: string): Promise<Sent>;
  apply(
    sub: ProviderSubscription,
    steps: Steps,
    sent: Sent,
    tx: Tx,
    ctx: { actor: string; now: Date },
  ): Promise<Subscription | Refused>;
  /** The job's read back: the provider's state when it shows the change made, else null (send it again). */
  readBack(sub: ProviderSubscription, steps: Steps): Promise<Sent | null>;
}

export interface ChangeRunnerDeps {
  repo: SubscriptionsRepository;
  changes: ChangesRepository;
  mailer: Pick<BillingMailer, "planName">;
  transaction: TransactionRunner;
  log: Logger;
  audit: Pick<AuditLog, "record">;
}

type Claimed =
  | { claim: ChangeClaim }
  | { answered: ChangeClaim }
  | { waiting: ChangeClaim }
  | { nothing: Subscription };

const staleBefore = (now: Date) => new Date(now.getTime() - STALE_CHANGE_MINUTES * 60_000);

export class ChangeRunner<Steps, Sent> {
  constructor(
    private readonly deps: ChangeRunnerDeps,
    private readonly driver: ChangeDriver<Steps, Sent>,
  ) {}

  /**
   * The change's key names the subscription, the kind and target, and the client's Idempotency-Key or else the
   * version the request saw: two identical requests sent together share it, and the second gets the first's answer.
   * `decide` runs under the lock: it refuses (throws), answers at once (nothing to do), or says what to send.
   */
  async run(
    id: number,
    spec: ChangeSpec,
    decide: (sub: ProviderSubscription, tx: Tx) => Promise<{ steps: Steps } | { answer: Subscription }>,
    now: Date,
  ): Promise<Subscription> {
    const { repo, changes, transaction, mailer } = this.deps;
    const seen = await loadSubscription(repo, id);
    // Warmed outside the transaction (it reads the plan names once per process).
    await mailer.planName(seen.planType);
    const key = this.keyOf(spec, seen);
    const claimed: Claimed = await transaction(async (tx) => {
      await changes.lock(id, tx);
      const existing = await changes.claimByKey(key, tx);
      if (existing?.status === "done") return { answered: existing };
      if (existing?.status === "pending") {
        // Its sender gave up or is gone: this request sends it again, with its key.
        const taken = await changes.takeOver(existing.id, staleBefore(new Date()), tx);
        return taken ? { claim: taken } : { waiting: existing };
      }
      if (await changes.pendingOf(id, tx)) throw new ConflictError(CHANGE_IN_PROGRESS_MESSAGE);
      const sub = (await repo.find(id, tx))!;
      const decided = await decide(sub, tx);
      if ("answer" in decided) {
        await changes.record(id, { key, statusCode: 200, response: decided.answer }, tx);
        await this.audited(spec, id, sub, decided.answer, tx);
        return { nothing: decided.answer };
      }
      const claim = await changes.claim(id, { key, kind: spec.kind, actor: spec.actor, steps: decided.steps }, tx);
      await changes.queueFinish(claim.id, STALE_CHANGE_MINUTES * 60, tx);
      return { claim };
    });
    if ("nothing" in claimed) return claimed.nothing;
    if ("answered" in claimed) return this.answerOf(claimed.answered);
    if ("waiting" in claimed) return this.waitFor(claimed.waiting.id);
    return this.drive(claimed.claim, now);
  }

  /** A change with no provider call (the demo's card): decided and written in one transaction under the lock. */
  async runLocal(
    id: number,
    spec: ChangeSpec,
    work: (sub: ProviderSubscription, tx: Tx) => Promise<unknown>,
  ): Promise<Subscription> {
    const { repo, changes } = this.deps;
    const key = this.keyOf(spec, await loadSubscription(repo, id));
    return this.deps.transaction(async (tx) => {
      await changes.lock(id, tx);
      const first = await changes.answer(key, tx);
      if (first) return first.response as Subscription;
      const sub = (await repo.find(id, tx))!;
      await work(sub, tx);
      const answer = publicSubscription((await repo.find(id, tx))!);
      await changes.record(id, { key, statusCode: 200, response: answer }, tx);
      await this.audited(spec, id, sub, answer, tx);
      return answer;
    });
  }

  private keyOf(spec: ChangeSpec, seen: Subscription): string {
    const name = `sub:${seen.id}:${spec.kind}:${spec.target}`;
    return `${name}:${spec.requestKey ? `key:${spec.requestKey}` : `v${seen.version}`}`;
  }

  /**
   * The `subscriptions:finish-change` job: a claim still pending once stale is read back at the provider (made:
   * its state is applied) or sent again with its key, then applied. Throws while it is left pending, so the worker
   * tries again with its backoff. `now` is the job's clock.
   */
  async finish(changeId: number, now: Date): Promise<void> {
    const { changes, transaction } = this.deps;
    const claim = await transaction((tx) => changes.claimById(changeId, tx));
    if (claim?.status !== "pending") return;
    const taken = await transaction((tx) => changes.takeOver(changeId, staleBefore(now), tx));
    if (!taken) throw new Error(`Subscription change ${changeId} is still being sent`);
    const sub = await loadSubscription(this.deps.repo, taken.subscriptionId);
    let sent: Sent;
    try {
      const steps = taken.steps as Steps;
      sent = (await this.driver.readBack(sub, steps)) ?? (await this.driver.send(sub, steps, taken.key));
    } catch (error) {
      const refused =
        error instanceof BillingRefusedError ||
        (error instanceof HttpError &&
          !(error instanceof BillingUnavailableError || error instanceof BillingUncertainError));
      if (!refused) {
        await transaction((tx) => changes.release(changeId, (error as Error).message, tx));
        throw error;
      }
      await this.failed(taken, error as HttpError);
      this.deps.log.warn({ change: changeId, err: error }, "the provider refused a pending change: nothing changed");
      return;
    }
    try {
      await this.store(taken, sent, now);
    } catch (error) {
      // An answer (a declined upgrade) is settled on the claim: nothing is left to do.
      if (!(error instanceof HttpError) || error instanceof ChangePendingError) throw error;
    }
  }

  /** Sends a claim with no transaction open, then stores the provider's answer. */
  private async drive(claim: ChangeClaim, now: Date): Promise<Subscription> {
    const sub = await loadSubscription(this.deps.repo, claim.subscriptionId);
    let sent: Sent;
    try {
      sent = await this.driver.send(sub, claim.steps as Steps, claim.key);
    } catch (error) {
      if (error instanceof HttpError && !(error instanceof BillingUncertainError)) {
        // Refused, or not sent at all: nothing changed, and the same request may try again.
        await this.failed(claim, error);
        throw error;
      }
      await this.deps.transaction((tx) => this.deps.changes.release(claim.id, (error as Error).message, tx));
      if (error instanceof BillingUncertainError) throw new ChangePendingError();
      throw error;
    }
    return this.store(claim, sent, now);
  }

  /** The provider's answer applied under the lock, on the row read again, and recorded on the claim (once). */
  private async store(claim: ChangeClaim, sent: Sent, now: Date): Promise<Subscription> {
    const { repo, changes } = this.deps;
    const id = claim.subscriptionId;
    const actor = claim.actor ?? "system";
    type Stored = { settled: ChangeClaim | null } | { answer: Subscription } | Refused;
    const outcome = await this.deps.transaction(async (tx): Promise<Stored> => {
      await changes.lock(id, tx);
      const current = await changes.claimById(claim.id, tx);
      // Settled meanwhile (the job, or a repeat that took it over): its answer stands.
      if (current?.status !== "pending") return { settled: current };
      const sub = (await repo.find(id, tx))!;
      const done = await this.driver.apply(sub, claim.steps as Steps, sent, tx, { actor, now });
      if (done instanceof Refused) {
        await changes.settle(claim.id, refusal(done.error), tx);
        return done;
      }
      const answer = publicSubscription((await repo.find(id, tx))!);
      await changes.settle(claim.id, { status: "done", statusCode: 200, response: answer }, tx);
      await this.audited({ kind: claim.kind as ChangeSpec["kind"], actor }, id, sub, answer, tx);
      return { answer };
    });
    if (outcome instanceof Refused) throw outcome.error;
    return "answer" in outcome ? outcome.answer : this.answerOf(outcome.settled);
  }

  /** A staff or CLI change is one audit event (docs/decisions.md#39); a customer's own is not. */
  private async audited(
    spec: Pick<ChangeSpec, "kind" | "actor">,
    id: number,
    before: ProviderSubscription,
    after: Subscription,
    tx: Tx,
  ) {
    if (spec.actor === "customer") return;
    await this.deps.audit.record(tx, {
      actor: spec.actor,
      action: `subscription.${spec.kind}`,
      recordType: "subscription",
      recordId: id,
      before: publicSubscription(before),
      after,
    });
  }

  private async failed(claim: ChangeClaim, error: HttpError): Promise<void> {
    await this.deps.transaction((tx) => this.deps.changes.settle(claim.id, refusal(error), tx));
  }

  /** Waits (holding nothing) for the first identical request's answer; still pending after a while, says so. */
  private async waitFor(changeId: number): Promise<Subscription> {
    const until = Date.now() + WAIT_FOR_FIRST_MS;
    for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
      const claim = await this.deps.transaction((tx) => this.deps.changes.claimById(changeId, tx));
      if (claim?.status !== "pending" || !claim.sendingSince || Date.now() >= until) return this.answerOf(claim);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** A claim's answer: the subscription once done; the refusal once failed; pending while it is. */
  private answerOf(claim: ChangeClaim | null | undefined): Subscription {
    if (claim?.status === "done") return claim.response as Subscription;
    if (claim?.status === "failed") {
      const message = (claim.response as { message?: string }).message ?? "Nothing was changed.";
      throw claim.statusCode === 409 ? new ConflictError(message) : new HttpError(claim.statusCode, message);
    }
    throw new ChangePendingError();
  }
}

const refusal = (error: HttpError) => ({
  status: "failed" as const,
  statusCode: error.status,
  response: { message: error.message },
  error: error.message,
});
