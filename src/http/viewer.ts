import type { Request } from "express";
import type { Viewer } from "../modules/customers/customers.constants.js";
import { type Submission, idempotencyKeyOf } from "../db/idempotency.js";

/** Staff see all records; a customer browser sees the customers its session cookie names. */
export function viewerOf(req: Request): Viewer {
  if (req.session.staffUserId) return { kind: "staff" };
  return { kind: "customer", customerIds: req.session.customerIds ?? [] };
}

/** Remembers in the session cookie that this browser created this customer. */
export async function rememberCustomer(req: Request, customerId: number): Promise<void> {
  const ids = new Set(req.session.customerIds ?? []);
  ids.add(customerId);
  // Keep the cookie small: the most recent customers are enough for one browser.
  req.session.customerIds = [...ids].slice(-20);
  await req.session.save();
}

/**
 * What makes a customer submission the same one again: the browser's Idempotency-Key, or else the
 * payload together with the records this browser may already see (so two browsers never share a result).
 */
export function submissionOf(req: Request, payload: unknown): Submission {
  const seen = [...(req.session.customerIds ?? [])].sort((a, b) => a - b);
  return {
    key: idempotencyKeyOf(req.get("idempotency-key")),
    payload,
    viewer: { seen, staff: req.session.staffUserId ?? null },
  };
}
