import { enqueueJob, type TransactionRunner, type Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { MAX_DAYS_AHEAD, addDays, isIsoDate, todayIn } from "../../shared/business-time.js";
import { StaleEditError } from "../../http/stale-edit.js";
import { expiryFrom, hashToken, newToken } from "../../shared/one-time-links.js";
import {
  QUOTE_REPORT_MAIL_TASK,
  type ClientDecision,
  type ClientQuoteItem,
  type QuotePriority,
  type QuoteRequest,
  type QuoteSource,
  type QuoteStatus,
  isStaffMove,
  parseCents,
} from "./quotes.constants.js";
import type { BellItem, QuoteLinkRow, QuoteRow, QuotesRepository } from "./quotes.repository.js";
import { QUOTE_VALID_DAYS, expiredMessage, isExpired } from "./quote-document.js";
import { type QuoteActor, QuoteDecisions } from "./quote-decisions.js";
import { type ClientQuoteReport, QuoteFigures, toClientItem } from "./quote-view.js";
import type { QuoteUpdate } from "./quotes.schemas.js";
import type { AuditLog } from "../audit/index.js";
import type { Notifications } from "../notifications/index.js";
export { QUOTE_REPORT_MAIL_TASK };
import type { Locale } from "../../i18n/index.js";
import type { CustomersService } from "../customers/index.js";
import type { MaintenanceService } from "../maintenance/index.js";

/** The bell counts to 99 and then shows '99+'. */
export const BELL_CAP = 100;
export const STALE_QUOTE_MESSAGE = "This quote request was changed by someone else since you opened it.";

export interface NewQuoteRequest {
  propertyId: number;
  maintenanceTaskId: number;
  shareId: number | null;
  priority: QuotePriority;
  clientNotes: string | null;
  /** 'portal' when the homeowner asked in My Home; a link's answer otherwise. */
  source?: QuoteSource;
}

/** An expired quote answered yes: a 409 by every path (docs/decisions.md#42). */
export class QuoteExpiredError extends ConflictError {
  constructor(readonly validUntil: string) {
    super(expiredMessage(validUntil), { validUntil: "This quote has expired" });
  }
}

/** What the quotes service uses of other modules (their services, never their repositories), and its settings. */
export interface QuotesDeps {
  /** An accepted quote schedules its task, a completed one completes it (same transaction). */
  maintenance: Pick<MaintenanceService, "setTaskStatus">;
  /**
   * What follows a yes, in the acceptance's transaction, whatever the path (docs/decisions.md#43): the quote's
   * invoice and the e-mail with its pay link (QuotePayments.onAccepted). Null: nothing follows.
   */
  afterAccepted: ((maintenanceTaskId: number, tx: Tx) => Promise<unknown>) | null;
  customers: Pick<CustomersService, "findPropertyFor" | "findCustomer">;
  transaction: TransactionRunner;
  /** The audit trail: staff moves, deletions and quote reports sent (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  /** The staff bell: a client's accept or decline, and the bell's count and list (notifications README). */
  notifications?: Pick<Notifications, "raise" | "unreadCount"> | null;
  settings: {
    /** BUSINESS_TZ: the date of an "Asked again on" note, a quote's validity and its tax day. */
    timeZone: string;
    /** BUSINESS_PROVINCE: the tax of a home whose postal code names no province (docs/decisions.md#32). */
    businessProvince: string;
    /** BUSINESS_TAX_REGISTERED: false charges no tax (docs/tax.md). */
    taxRegistered: boolean;
    /** The site's public origin: the quote page link of a quote-ready e-mail. */
    publicUrl: string;
  };
}

/** Quote requests and the quote report (staff-side §2, §4; docs/decisions.md#8 and #21). */
export class QuotesService {
  /** A quote's figures in the business zone and province (quote-view.ts). */
  private readonly figures: QuoteFigures;
  /** The client's answers, their bell and the quote-ready e-mail (quote-decisions.ts). */
  private readonly decisions: QuoteDecisions;

  constructor(
    private readonly quotes: QuotesRepository,
    private readonly deps: QuotesDeps,
  ) {
    this.figures = new QuoteFigures(deps.settings);
    this.decisions = new QuoteDecisions({
      quotes,
      transaction: deps.transaction,
      customers: deps.customers,
      notifications: deps.notifications,
      figures: this.figures,
      publicUrl: deps.settings.publicUrl,
      apply: (current, status, tx) => this.apply(current, status, tx),
    });
  }

  /**
   * Inside the client's response transaction, one per request_quote: a new request, or, when the task's
   * request is still open, the new note appended to it with today's date (BUSINESS_TZ), its version bumped
   * and `clientNotedAt` moved, so staff see it (bell, list). A closed (declined, completed) request stays as
   * it was and the task gets a new one. Returns the ids touched, in order.
   */
  async createRequests(requests: NewQuoteRequest[], tx: Tx, now: Date = new Date()): Promise<number[]> {
    const date = todayIn(this.deps.settings.timeZone, now);
    const ids: number[] = [];
    for (const r of requests) {
      const appendNote = r.clientNotes?.trim()
        ? `Asked again on ${date}: ${r.clientNotes.trim()}`
        : `Asked again on ${date}.`;
      ids.push((await this.quotes.upsertForClient({ ...r, appendNote }, tx)).id);
    }
    return ids;
  }

  /**
   * The header bell's count: new quote requests, requests the client added to and answered reports since the
   * bell was last opened, plus this user's unread notifications (at most 99 counted).
   */
  async bellCount(staffUserId: number): Promise<number> {
    const [client, unread] = await Promise.all([
      this.quotes.bellCount(staffUserId, BELL_CAP),
      this.deps.notifications?.unreadCount(staffUserId) ?? 0,
    ]);
    return Math.min(client + unread, BELL_CAP);
  }

  private today(now: Date = new Date()): string {
    return this.figures.today(now);
  }

  private present(row: QuoteRow): QuoteRequest {
    return this.figures.present(row);
  }

  /** What a homeowner sees of these requests (My Home's Quotes), in their order; unknown ids are left out. */
  async clientItems(ids: number[]): Promise<ClientQuoteItem[]> {
    const today = this.today();
    return (await this.quotes.byIds(ids)).map((row) => toClientItem(this.present(row), today));
  }

  /**
   * The bell's client rows (the last 30 days, newest first). Opening the list marks nothing: the bell counts the
   * same on every page and on the list until the person marks them seen (docs/decisions.md#55).
   */
  bellItems(staffUserId: number): Promise<BellItem[]> {
    return this.quotes.bellItems(staffUserId, 50, 30);
  }

  /** The client rows up to `until` (the newest the person was shown) are seen. */
  markBellSeen(staffUserId: number, until: Date): Promise<void> {
    return this.quotes.markBellSeen(staffUserId, until);
  }

  async list(options: {
    limit: number;
    offset: number;
    q?: string;
    status?: QuoteStatus;
    propertyId?: number;
  }): Promise<{ rows: QuoteRequest[]; total: number }> {
    const { rows, total } = await this.quotes.list(options);
    return { rows: rows.map((row) => this.present(row)), total };
  }

  /** Every request matching the list's filter, newest first, in batches (CSV export). */
  async *exportRows(options: {
    q?: string;
    status?: QuoteStatus;
    propertyId?: number;
  }): AsyncGenerator<QuoteRequest[]> {
    for await (const batch of this.quotes.exportRows(options)) yield batch.map((row) => this.present(row));
  }

  async get(id: number): Promise<QuoteRequest> {
    const quote = await this.quotes.find(id);
    if (!quote) throw new NotFoundError("Quote request not found");
    return this.present(quote);
  }

  /**
   * A staff move (staff-side §4). The row is locked first, so of two concurrent moves one wins and the
   * other sees the new status: an illegal move from there is a 409 and changes nothing. With `version`
   * (the dialogs send the one they were opened with), a request changed since is a 409 carrying it as it
   * is now, so an edit never silently overwrites another; without it (the CLI, plain API calls) the
   * status machine alone decides.
   */
  async update(id: number, input: QuoteUpdate, by?: QuoteActor): Promise<QuoteRequest> {
    await this.deps.transaction(async (tx) => {
      const current = await this.quotes.lock(id, tx);
      if (!current) throw new NotFoundError("Quote request not found");
      if (input.version !== undefined && input.version !== current.version) {
        const fresh = await this.quotes.find(id, tx);
        throw new StaleEditError(STALE_QUOTE_MESSAGE, fresh && this.present(fresh));
      }
      if (!isStaffMove(current.status, input.status)) {
        throw new ConflictError(`A ${current.status} quote request cannot move to ${input.status}`, {
          status: `Not allowed from ${current.status}`,
        });
      }
      const before = await this.quotes.find(id, tx);
      await this.apply(current, input.status, tx, input);
      // Accepted on the homeowner's behalf: the rest of the office hears of it as if they had (decisions.md#42).
      if (input.status === "accepted") await this.decisions.raiseDecision(current, "accept", tx, by ?? true);
      const after = await this.quotes.find(id, tx);
      await this.deps.audit.record(tx, { action: "quote.update", recordType: "quote", recordId: id, before, after });
    });
    return this.get(id);
  }

  /**
   * Writes a move and its effect on the task: accepted schedules it, completed completes it. Quoting (and
   * re-quoting) stores the scope, the validity and the home's tax province, and queues the homeowner's e-mail
   * in the same transaction (docs/decisions.md#42). An expired quote cannot be accepted, by any path.
   */
  private async apply(
    current: { id: number; maintenanceTaskId: number; validUntil: string | null },
    status: QuoteStatus,
    tx: Tx,
    input: Pick<QuoteUpdate, "quotedAmount" | "adminNotes" | "scope" | "validUntil"> = {},
  ): Promise<void> {
    if (status === "quoted") {
      const quotedAmount = input.quotedAmount?.trim();
      if (!quotedAmount)
        throw new ValidationError("Quoted amount is required", { quotedAmount: "Quoted amount is required" });
      const today = this.today();
      if (input.validUntil && (!isIsoDate(input.validUntil) || input.validUntil < today))
        throw new ValidationError("Valid until cannot be before today", {
          validUntil: "Valid until cannot be before today",
        });
      if (input.validUntil && input.validUntil > addDays(today, MAX_DAYS_AHEAD))
        throw new ValidationError("Valid until must be within a year", {
          validUntil: "Valid until must be within a year",
        });
      const row = (await this.quotes.find(current.id, tx))!;
      await this.quotes.update(
        current.id,
        {
          status,
          quotedAmount,
          quotedCents: parseCents(quotedAmount),
          adminNotes: input.adminNotes ?? null,
          // A plain call without `scope` keeps the one written before.
          ...(input.scope !== undefined && { scope: input.scope || null }),
          validUntil: input.validUntil || addDays(today, QUOTE_VALID_DAYS),
          taxProvince: this.figures.provinceOf(row.postalCode),
          quoted: true,
        },
        tx,
      );
      await this.decisions.queueQuoteReady(current.id, row.propertyId, row.clientEmail, tx);
      return;
    }
    if (status === "accepted" && isExpired(current.validUntil, this.today()))
      throw new QuoteExpiredError(current.validUntil!);
    await this.quotes.update(current.id, { status, decided: status === "accepted" || status === "declined" }, tx);
    if (status === "accepted") {
      await this.deps.maintenance.setTaskStatus(current.maintenanceTaskId, "scheduled", tx);
      await this.deps.afterAccepted?.(current.maintenanceTaskId, tx);
    }
    if (status === "completed") await this.deps.maintenance.setTaskStatus(current.maintenanceTaskId, "completed", tx);
  }

  async delete(id: number): Promise<void> {
    await this.deps.transaction(async (tx) => {
      const before = await this.quotes.find(id, tx);
      if (!before || !(await this.quotes.delete(id, tx))) throw new NotFoundError("Quote request not found");
      await this.deps.audit.record(tx, {
        action: "quote.delete",
        recordType: "quote",
        recordId: id,
        before,
        after: null,
      });
    });
  }

  /**
   * Creates the quote report link of a property's quoted items and queues its e-mail (PDF rendered by
   * the job) in the same transaction. 409 when nothing is quoted.
   */
  async generateQuoteReport(
    propertyId: number,
    origin: string,
  ): Promise<{ reportLink: string; items: ClientQuoteItem[]; totalCents: number | null; clientEmail: string }> {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    if (!property) throw new NotFoundError("Property not found");
    const token = newToken();
    const reportLink = `${origin}/quote-report/${token}`;
    return this.deps.transaction(async (tx) => {
      const quoted = (await this.quotes.quotedOfProperty(propertyId, tx)).map((row) => this.present(row));
      if (!quoted.length) throw new ConflictError("This property has no quoted items to send");
      // The spec's total: before tax, as every price is set (docs/decisions.md#32); the page adds the tax.
      const totalCents = quoted.every((q) => q.quotedCents !== null)
        ? quoted.reduce((sum, q) => sum + q.quotedCents!, 0)
        : null;
      const link = await this.quotes.insertLink(
        {
          propertyId,
          tokenHash: hashToken(token),
          clientEmail: property.clientEmail,
          quoteRequestIds: quoted.map((q) => q.id),
          totalCents,
          expiresAt: expiryFrom(new Date()),
        },
        tx,
      );
      await enqueueJob(tx, QUOTE_REPORT_MAIL_TASK, { linkId: link.id, link: reportLink });
      await this.deps.audit.record(tx, {
        action: "quote_report.send",
        recordType: "property",
        recordId: propertyId,
        after: {
          quoteReportLinkId: link.id,
          quoteRequestIds: link.quoteRequestIds,
          clientEmail: property.clientEmail,
          totalCents,
        },
      });
      const today = this.today();
      return {
        reportLink,
        items: quoted.map((q) => toClientItem(q, today)),
        totalCents,
        clientEmail: property.clientEmail,
      };
    });
  }

  /**
   * A quote-ready job's quote as it is now, or null when it has moved on since the job was queued (another
   * version, or answered): that job then sends nothing.
   */
  quoteReadyForMail(quoteRequestId: number, version: number): Promise<ClientQuoteItem | null> {
    return this.decisions.quoteReadyForMail(quoteRequestId, version);
  }

  /** The quote report of a link for the job that e-mails it (no browser involved). */
  quoteReportForMail(linkId: number): Promise<{ link: QuoteLinkRow; report: ClientQuoteReport; locale: Locale }> {
    return this.decisions.quoteReportForMail(linkId);
  }

  /** Opens the quote report page (QuoteDecisions): the first view claims the link for this browser. */
  openQuoteReport(
    token: string,
    cookies: string[],
  ): Promise<{ report: ClientQuoteReport; binding?: string } | { gone: true }> {
    return this.decisions.openQuoteReport(token, cookies);
  }

  /** The homeowner accepts or declines one quoted item in My Home (QuoteDecisions); the request as it is then. */
  async decideAsOwner(
    quoteRequestId: number,
    decision: ClientDecision,
    mayDecide: (propertyId: number) => boolean,
  ): Promise<QuoteRequest> {
    await this.decisions.decideAsOwner(quoteRequestId, decision, mayDecide);
    return this.get(quoteRequestId);
  }

  /** The client accepts or declines one quoted item of a quote report link (QuoteDecisions). */
  decide(
    token: string,
    cookies: string[],
    quoteRequestId: number,
    decision: ClientDecision,
  ): Promise<ClientQuoteReport | { gone: true }> {
    return this.decisions.decide(token, cookies, quoteRequestId, decision);
  }
}
