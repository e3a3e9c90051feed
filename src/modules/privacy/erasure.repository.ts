import type { Tx } from "../../db/transaction.js";
import {
  type CustomerScope,
  type PersonalStrings,
  THEIR_JOBS,
  lowerAll,
  paymentsOf,
  readPersonalStrings,
  readScope,
  subscriptionsOf,
  theirJobsBindings,
} from "./customer-scope.js";

/** The SQL of a customer's erasure: replaces their personal data, inside the caller's transaction. */
export class ErasureRepository {
  scope(email: string, tx: Tx): Promise<CustomerScope> {
    return readScope(tx, email);
  }

  personalStrings(tx: Tx, s: CustomerScope): Promise<PersonalStrings> {
    return readPersonalStrings(tx, s);
  }

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
    const clientResponses = await tx("client_responses")
      .whereIn("share_id", s.shareIds)
      .whereNotNull("notes")
      .update({ notes: null });
    const quoteRequests = await tx("quote_requests")
      .whereIn("property_id", s.propertyIds)
      .whereNotNull("client_notes")
      .update({ client_notes: null });
    return { clientResponses, quoteRequests };
  }

  /** Financial records are kept (amounts, dates, provider ids), with the payer's name and e-mail replaced. */
  erasePayments(tx: Tx, s: CustomerScope, placeholder: { name: string; email: string }): Promise<number> {
    return paymentsOf(tx, s).update({
      customer_name: placeholder.name,
      customer_email: placeholder.email,
      updated_at: tx.fn.now(),
    });
  }

  /** Billing records stay (amounts, periods, provider ids), with the payer's name, e-mail and reason replaced. */
  eraseSubscriptions(tx: Tx, s: CustomerScope, placeholder: { name: string; email: string }): Promise<number> {
    return subscriptionsOf(tx, s).update({
      payer_name: placeholder.name,
      payer_email: placeholder.email,
      cancellation_reason: null,
      updated_at: tx.fn.now(),
    });
  }

  eraseReminders(tx: Tx, s: CustomerScope, placeholderEmail: string): Promise<number> {
    return tx("maintenance_reminders").whereRaw("lower(email) = ?", [s.email]).update({ email: placeholderEmail });
  }

  /** Receipts the office sent again keep when and by whom, not to whom (any of the person's e-mails). */
  eraseReceiptResends(tx: Tx, emails: string[], placeholderEmail: string): Promise<number> {
    if (!emails.length) return Promise.resolve(0);
    return tx("receipt_resends")
      .whereRaw("lower(sent_to) = any(?)", [emails.map((e) => e.toLowerCase())])
      .update({ sent_to: placeholderEmail });
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
    // The staff bell's lines name the homeowner ("Alice Martin moved the inspection…", "… for Alice Martin"): the
    // line stays, with the person cut out (docs/decisions.md#39).
    const bell = await tx.raw(
      "update notifications set text = regexp_replace(text, ?, '[erased]', 'gi') where text ~* ?",
      [pattern, pattern],
    );
    if (bell.rowCount) changed.notifications = bell.rowCount;
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
    const { rows } = await tx.raw(
      `select count(*)::int as n from graphile_worker.complete_jobs(array(${THEIR_JOBS})::bigint[])`,
      theirJobsBindings(s, emails),
    );
    return rows[0].n;
  }

  /**
   * Remembered submissions and login counters that are theirs, by exact values: a submission whose answer holds
   * one of their strings as a whole value (or their customer or property id), a counter of one of their e-mails.
   */
  async dropTransient(
    tx: Tx,
    s: CustomerScope,
    strings: PersonalStrings,
  ): Promise<{ idempotencyKeys: number; loginAttempts: number }> {
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
          .orWhereRaw("key = any(?::text[])", [
            emails.flatMap((e) => [`email:${e}`, `home-email:${e}`, `home-mail:${e}`]),
          ])
          .orWhereRaw("exists (select 1 from unnest(?::text[]) p where left(key, char_length(p)) = p)", [
            emails.flatMap((e) => [`pair:${e}|`, `home-pair:${e}|`]),
          ]),
      )
      .delete();
    return { idempotencyKeys, loginAttempts };
  }

  /** Deletes every My Home sign-in row of the e-mail: sessions end, links and passkeys stop working. */
  async eraseMyHome(tx: Tx, email: string): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    // home_preferences and home_calendar_feeds: My Home's reminder choice and calendar feed (the feed URL stops working).
    for (const table of [
      "home_sessions",
      "home_sign_in_tokens",
      "home_passkeys",
      "home_webauthn_challenges",
      "home_accounts",
      "home_preferences",
      "home_calendar_feeds",
    ]) {
      deleted[`${table} (deleted)`] = await tx(table).where({ email }).delete();
    }
    return deleted;
  }
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
