import { enqueueJob, type TransactionRunner, type Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { MAX_DAYS_AHEAD, addDays, isIsoDate, todayIn } from "../../shared/business-time.js";
import { StaleEditError } from "../../http/stale-edit.js";
import { expiryFrom, hashToken, newToken, openLink } from "../../shared/one-time-links.js";
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
import { QUOTE_VALID_DAYS, afterYesText, expiredMessage, isExpired, quoteTotals } from "./quote-document.js";
import { provinceOfPostalCode } from "../tax/index.js";
import type { QuoteUpdate } from "./quotes.schemas.js";
import type { AuditLog } from "../audit/index.js";
import type { Notifications } from "../notifications/index.js";
export { QUOTE_REPORT_MAIL_TASK };
import { addressLine } from "../../shared/address.js";
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

/** The client's quote report page: what it shows, never adminNotes. */
export interface ClientQuoteReport {
  linkId: number;
  property: { address: string; clientName: string };
  items: ClientQuoteItem[];
  /** Before tax, the tax and with tax, over every item; null unless every item has one dollar figure. */
  totals: { subtotalCents: number; taxCents: number; totalCents: number } | null;
  /** The total before tax, as the link stored it when made (the spec's field). */
  totalCents: number | null;
  expiresAt: string;
  completed: boolean;
}

/** An expired quote answered yes: a 409 by every path (docs/decisions.md#42). */
export class QuoteExpiredError extends ConflictError {
  constructor(validUntil: string) {
    super(expiredMessage(validUntil), { validUntil: "This quote has expired" });
  }
}

/** What a homeowner sees of a quote (docs/decisions.md#42): never adminNotes. `today` is YYYY-MM-DD, BUSINESS_TZ. */
export const toClientItem = (q: QuoteRequest, today: string): ClientQuoteItem => ({
  id: q.id,
  taskTitle: q.taskTitle,
  taskDescription: q.taskDescription,
  priority: q.priority,
  quotedAmount: q.quotedAmount,
  quotedCents: q.quotedCents,
  status: q.status,
  scope: q.scope,
  validUntil: q.validUntil,
  expired: q.status === "quoted" && isExpired(q.validUntil, today),
  totals: q.totals,
  afterYes: afterYesText(q.assigneeName),
});

/** The items' figures added up; null unless every item has one dollar figure. */
const sumTotals = (items: { totals: QuoteRequest["totals"] }[]): ClientQuoteReport["totals"] =>
  items.every((i) => i.totals !== null)
    ? items.reduce(
        (sum, i) => ({
          subtotalCents: sum.subtotalCents + i.totals!.subtotalCents,
          taxCents: sum.taxCents + i.totals!.taxCents,
          totalCents: sum.totalCents + i.totals!.totalCents,
        }),
        { subtotalCents: 0, taxCents: 0, totalCents: 0 },
      )
    : null;

/** What the quotes service uses of other modules (their services, never their repositories), and its settings. */
export interface QuotesDeps {
  /** An accepted quote schedules its task, a completed one completes it (same transaction). */
  maintenance: Pick<MaintenanceService, "setTaskStatus">;
  /**
   * What follows a yes, in the acceptance's transaction, whatever the path (docs/decisions.md#43): the quote's
   * invoice and the e-mail with its pay link (QuotePayments.onAccepted). Null: nothing follows.
   */
  afterAccepted: ((maintenanceTaskId: number, tx: Tx) => Promise<unknown>) | null;
  customers: Pick<CustomersService, "findPropertyFor">;
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
  constructor(
    private readonly quotes: QuotesRepository,
    private readonly deps: QuotesDeps,
  ) {}

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

  /**
   * An answer to a quoted item, for the office, in the answer's transaction: the client's or homeowner's, or one
   * staff recorded on their behalf (`byStaff`), so the rest of the office hears of it too.
   */
  private async raiseDecision(
    locked: { id: number },
    decision: ClientDecision,
    tx: Tx,
    byStaff = false,
  ): Promise<void> {
    if (!this.deps.notifications) return;
    const current = (await this.quotes.find(locked.id, tx))!;
    const verb = decision === "accept" ? "accepted" : "declined";
    const what = `the quote for ${current.taskTitle}${current.quotedAmount ? ` (${current.quotedAmount})` : ""}`;
    await this.deps.notifications.raise(tx, {
      kind: decision === "accept" ? "quote-accepted" : "quote-declined",
      recordType: "quote_request",
      recordId: current.id,
      // An accepted quote is the office's to book (docs/decisions.md#43); a declined one is read where it was asked.
      link:
        decision === "accept"
          ? "/admin/quotes-to-book"
          : `/admin/quote-requests?${new URLSearchParams({ q: current.propertyAddress.split(",")[0] ?? "" })}`,
      text: byStaff ? `The office ${verb} ${what} for ${current.clientName}` : `${current.clientName} ${verb} ${what}`,
    });
  }

  private today(now: Date = new Date()): string {
    return todayIn(this.deps.settings.timeZone, now);
  }

  /** The province whose tax a home pays: its postal code's, else BUSINESS_PROVINCE (docs/decisions.md#32). */
  private provinceOf(postalCode: string | null): string {
    return (postalCode && provinceOfPostalCode(postalCode)) || this.deps.settings.businessProvince;
  }

  /**
   * A stored request with its figures (docs/decisions.md#42): the tax of the province stored when quoted (a quote
   * made before that: the home's), at the rates of the day it was quoted.
   */
  private present(row: QuoteRow): QuoteRequest {
    const { postalCode, ...rest } = row;
    const taxProvince = row.taxProvince ?? this.provinceOf(postalCode);
    const day = this.today(row.quotedAt ? new Date(row.quotedAt) : new Date());
    const totals =
      row.quotedCents === null
        ? null
        : quoteTotals(row.quotedCents, taxProvince, day, this.deps.settings.taxRegistered);
    return { ...rest, taxProvince, totals };
  }

  /** What a homeowner sees of these requests (My Home's Quotes), in their order; unknown ids are left out. */
  async clientItems(ids: number[]): Promise<ClientQuoteItem[]> {
    const today = this.today();
    return (await this.quotes.byIds(ids)).map((row) => toClientItem(this.present(row), today));
  }

  /** The bell's list (the last 30 days, newest first); opening it marks everything up to now as seen. */
  async openBell(staffUserId: number): Promise<BellItem[]> {
    const items = await this.quotes.bellItems(staffUserId, 50, 30);
    await this.quotes.markBellSeen(staffUserId);
    return items;
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
  async update(id: number, input: QuoteUpdate): Promise<QuoteRequest> {
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
      if (input.status === "accepted") await this.raiseDecision(current, "accept", tx, true);
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
          taxProvince: this.provinceOf(row.postalCode),
          quoted: true,
        },
        tx,
      );
      await this.queueQuoteReady(current.id, row.propertyId, row.clientEmail, tx);
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
   * The homeowner's "your quote is ready" e-mail of a quote just made or changed (docs/decisions.md#42): a
   * quote page link of this one item, and the job that renders and sends it, in the move's transaction. The
   * job carries the version the move wrote: a job whose quote has moved on since sends nothing, so each
   * version of a quote is e-mailed at most once.
   */
  private async queueQuoteReady(id: number, propertyId: number, clientEmail: string, tx: Tx): Promise<void> {
    const moved = (await this.quotes.find(id, tx))!;
    const token = newToken();
    const link = await this.quotes.insertLink(
      {
        propertyId,
        tokenHash: hashToken(token),
        clientEmail,
        quoteRequestIds: [id],
        totalCents: moved.quotedCents,
        expiresAt: expiryFrom(new Date()),
      },
      tx,
    );
    await enqueueJob(tx, QUOTE_REPORT_MAIL_TASK, {
      linkId: link.id,
      link: `${this.deps.settings.publicUrl}/quote-report/${token}`,
      ready: { quoteRequestId: id, version: moved.version },
    });
  }

  /**
   * A quote-ready job's quote as it is now, or null when it has moved on since the job was queued (another
   * version, or answered): that job then sends nothing.
   */
  async quoteReadyForMail(quoteRequestId: number, version: number): Promise<ClientQuoteItem | null> {
    const row = await this.quotes.find(quoteRequestId);
    if (!row || row.version !== version || row.status !== "quoted") return null;
    return toClientItem(this.present(row), this.today());
  }

  /** The quote report of a link for the job that e-mails it (no browser involved). */
  async quoteReportForMail(linkId: number): Promise<{ link: QuoteLinkRow; report: ClientQuoteReport }> {
    const link = await this.quotes.findLinkById(linkId);
    if (!link) throw new NotFoundError("Quote report link not found");
    return { link, report: await this.describe(link) };
  }

  private async describe(link: QuoteLinkRow): Promise<ClientQuoteReport> {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, link.propertyId);
    if (!property) throw new NotFoundError("Property not found");
    const today = this.today();
    const items = (await this.quotes.byIds(link.quoteRequestIds)).map((row) => toClientItem(this.present(row), today));
    return {
      linkId: link.id,
      property: { address: addressLine(property), clientName: property.clientName },
      items,
      totals: sumTotals(items),
      totalCents: link.totalCents,
      expiresAt: link.expiresAt,
      completed: Boolean(link.completedAt),
    };
  }

  /**
   * Opens the quote report page: the first view claims the link for this browser; that browser may come
   * back until every item is answered. `gone` otherwise.
   */
  async openQuoteReport(
    token: string,
    cookies: string[],
  ): Promise<{ report: ClientQuoteReport; binding?: string } | { gone: true }> {
    const tokenHash = hashToken(token);
    const opened = await openLink(
      () => this.quotes.findLinkByHash(tokenHash),
      (binding) => this.quotes.claimLink(tokenHash, binding),
      cookies,
    );
    if ("gone" in opened) return opened;
    return { report: await this.describe(opened.row), binding: opened.binding };
  }

  /**
   * The homeowner accepts or declines one quoted item in My Home: the quote report's rule (only a quoted item,
   * accepting schedules its task) without a link. `mayDecide` says whether the request's property is theirs;
   * it is asked under the row lock, and a request that is not theirs is a 404 like a missing one.
   */
  async decideAsOwner(
    quoteRequestId: number,
    decision: ClientDecision,
    mayDecide: (propertyId: number) => boolean,
  ): Promise<QuoteRequest> {
    await this.deps.transaction(async (tx) => {
      const current = await this.quotes.lock(quoteRequestId, tx);
      if (!current || !mayDecide(current.propertyId)) throw new NotFoundError("Quote request not found");
      if (current.status !== "quoted")
        throw new ConflictError("This item has already been answered", {
          status: `Not allowed from ${current.status}`,
        });
      await this.apply(current, decision === "accept" ? "accepted" : "declined", tx);
      await this.raiseDecision(current, decision, tx);
      // A quote report link whose items are now all answered is spent, as if answered there.
      for (const link of await this.quotes.openLinksWith(quoteRequestId, tx)) {
        if ((await this.quotes.byIds(link.quoteRequestIds, tx)).every((i) => i.status !== "quoted"))
          await this.quotes.completeLink(link.id, tx);
      }
    });
    return this.get(quoteRequestId);
  }

  /**
   * The client accepts or declines one quoted item. Accepting moves the request to accepted and its task
   * to scheduled in the same transaction. Once no item is left quoted, the link is spent.
   */
  async decide(
    token: string,
    cookies: string[],
    quoteRequestId: number,
    decision: ClientDecision,
  ): Promise<ClientQuoteReport | { gone: true }> {
    const tokenHash = hashToken(token);
    const linkId = await this.deps.transaction(async (tx) => {
      const opened = await openLink(() => this.quotes.findLinkByHash(tokenHash, tx, true), null, cookies);
      if ("gone" in opened || opened.row.claimedAt === null) return null;
      const link = opened.row;
      if (!link.quoteRequestIds.includes(quoteRequestId))
        throw new ValidationError("This item is not in this quote report", {
          quoteRequestId: "Not in this quote report",
        });
      const current = await this.quotes.lock(quoteRequestId, tx);
      if (!current) throw new NotFoundError("Quote request not found");
      if (current.status !== "quoted") throw new ConflictError("This item has already been answered");
      await this.apply(current, decision === "accept" ? "accepted" : "declined", tx);
      await this.raiseDecision(current, decision, tx);
      const items = await this.quotes.byIds(link.quoteRequestIds, tx);
      if (items.every((i) => i.status !== "quoted")) await this.quotes.completeLink(link.id, tx);
      return link.id;
    });
    if (linkId === null) return { gone: true };
    const link = await this.quotes.findLinkById(linkId);
    return this.describe(link!);
  }
}
