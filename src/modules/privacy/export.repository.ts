import type { Knex } from "knex";
import {
  type CustomerScope,
  THEIR_JOBS,
  ids,
  paymentsOf,
  readPersonalStrings,
  readScope,
  subscriptionsOf,
  theirJobsBindings,
} from "./customer-scope.js";
import type { Row } from "./privacy.schemas.js";

/** The SQL of a customer's export: reads every record of theirs, changes nothing. */
export class ExportRepository {
  constructor(private readonly db: Knex) {}

  scope(email: string): Promise<CustomerScope> {
    return readScope(this.db, email);
  }

  customers(s: CustomerScope): Promise<Row[]> {
    return this.db("customers").whereIn("id", s.customerIds).orderBy("id");
  }

  properties(s: CustomerScope): Promise<Row[]> {
    return this.db("properties").whereIn("id", s.propertyIds).orderBy("id");
  }

  bookings(s: CustomerScope): Promise<Row[]> {
    return this.db("inspection_bookings").whereIn("id", s.bookingIds).orderBy("id");
  }

  inspections(s: CustomerScope): Promise<Row[]> {
    return this.db("inspections").whereIn("id", s.inspectionIds).orderBy("id");
  }

  entries(s: CustomerScope): Promise<Row[]> {
    return this.db("inspection_entries").whereIn("inspection_id", s.inspectionIds).orderBy("id");
  }

  /** Which photo each entry shows (the image bytes stay in the photos table; staff can export them by id). */
  entryPhotos(s: CustomerScope): Promise<Row[]> {
    return this.db("inspection_entry_photos as p")
      .join("inspection_entries as e", "e.id", "p.entry_id")
      .whereIn("e.inspection_id", s.inspectionIds)
      .orderBy("p.id")
      .select("p.*", "e.inspection_id");
  }

  reports(s: CustomerScope): Promise<Row[]> {
    return this.db("reports").whereIn("id", s.reportIds).orderBy("id");
  }

  reportShares(s: CustomerScope): Promise<Row[]> {
    return this.db("report_shares").whereIn("id", s.shareIds).orderBy("id");
  }

  clientResponses(s: CustomerScope): Promise<Row[]> {
    return this.db("client_responses").whereIn("share_id", s.shareIds).orderBy("id");
  }

  quoteReportLinks(s: CustomerScope): Promise<Row[]> {
    return this.db("quote_report_links").whereIn("id", s.quoteLinkIds).orderBy("id");
  }

  /** Their quote requests, each with its invoice once accepted (docs/decisions.md#43); never the pay link's hash. */
  async quotes(s: CustomerScope): Promise<Row[]> {
    const quotes = await this.db("quote_requests").whereIn("property_id", s.propertyIds).orderBy("id");
    const invoices = await this.db("invoices")
      .whereIn(
        "quote_request_id",
        quotes.map((q) => q.id),
      )
      .orderBy("id");
    return quotes.map((quote) => ({
      ...quote,
      invoices: invoices
        .filter((i) => i.quote_request_id === quote.id)
        .map(({ pay_token_hash: _hash, ...invoice }) => invoice),
    }));
  }

  tasks(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_tasks").whereIn("property_id", s.propertyIds).orderBy("id");
  }

  schedules(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_schedules").whereIn("property_id", s.propertyIds).orderBy("id");
  }

  payments(s: CustomerScope): Promise<Row[]> {
    return paymentsOf(this.db, s).orderBy("id");
  }

  /** Their subscriptions, each with its invoices and events. */
  async subscriptions(s: CustomerScope): Promise<Row[]> {
    const subs = await subscriptionsOf(this.db, s).orderBy("id");
    const subIds = ids(subs);
    const [invoices, events] = await Promise.all([
      this.db("invoices").whereIn("subscription_id", subIds).orderBy("id"),
      this.db("subscription_events").whereIn("subscription_id", subIds).orderBy("id"),
    ]);
    return subs.map((sub) => ({
      ...sub,
      invoices: invoices.filter((i) => i.subscription_id === sub.id),
      events: events.filter((e) => e.subscription_id === sub.id),
    }));
  }

  reminders(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_reminders").whereRaw("lower(email) = ?", [s.email]).orderBy("sent_at");
  }

  /** Messages for them still waiting in the worker's queue (sent ones leave the queue). */
  async queuedMail(s: CustomerScope): Promise<Row[]> {
    const { emails } = await readPersonalStrings(this.db, s);
    const { rows } = await this.db.raw(
      `select j.id, t.identifier as task_identifier, j.payload, j.run_at, j.attempts, j.last_error, j.created_at
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where j.id in (${THEIR_JOBS}) order by j.id`,
      theirJobsBindings(s, emails),
    );
    return rows;
  }

  /** My Home sign-in state of the e-mail, without token hashes or passkey public keys. */
  async myHome(s: CustomerScope): Promise<{ accounts: Row[]; sessions: Row[]; passkeys: Row[] }> {
    const [accounts, sessions, passkeys] = await Promise.all([
      this.db("home_accounts").where({ email: s.email }).select("email", "created_at", "last_signed_in_at"),
      this.db("home_sessions")
        .where({ email: s.email })
        .orderBy("id")
        .select("id", "method", "created_at", "last_seen_at", "expires_at", "revoked_at"),
      this.db("home_passkeys")
        .where({ email: s.email })
        .orderBy("id")
        .select("id", "name", "created_at", "last_used_at"),
    ]);
    return { accounts, sessions, passkeys };
  }
}
