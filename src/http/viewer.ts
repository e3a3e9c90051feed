import type { Request } from "express";
import type { Viewer } from "../modules/customers/customers.service.js";

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
