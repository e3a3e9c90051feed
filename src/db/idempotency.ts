import { createHash } from "node:crypto";
import type { Knex } from "knex";
import { ConflictError } from "../http/errors.js";
import { type Tx, runTransaction } from "./transaction.js";

/** How long a submission's outcome is remembered for replays. */
export const IDEMPOTENCY_WINDOW_HOURS = 24;
export const KEY_REUSED_MESSAGE = "This Idempotency-Key was already used for a different submission";

/** A stable hash of a JSON payload: the same fields in any order hash alike. */
export function payloadHash(payload: unknown): string {
  const canonical = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(canonical);
    if (value && typeof value === "object") {
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
      );
    }
    return value;
  };
  return createHash("sha256")
    .update(JSON.stringify(canonical(payload) ?? null))
    .digest("hex");
}

export interface Submission {
  /** The browser's Idempotency-Key header, if it sent one; otherwise the payload and the viewer are the key. */
  key: string | undefined;
  payload: unknown;
  /** Who submits (the records the browser may see): part of the natural key, so two browsers never share a result. */
  viewer: unknown;
}

/**
 * Runs a submission once: repeated identical submissions, even concurrent ones, get the first
 * one's result. The key is the browser's Idempotency-Key when given, else the payload's hash (a natural
 * key: the very same booking twice is one booking). An advisory lock on the key serialises duplicates, and
 * the work and its remembered result commit in one transaction, so nothing is done twice or half.
 * A repeat after success has another natural key (the browser now sees the customer it created), so the
 * work itself must recognise it: the wizard and onboarding find this browser's customer and home and give
 * the first booking back (BookingsService.bookOnce).
 */
export class IdempotencyService {
  constructor(private readonly db: Knex) {}

  async run<T>(
    scope: string,
    submission: Submission,
    work: (tx: Tx) => Promise<T>,
  ): Promise<{ result: T; replayed: boolean; byBrowserKey: boolean }> {
    const requestHash = payloadHash(submission.payload);
    const byBrowserKey = Boolean(submission.key);
    const key = submission.key ?? payloadHash({ payload: submission.payload, viewer: submission.viewer });
    return runTransaction(this.db, async (tx) => {
      await tx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`${scope}:${key}`]);
      const seen = await tx("idempotency_keys")
        .where({ scope, key })
        .where("created_at", ">", tx.raw(`now() - interval '${IDEMPOTENCY_WINDOW_HOURS} hours'`))
        .first("request_hash", "response");
      if (seen) {
        if (seen.request_hash !== requestHash) throw new ConflictError(KEY_REUSED_MESSAGE);
        return { result: seen.response as T, replayed: true, byBrowserKey };
      }
      const result = await work(tx);
      await tx("idempotency_keys")
        .insert({ scope, key, request_hash: requestHash, response: JSON.stringify(result) })
        .onConflict(["scope", "key"])
        .merge();
      return { result, replayed: false, byBrowserKey };
    });
  }
}

/** The Idempotency-Key header when it is a sensible token (1–200 visible ASCII characters). */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  return header && /^[\x21-\x7e]{1,200}$/.test(header) ? header : undefined;
}
