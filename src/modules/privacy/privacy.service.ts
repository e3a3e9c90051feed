import type { TransactionRunner } from "../../db/transaction.js";
import type { AuditLog } from "../audit/index.js";
import { ValidationError } from "../../http/errors.js";
import type { ErasureRepository } from "./erasure.repository.js";
import type { ExportRepository } from "./export.repository.js";
import {
  type CustomerExport,
  type EraseResult,
  type PurgeResult,
  type Row,
  customerEmailSchema,
} from "./privacy.schemas.js";
import type { PurgeRepository } from "./purge.repository.js";

export interface PrivacySettings {
  /** How long a submission's outcome is remembered (db/idempotency.ts). */
  idempotencyWindowHours: number;
  /** The login counters' window (auth LOGIN_LIMITS). */
  loginWindowMs: number;
  /** How long a staff user's sign-in address counts as theirs (auth LOGIN_LIMITS.knownAddressDays). */
  knownAddressDays: number;
  /** My Home's sign-in e-mail counters: their key prefix and window (HOME_MAIL_KEY_PREFIX, HOME_SIGN_IN_LIMITS.mailWindowMs), passed by container.ts since my-home is privacy's own layer. */
  homeMailCounters: { prefix: string; windowMs: number };
}

/** Privacy's SQL, one repository per job (each reads every module's tables: README "Read model"). */
export interface PrivacyRepositories {
  exports: ExportRepository;
  erasure: ErasureRepository;
  purge: PurgeRepository;
}

/** What privacy uses besides its repositories. */
export interface PrivacyDeps {
  transaction: TransactionRunner;
  settings: PrivacySettings;
  /** The audit trail: exports and erasures are events; erasure strips the person from earlier ones (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record" | "erasePersonalData">;
}

/**
 * Data kept only as long as needed, and given back when asked: the daily purge, a customer's
 * export, and their erasure. A customer is everyone Haven knows by one e-mail address, compared case-blind.
 */
export class PrivacyService {
  private readonly transaction: TransactionRunner;
  private readonly settings: PrivacySettings;
  private readonly audit: PrivacyDeps["audit"];

  constructor(
    private readonly repositories: PrivacyRepositories,
    deps: PrivacyDeps,
  ) {
    this.transaction = deps.transaction;
    this.settings = deps.settings;
    this.audit = deps.audit;
  }

  /** Every record Haven holds on the customer with this e-mail; empty lists when it knows none. */
  async exportCustomer(emailInput: string, now: Date = new Date()): Promise<CustomerExport> {
    const email = parseEmail(emailInput);
    const r = this.repositories.exports;
    const scope = await r.scope(email);
    const [
      customers,
      properties,
      bookings,
      inspections,
      entries,
      photos,
      reports,
      reportShares,
      clientResponses,
      quoteReportLinks,
      quotes,
      tasks,
      schedules,
      payments,
      subscriptions,
      reminders,
      queued,
    ] = await Promise.all([
      r.customers(scope),
      r.properties(scope),
      r.bookings(scope),
      r.inspections(scope),
      r.entries(scope),
      r.entryPhotos(scope),
      r.reports(scope),
      r.reportShares(scope),
      r.clientResponses(scope),
      r.quoteReportLinks(scope),
      r.quotes(scope),
      r.tasks(scope),
      r.schedules(scope),
      r.payments(scope),
      r.subscriptions(scope),
      r.reminders(scope),
      r.queuedMail(scope),
    ]);
    const myHome = await r.myHome(scope);
    // Who took a copy of whose data: the event names the customer records, never the data itself.
    await this.transaction((tx) =>
      this.audit.record(tx, {
        action: "customer.export",
        recordType: "customer",
        recordId: scope.customerIds[0] ?? "none",
        after: { customerIds: scope.customerIds },
      }),
    );
    const of = (rows: Row[], inspectionId: unknown) => rows.filter((row) => row.inspection_id === inspectionId);
    return {
      email,
      exportedAt: now.toISOString(),
      customers,
      properties,
      bookings,
      inspections: inspections.map((i) => ({ ...i, entries: of(entries, i.id), photos: of(photos, i.id) })),
      reports,
      shares: { reportShares, clientResponses, quoteReportLinks },
      quotes,
      tasks: { tasks, schedules },
      payments,
      subscriptions,
      emails: { reminders, queued },
      myHome,
    };
  }

  /**
   * Replaces the customer's personal data with placeholders, in one transaction. Payments stay (the law keeps
   * financial records) with the payer anonymised; reports stay for staff without the client's name; links are
   * revoked; mail still queued for them is dropped. Returns the rows changed per table.
   */
  async eraseCustomer(emailInput: string): Promise<EraseResult> {
    const email = parseEmail(emailInput);
    const r = this.repositories.erasure;
    return this.transaction(async (tx) => {
      const first = await r.scope(email, tx);
      await r.lockCustomers(tx, first.customerIds);
      // Read again under the lock: a booking made meanwhile is erased too.
      const scope = await r.scope(email, tx);
      const strings = await r.personalStrings(tx, scope);
      const all = [...strings.emails, ...strings.names, ...strings.phones, ...strings.addresses];
      const primary = scope.customerIds[0];
      const placeholder = primary
        ? { name: `Erased customer #${primary}`, email: `erased-${primary}@invalid` }
        : { name: "Erased customer", email: "erased@invalid" };

      const changed: Record<string, number> = {};
      const count = (table: string, n: number) => {
        if (n) changed[table] = (changed[table] ?? 0) + n;
      };
      // Free text first, while the structured fields still hold the strings it looks for.
      for (const [table, n] of Object.entries(await r.scrubFreeText(tx, scope, all))) count(table, n);
      count("customers", await r.eraseCustomers(tx, scope));
      count("properties", await r.eraseProperties(tx, scope));
      count("inspection_bookings", await r.eraseBookings(tx, scope));
      count("reports", await r.eraseReports(tx, scope));
      const links = await r.eraseLinks(tx, scope);
      count("report_shares", links.reportShares);
      count("quote_report_links", links.quoteReportLinks);
      const notes = await r.eraseClientNotes(tx, scope);
      count("client_responses", notes.clientResponses);
      count("quote_requests", notes.quoteRequests);
      count("payments", await r.erasePayments(tx, scope, placeholder));
      count("subscriptions", await r.eraseSubscriptions(tx, scope, placeholder));
      count("maintenance_reminders", await r.eraseReminders(tx, scope, placeholder.email));
      count("receipt_resends", await r.eraseReceiptResends(tx, strings.emails, placeholder.email));
      count("graphile_worker.jobs (deleted)", await r.dropQueuedJobs(tx, scope, strings.emails));
      const transient = await r.dropTransient(tx, scope, strings);
      count("idempotency_keys (deleted)", transient.idempotencyKeys);
      count("login_attempts (deleted)", transient.loginAttempts);
      for (const [table, n] of Object.entries(await r.eraseMyHome(tx, email))) count(table, n);
      // The trail keeps its events, without the person (docs/decisions.md#39).
      const records = [
        { type: "customer", ids: scope.customerIds },
        { type: "property", ids: scope.propertyIds },
        { type: "booking", ids: scope.bookingIds },
        { type: "report", ids: scope.reportIds },
      ];
      count("audit_events", await this.audit.erasePersonalData(tx, { records, strings: [...all, email] }));
      await this.audit.record(tx, {
        action: "customer.erase",
        recordType: "customer",
        recordId: primary ?? "none",
        after: { customerIds: scope.customerIds, changed },
      });
      return { email, customerIds: scope.customerIds, changed };
    });
  }

  /** Removes what is no longer needed as of `asOf`; the worker runs it daily. */
  async purge(asOf: Date = new Date()): Promise<PurgeResult> {
    const r = this.repositories.purge;
    const deleted: Record<string, number> = {
      idempotency_keys: await r.purgeIdempotencyKeys(asOf, this.settings.idempotencyWindowHours),
      login_attempts: await r.purgeLoginAttempts(asOf, this.settings.loginWindowMs, this.settings.homeMailCounters),
      staff_sessions: await r.purgeStaffSessions(asOf),
      staff_login_addresses: await r.purgeStaffLoginAddresses(asOf, this.settings.knownAddressDays),
      ...(await r.purgeHomeSignIn(asOf)),
    };
    return { asOf: asOf.toISOString(), deleted };
  }
}

function parseEmail(input: string): string {
  const parsed = customerEmailSchema.safeParse(input);
  if (!parsed.success)
    throw new ValidationError("Invalid e-mail", {
      email: parsed.error.issues[0]?.message ?? "Enter a valid email address",
    });
  return parsed.data;
}
