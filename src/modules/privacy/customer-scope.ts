import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { QUOTE_REPORT_MAIL_TASK } from "../quotes/quotes.constants.js";
import { SHARE_MAIL_TASK } from "../sharing/sharing.constants.js";

// What the export and the erasure repositories both read: whose records they are, and the SQL that finds them.

/** The ids of everything that belongs to the customers behind one e-mail address. */
export interface CustomerScope {
  email: string;
  customerIds: number[];
  propertyIds: number[];
  bookingIds: number[];
  inspectionIds: number[];
  reportIds: number[];
  /** Shares of their reports, and shares of anyone's report sent to their e-mail. */
  shareIds: number[];
  quoteLinkIds: number[];
  /** Checkout sessions that paid for their customer records (payments carry no customer id). */
  sessionIds: string[];
}

/** The personal strings of a scope: names, e-mails, phones and street addresses as stored. */
export interface PersonalStrings {
  names: string[];
  emails: string[];
  phones: string[];
  addresses: string[];
}

export const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

export const lowerAll = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

/**
 * Queued worker jobs that are theirs, by exact values only (a neighbour's `bjo@` or `1462 …` never matches `jo@` or
 * `462 …`): a message whose recipient (`to`) is one of their e-mails, a report mail of one of their reports, a quote
 * report mail of one of their links. The public `jobs` view has no payload.
 */
export const THEIR_JOBS = `select j.id from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
  where lower(j.payload->>'to') = any(?::text[])
     or (t.identifier = ? and j.payload->>'reportId' = any(?::text[]))
     or (t.identifier = ? and j.payload->>'linkId' = any(?::text[]))`;

export const theirJobsBindings = (s: CustomerScope, emails: string[]) => [
  lowerAll(emails),
  SHARE_MAIL_TASK,
  s.reportIds.map(String),
  QUOTE_REPORT_MAIL_TASK,
  s.quoteLinkIds.map(String),
];

export async function readScope(tx: Tx | Knex, email: string): Promise<CustomerScope> {
  const customers = await tx("customers")
    .whereRaw("lower(email) = ?", [email])
    .orderBy("id")
    .select("id", "stripe_session_id");
  const customerIds = ids(customers);
  const propertyIds = ids(
    await tx("properties")
      .where((q) => q.whereIn("customer_id", customerIds).orWhereRaw("lower(client_email) = ?", [email]))
      .orderBy("id")
      .select("id"),
  );
  const bookingIds = ids(
    await tx("inspection_bookings")
      .where((q) => q.whereIn("customer_id", customerIds).orWhereIn("property_id", propertyIds))
      .orderBy("id")
      .select("id"),
  );
  const inspectionIds = ids(await tx("inspections").whereIn("property_id", propertyIds).orderBy("id").select("id"));
  const reportIds = ids(await tx("reports").whereIn("property_id", propertyIds).orderBy("id").select("id"));
  const shareIds = ids(
    await tx("report_shares")
      .where((q) => q.whereIn("report_id", reportIds).orWhereRaw("lower(client_email) = ?", [email]))
      .orderBy("id")
      .select("id"),
  );
  const quoteLinkIds = ids(
    await tx("quote_report_links")
      .where((q) => q.whereIn("property_id", propertyIds).orWhereRaw("lower(client_email) = ?", [email]))
      .orderBy("id")
      .select("id"),
  );
  const sessionIds = customers.map((c) => c.stripe_session_id as string | null).filter((s): s is string => Boolean(s));
  return { email, customerIds, propertyIds, bookingIds, inspectionIds, reportIds, shareIds, quoteLinkIds, sessionIds };
}

export async function readPersonalStrings(tx: Tx | Knex, s: CustomerScope): Promise<PersonalStrings> {
  const customers = await tx("customers").whereIn("id", s.customerIds).select("name", "email", "phone");
  const properties = await tx("properties")
    .whereIn("id", s.propertyIds)
    .select("client_name", "client_email", "client_phone", "address");
  const payments = await paymentsOf(tx, s).select("customer_name", "customer_email");
  const subscriptions = await subscriptionsOf(tx, s).select("payer_name", "payer_email");
  const list = (values: unknown[]) => [
    ...new Set(values.filter((v): v is string => typeof v === "string" && v.trim().length >= 3).map((v) => v.trim())),
  ];
  return {
    names: list([
      ...customers.map((c) => c.name),
      ...properties.map((p) => p.client_name),
      ...payments.map((p) => p.customer_name),
      ...subscriptions.map((p) => p.payer_name),
    ]),
    emails: list([
      s.email,
      ...customers.map((c) => c.email),
      ...properties.map((p) => p.client_email),
      ...payments.map((p) => p.customer_email),
      ...subscriptions.map((p) => p.payer_email),
    ]),
    phones: list([...customers.map((c) => c.phone), ...properties.map((p) => p.client_phone)]),
    addresses: list(properties.map((p) => p.address)),
  };
}

export function paymentsOf(q: Tx | Knex, s: CustomerScope) {
  return q("payments").where((w) =>
    w.whereRaw("lower(customer_email) = ?", [s.email]).orWhereIn("provider_id", s.sessionIds),
  );
}

export function subscriptionsOf(q: Tx | Knex, s: CustomerScope) {
  return q("subscriptions").where((w) =>
    w
      .whereIn("customer_id", s.customerIds)
      .orWhereIn("property_id", s.propertyIds)
      .orWhereRaw("lower(payer_email) = ?", [s.email])
      .orWhereIn("checkout_ref", s.sessionIds),
  );
}
