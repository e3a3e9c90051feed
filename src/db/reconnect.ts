import type { Logger } from "pino";

// What every loop that reconnects to Postgres shares (docs/operations.md "Outages"): one attempt at a
// time, a jittered backoff between attempts, and an outage said once when it starts and once when it ends.

export interface BackoffOptions {
  /** The first wait's ceiling, doubled at each failure. */
  baseMs?: number;
  /** The longest wait. */
  capMs?: number;
}

/**
 * "Full jitter": a wait drawn at random up to min(cap, base × 2^attempt). Processes cut off together by one
 * restart do not all come back at the same instant, and none hammers a Postgres that is still starting.
 */
export function backoffMs(attempt: number, { baseMs = 250, capMs = 30_000 }: BackoffOptions = {}): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** Math.min(attempt, 20));
}

/** Waits `ms`, or less when `signal` aborts: a stopping process never waits out a backoff. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Waits for `work` (its failure ignored) at most `ms`; whether it settled in time. */
export async function settledWithin(ms: number, work: Promise<unknown> | null | undefined): Promise<boolean> {
  if (!work) return true;
  let timer: NodeJS.Timeout | undefined;
  const settled = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return settled;
}

/**
 * Runs `attempt` until it succeeds, one attempt at a time with a backoff before each (the first one is
 * short). Resolves true once it did, false when `signal` aborted first.
 */
export async function retryUntilDone(
  attempt: () => Promise<void>,
  options: BackoffOptions & { signal?: AbortSignal; onFailure?: (error: unknown) => void } = {},
): Promise<boolean> {
  for (let failures = 0; ; failures++) {
    await pause(backoffMs(failures, options), options.signal);
    if (options.signal?.aborted) return false;
    try {
      await attempt();
      return true;
    } catch (error) {
      if (options.signal?.aborted) return false;
      options.onFailure?.(error);
    }
  }
}

/** An outage of one connection or loop, logged once when it starts and once when it ends, with its length. */
export class Outage {
  private since: number | null = null;

  /** `lostMessage` is logged as is at the start; the end says "`what` back after N s". */
  constructor(
    private readonly log: Pick<Logger, "error" | "info">,
    private readonly what: string,
    private readonly lostMessage = `${what} lost`,
  ) {}

  get ongoing(): boolean {
    return this.since !== null;
  }

  /** The connection is gone: logged the first time only, until `back`. */
  lost(error?: unknown): void {
    if (this.since !== null) return;
    this.since = Date.now();
    this.log.error(error === undefined ? {} : { err: error }, this.lostMessage);
  }

  /** It works again: logged once, with how long it was gone. */
  back(): void {
    if (this.since === null) return;
    const seconds = (Date.now() - this.since) / 1000;
    this.since = null;
    this.log.info({ outageSeconds: seconds }, `${this.what} back after ${seconds.toFixed(1)} s`);
  }
}
