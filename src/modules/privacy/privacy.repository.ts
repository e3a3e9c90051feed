import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { QUOTE_REPORT_MAIL_TASK } from "../quotes/quotes.constants.js";
import { SHARE_MAIL_TASK } from "../sharing/sharing.constants.js";
import type { Row } from "./privacy.schemas.js";

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

/**
 * Tables that hold expiring homeowner sign-in state once the `home` module exists (docs/decisions.md#28).
 * Each is purged only when present; the columns it has decide what "spent" means.
 */
export const HOME_SIGN_IN_TABLES = ["home_sign_in_tokens", "home_sessions", "home_webauthn_challenges"] as const;

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

/**
 * Queued worker jobs that are theirs, by exact values only (a neighbour's `bjo@` or `1462 …` never matches `jo@` or
 * `462 …`): a message whose recipient (`to`) is one of their e-mails, a report mail of one of their reports, a quote
 * report mail of one of their links. The public `jobs` view has no payload.
 */
const THEIR_JOBS = `select j.id from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
  where lower(j.payload->>'to') = any(?::text[])
     or (t.identifier = ? and j.payload->>'reportId' = any(?::text[]))
     or (t.identifier = ? and j.payload->>'linkId' = any(?::text[]))`;

const theirJobsBindings = (s: CustomerScope, emails: string[]) => [lowerAll(emails), SHARE_MAIL_TASK, s.reportIds.map(String), QUOTE_REPORT_MAIL_TASK, s.quoteLinkIds.map(String)];
const lowerAll = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()))];

/** The SQL of privacy: reads a customer's records, replaces their personal data, purges expired rows. */
export class PrivacyRepository {
  constructor(private readonly db: Knex) {}

  async scope(email: string, tx: Tx | Knex = this.db): Promise<CustomerScope> {
    const customers = await tx("customers").whereRaw("lower(email) = ?", [email]).orderBy("id").select("id", "stripe_session_id");
    const customerIds = ids(customers);
    const propertyIds = ids(
      await tx("properties").where((q) => q.whereIn("customer_id", customerIds).orWhereRaw("lower(client_email) = ?", [email])).orderBy("id").select("id"),
    );
    const bookingIds = ids(
      await tx("inspection_bookings").where((q) => q.whereIn("customer_id", customerIds).orWhereIn("property_id", propertyIds)).orderBy("id").select("id"),
    );
    const inspectionIds = ids(await tx("inspections").whereIn("property_id", propertyIds).orderBy("id").select("id"));
    const reportIds = ids(await tx("reports").whereIn("property_id", propertyIds).orderBy("id").select("id"));
    const shareIds = ids(
      await tx("report_shares").where((q) => q.whereIn("report_id", reportIds).orWhereRaw("lower(client_email) = ?", [email])).orderBy("id").select("id"),
    );
    const quoteLinkIds = ids(
      await tx("quote_report_links").where((q) => q.whereIn("property_id", propertyIds).orWhereRaw("lower(client_email) = ?", [email])).orderBy("id").select("id"),
    );
    const sessionIds = customers.map((c) => c.stripe_session_id as string | null).filter((s): s is string => Boolean(s));
    return { email, customerIds, propertyIds, bookingIds, inspectionIds, reportIds, shareIds, quoteLinkIds, sessionIds };
  }

  // ---------- reading ----------

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

  quotes(s: CustomerScope): Promise<Row[]> {
    return this.db("quote_requests").whereIn("property_id", s.propertyIds).orderBy("id");
  }

  tasks(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_tasks").whereIn("property_id", s.propertyIds).orderBy("id");
  }

  schedules(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_schedules").whereIn("property_id", s.propertyIds).orderBy("id");
  }

  payments(s: CustomerScope): Promise<Row[]> {
    return this.paymentsOf(this.db, s).orderBy("id");
  }

  /** Their subscriptions, each with its invoices and events. */
  async subscriptions(s: CustomerScope): Promise<Row[]> {
    const subs = await this.subscriptionsOf(this.db, s).orderBy("id");
    const subIds = ids(subs);
    const [invoices, events] = await Promise.all([
      this.db("invoices").whereIn("subscription_id", subIds).orderBy("id"),
      this.db("subscription_events").whereIn("subscription_id", subIds).orderBy("id"),
    ]);
    return subs.map((sub) => ({ ...sub, invoices: invoices.filter((i) => i.subscription_id === sub.id), events: events.filter((e) => e.subscription_id === sub.id) }));
  }

  /** Billing records stay (amounts, periods, provider ids), with the payer's name, e-mail and reason replaced. */
  eraseSubscriptions(tx: Tx, s: CustomerScope, placeholder: { name: string; email: string }): Promise<number> {
    return this.subscriptionsOf(tx, s).update({ payer_name: placeholder.name, payer_email: placeholder.email, cancellation_reason: null, updated_at: tx.fn.now() });
  }

  private subscriptionsOf(q: Tx | Knex, s: CustomerScope) {
    return q("subscriptions").where((w) =>
      w.whereIn("customer_id", s.customerIds).orWhereIn("property_id", s.propertyIds).orWhereRaw("lower(payer_email) = ?", [s.email]).orWhereIn("checkout_ref", s.sessionIds),
    );
  }

  reminders(s: CustomerScope): Promise<Row[]> {
    return this.db("maintenance_reminders").whereRaw("lower(email) = ?", [s.email]).orderBy("sent_at");
  }

  /** Messages for them still waiting in the worker's queue (sent ones leave the queue). */
  async queuedMail(s: CustomerScope): Promise<Row[]> {
    const { emails } = await this.personalStrings(this.db, s);
    const { rows } = await this.db.raw(
      `select j.id, t.identifier as task_identifier, j.payload, j.run_at, j.attempts, j.last_error, j.created_at
         from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where j.id in (${THEIR_JOBS}) order by j.id`,
      theirJobsBindings(s, emails),
    );
    return rows;
  }

  async personalStrings(tx: Tx | Knex, s: CustomerScope): Promise<PersonalStrings> {
    const customers = await tx("customers").whereIn("id", s.customerIds).select("name", "email", "phone");
    const properties = await tx("properties").whereIn("id", s.propertyIds).select("client_name", "client_email", "client_phone", "address");
    const payments = await this.paymentsOf(tx, s).select("customer_name", "customer_email");
    const subscriptions = await this.subscriptionsOf(tx, s).select("payer_name", "payer_email");
    const list = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === "string" && v.trim().length >= 3).map((v) => v.trim()))];
    return {
      names: list([...customers.map((c) => c.name), ...properties.map((p) => p.client_name), ...payments.map((p) => p.customer_name), ...subscriptions.map((p) => p.payer_name)]),
      emails: list([s.email, ...customers.map((c) => c.email), ...properties.map((p) => p.client_email), ...payments.map((p) => p.customer_email), ...subscriptions.map((p) => p.payer_email)]),
      phones: list([...customers.map((c) => c.phone), ...properties.map((p) => p.client_phone)]),
      addresses: list(properties.map((p) => p.address)),
    };
  }

  // ---------- erasing (inside the caller's transaction) ----------

  /** Locks their customer rows, so two erasures of one person run one after the other. */
  async lockCustomers(tx: Tx, customerIds: number[]): Promise<void> {
    await tx("customers").whereIn("id", customerIds).forUpdate().select("id");
  }

  eraseCustomers(tx: Tx, s: CustomerScope): Promise<number> {
    return tx("customers")
      .whereIn("id", s.customerIds)
      .update({
        name: tx.raw("'Erased customer #' || id"),
        email: tx.raw("'erased-' || id || '@invalid'"),
        phone: null,
        updated_at: tx.fn.now(),
      });
  }

  /** The property keeps what describes the house (staff still need it); who lives there, and where, goes. */
  eraseProperties(tx: Tx, s: CustomerScope): Promise<number> {
    return tx("properties")
      .whereIn("id", s.propertyIds)
      .update({
        client_name: tx.raw("'Erased customer #' || customer_id"),
        client_email: tx.raw("'erased-' || customer_id || '@invalid'"),
        client_phone: null,
        address: "Erased",
        postal_code: "Erased",
        notes: null,
        occupation: null,
        household_income: null,
        household_size: null,
        financing_type: null,
        ownership_type: null,
        updated_at: tx.fn.now(),
      });
  }

  eraseBookings(tx: Tx, s: CustomerScope): Promise<number> {
    return tx("inspection_bookings")
      .whereIn("id", s.bookingIds)
      .update({ access_code: null, access_instructions: null, special_requests: null, notes: null });
  }

  /** Reports stay for staff: the client's name, e-mail and street address in the snapshot are replaced. */
  async eraseReports(tx: Tx, s: CustomerScope): Promise<number> {
    if (!s.reportIds.length) return 0;
    // A snapshot may be stored as a JSON string (staff-side §3): read it as an object first.
    const { rowCount } = await tx.raw(
      `update reports r set report_data = d.data || jsonb_build_object('property', coalesce(d.data->'property', '{}'::jsonb) || jsonb_build_object(
           'clientName', 'Erased customer #' || p.customer_id, 'clientEmail', 'erased-' || p.customer_id || '@invalid', 'address', 'Erased', 'postalCode', null))
         from (select id, case when jsonb_typeof(report_data) = 'string' then (report_data #>> '{}')::jsonb else report_data end as data from reports where id = any(?)) d,
              properties p
        where r.id = d.id and p.id = r.property_id`,
      [s.reportIds],
    );
    return rowCount ?? 0;
  }

  /** Their links stop working and forget the address they went to. */
  async eraseLinks(tx: Tx, s: CustomerScope): Promise<{ reportShares: number; quoteReportLinks: number }> {
    const reportShares = await tx("report_shares")
      .whereIn("id", s.shareIds)
      .update({ client_email: tx.raw("'erased-share-' || id || '@invalid'"), revoked: true });
    const quoteReportLinks = await tx("quote_report_links")
      .whereIn("id", s.quoteLinkIds)
      .update({ client_email: tx.raw("'erased-link-' || id || '@invalid'"), revoked: true });
    return { reportShares, quoteReportLinks };
  }

  /** What the client wrote in their answers. */
  async eraseClientNotes(tx: Tx, s: CustomerScope): Promise<{ clientResponses: number; quoteRequests: number }> {
    const clientResponses = await tx("client_responses").whereIn("share_id", s.shareIds).whereNotNull("notes").update({ notes: null });
    const quoteRequests = await tx("quote_requests").whereIn("property_id", s.propertyIds).whereNotNull("client_notes").update({ client_notes: null });
    return { clientResponses, quoteRequests };
  }

  /** Financial records are kept (amounts, dates, provider ids), with the payer's name and e-mail replaced. */
  erasePayments(tx: Tx, s: CustomerScope, placeholder: { name: string; email: string }): Promise<number> {
    return this.paymentsOf(tx, s).update({ customer_name: placeholder.name, customer_email: placeholder.email, updated_at: tx.fn.now() });
  }

  eraseReminders(tx: Tx, s: CustomerScope, placeholderEmail: string): Promise<number> {
    return tx("maintenance_reminders").whereRaw("lower(email) = ?", [s.email]).update({ email: placeholderEmail });
  }

  /**
   * Free text staff wrote (notes, task titles) keeps its meaning with the person's strings cut out. The strings
   * are matched case-blind as literal text (regex characters escaped).
   */
  async scrubFreeText(tx: Tx, s: CustomerScope, strings: string[]): Promise<Record<string, number>> {
    if (!strings.length) return {};
    const pattern = strings.map(escapeRegex).join("|");
    const targets: { table: string; columns: string[]; where: [string, number[]] }[] = [
      { table: "inspections", columns: ["notes"], where: ["id", s.inspectionIds] },
      { table: "inspection_entries", columns: ["notes"], where: ["inspection_id", s.inspectionIds] },
      { table: "maintenance_tasks", columns: ["title", "description", "notes"], where: ["property_id", s.propertyIds] },
      { table: "maintenance_schedules", columns: ["title", "description"], where: ["property_id", s.propertyIds] },
      { table: "quote_requests", columns: ["admin_notes"], where: ["property_id", s.propertyIds] },
    ];
    const changed: Record<string, number> = {};
    for (const { table, columns, where } of targets) {
      if (!where[1].length) continue;
      const sets = columns.map((c) => `${c} = regexp_replace(${c}, ?, '[erased]', 'gi')`).join(", ");
      const matches = columns.map((c) => `${c} ~* ?`).join(" or ");
      const { rowCount } = await tx.raw(`update ${table} set ${sets} where ${where[0]} = any(?) and (${matches})`, [
        ...columns.map(() => pattern),
        where[1],
        ...columns.map(() => pattern),
      ]);
      if (rowCount) changed[table] = rowCount;
    }
    // The report snapshots' text (inspection notes, findings), matched as the strings appear inside JSON.
    if (s.reportIds.length) {
      const jsonPattern = strings.map((v) => escapeRegex(JSON.stringify(v).slice(1, -1))).join("|");
      const { rowCount } = await tx.raw(
        "update reports set report_data = regexp_replace(report_data::text, ?, '[erased]', 'gi')::jsonb where id = any(?) and report_data::text ~* ?",
        [jsonPattern, s.reportIds, jsonPattern],
      );
      if (rowCount) changed["reports (text)"] = rowCount;
    }
    return changed;
  }

  /** Work queued for them (e-mails not sent yet) is dropped: an erased person gets no more mail. */
  async dropQueuedJobs(tx: Tx, s: CustomerScope, emails: string[]): Promise<number> {
    const { rows } = await tx.raw(`select count(*)::int as n from graphile_worker.complete_jobs(array(${THEIR_JOBS})::bigint[])`, theirJobsBindings(s, emails));
    return rows[0].n;
  }

  /**
   * Remembered submissions and login counters that are theirs, by exact values: a submission whose answer holds
   * one of their strings as a whole value (or their customer or property id), a counter of one of their e-mails.
   */
  async dropTransient(tx: Tx, s: CustomerScope, strings: PersonalStrings): Promise<{ idempotencyKeys: number; loginAttempts: number }> {
    const all = lowerAll([...strings.emails, ...strings.names, ...strings.phones, ...strings.addresses]);
    const idempotencyKeys = await tx("idempotency_keys")
      .whereRaw(
        `exists (select 1 from jsonb_path_query(response, 'strict $.**') v
           where (jsonb_typeof(v) = 'string' and lower(btrim(v #>> '{}')) = any(?::text[]))
              or (jsonb_typeof(v) = 'object' and (v->>'customerId' = any(?::text[]) or v->>'propertyId' = any(?::text[]))))`,
        [all, s.customerIds.map(String), s.propertyIds.map(String)],
      )
      .delete();
    const emails = lowerAll(strings.emails);
    // Staff counters name their e-mail in a column; My Home's only in the key (home-email:E, home-mail:E, home-pair:E|address).
    const loginAttempts = await tx("login_attempts")
      .where((q) =>
        q
          .whereRaw("lower(email) = any(?::text[])", [emails])
          .orWhereRaw("key = any(?::text[])", [emails.flatMap((e) => [`email:${e}`, `home-email:${e}`, `home-mail:${e}`])])
          .orWhereRaw("exists (select 1 from unnest(?::text[]) p where left(key, char_length(p)) = p)", [emails.flatMap((e) => [`pair:${e}|`, `home-pair:${e}|`])]),
      )
      .delete();
    return { idempotencyKeys, loginAttempts };
  }

  private paymentsOf(q: Tx | Knex, s: CustomerScope) {
    return q("payments").where((w) => w.whereRaw("lower(customer_email) = ?", [s.email]).orWhereIn("provider_id", s.sessionIds));
  }

  /** My Home sign-in state of the e-mail, without token hashes or passkey public keys. */
  async myHome(s: CustomerScope): Promise<{ accounts: Row[]; sessions: Row[]; passkeys: Row[] }> {
    const [accounts, sessions, passkeys] = await Promise.all([
      this.db("home_accounts").where({ email: s.email }).select("email", "created_at", "last_signed_in_at"),
      this.db("home_sessions").where({ email: s.email }).orderBy("id").select("id", "method", "created_at", "last_seen_at", "expires_at", "revoked_at"),
      this.db("home_passkeys").where({ email: s.email }).orderBy("id").select("id", "name", "created_at", "last_used_at"),
    ]);
    return { accounts, sessions, passkeys };
  }

  /** Deletes every My Home sign-in row of the e-mail: sessions end, links and passkeys stop working. */
  async eraseMyHome(tx: Tx, email: string): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    // home_preferences and home_calendar_feeds: My Home's reminder choice and calendar feed (the feed URL stops working).
    for (const table of ["home_sessions", "home_sign_in_tokens", "home_passkeys", "home_webauthn_challenges", "home_accounts", "home_preferences", "home_calendar_feeds"]) {
      deleted[`${table} (deleted)`] = await tx(table).where({ email }).delete();
    }
    return deleted;
  }

  // ---------- purging ----------

  async purgeIdempotencyKeys(asOf: Date, windowHours: number): Promise<number> {
    return this.db("idempotency_keys").where("created_at", "<", new Date(asOf.getTime() - windowHours * 3_600_000)).delete();
  }

  /**
   * Counters whose window has ended count nothing any more, whatever their key. Keys under `longer.prefix`
   * (My Home's hourly mail cap) have a longer window and wait for its end.
   */
  async purgeLoginAttempts(asOf: Date, windowMs: number, longer?: { prefix: string; windowMs: number }): Promise<number> {
    const ended = (ms: number) => new Date(asOf.getTime() - ms);
    // A counter still holding back guesses (blocked_until ahead) is kept until its wait is over.
    return this.db("login_attempts")
      .where((q) => {
        if (!longer) return q.where("window_started_at", "<=", ended(windowMs));
        return q
          .where((w) => w.where("window_started_at", "<=", ended(windowMs)).andWhereRaw("left(key, ?) <> ?", [longer.prefix.length, longer.prefix]))
          .orWhere("window_started_at", "<=", ended(Math.max(windowMs, longer.windowMs)));
      })
      .andWhere((q) => q.whereNull("blocked_until").orWhere("blocked_until", "<=", asOf))
      .delete();
  }

  /** Client addresses staff signed in from, once they no longer count as known (auth's knownAddressDays). */
  async purgeStaffLoginAddresses(asOf: Date, keepDays: number): Promise<number> {
    return this.db("staff_login_addresses").where("last_success_at", "<=", new Date(asOf.getTime() - keepDays * 86_400_000)).delete();
  }

  async purgeStaffSessions(asOf: Date): Promise<number> {
    return this.db("staff_sessions").where("expires_at", "<=", asOf).orWhereNotNull("revoked_at").delete();
  }

  /** Expired or spent rows of the homeowner sign-in tables that exist; absent tables are skipped. */
  async purgeHomeSignIn(asOf: Date): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    const { rows } = await this.db.raw(
      "select table_name, array_agg(column_name::text) as columns from information_schema.columns where table_schema = current_schema() and table_name = any(?) group by table_name",
      [[...HOME_SIGN_IN_TABLES]],
    );
    for (const { table_name: table, columns } of rows as { table_name: string; columns: string[] }[]) {
      const spent = ["revoked_at", "used_at", "consumed_at"].filter((c) => columns.includes(c));
      if (!columns.includes("expires_at") && !spent.length) continue;
      deleted[table] = await this.db(table)
        .where((q) => {
          if (columns.includes("expires_at")) q.orWhere("expires_at", "<=", asOf);
          for (const c of spent) q.orWhereNotNull(c);
        })
        .delete();
    }
    return deleted;
  }
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
