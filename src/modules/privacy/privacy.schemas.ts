import { z } from "zod";

// Zod schemas and shapes of the privacy module. Nothing from the server here.

/** The e-mail that identifies a customer for `haven customers export|erase`. Compared case-blind. */
export const customerEmailSchema = z
  .string({ message: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .email("Enter a valid email address")
  .transform((email) => email.toLowerCase());

/** A row as Postgres holds it: every column, snake_case, so an export never misses a column added later. */
export type Row = Record<string, unknown>;

/** Every record Haven holds on one customer (the people behind one e-mail address). */
export interface CustomerExport {
  email: string;
  exportedAt: string;
  customers: Row[];
  properties: Row[];
  bookings: Row[];
  /** Each inspection with its entries (and the ids of their photos). */
  inspections: (Row & { entries: Row[]; photos: Row[] })[];
  reports: Row[];
  shares: { reportShares: Row[]; clientResponses: Row[]; quoteReportLinks: Row[] };
  /** Quote requests, each with its invoices (an accepted quote's). */
  quotes: Row[];
  tasks: { tasks: Row[]; schedules: Row[] };
  payments: Row[];
  /** Subscriptions with their invoices and events. */
  subscriptions: Row[];
  /** E-mails sent: the reminders (one row each), and any message still queued for them. */
  emails: { reminders: Row[]; queued: Row[] };
  /** My Home sign-in: when they last signed in, their sessions and passkeys; never a hash or a key. */
  myHome: { accounts: Row[]; sessions: Row[]; passkeys: Row[] };
}

/** What `erase` changed, table by table (rows updated or deleted). */
export interface EraseResult {
  email: string;
  customerIds: number[];
  changed: Record<string, number>;
}

/** What the daily purge removed, table by table. */
export interface PurgeResult {
  asOf: string;
  deleted: Record<string, number>;
}
