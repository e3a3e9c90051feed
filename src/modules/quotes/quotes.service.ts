import { enqueueJob, type TransactionRunner, type Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { todayIn } from "../../shared/business-time.js";
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
import type { BellItem, QuoteLinkRow, QuotesRepository } from "./quotes.repository.js";
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
  totalCents: number | null;
  expiresAt: string;
  completed: boolean;
}

export const toClientItem = (q: QuoteRequest): ClientQuoteItem => ({
  id: q.id,
  taskTitle: q.taskTitle,
  taskDescription: q.taskDescription,
  priority: q.priority,
  quotedAmount: q.quotedAmount,
  quotedCents: q.quotedCents,
  status: q.status,
});

/** Sum of the items' cents; null unless every amount reads as a dollar figure. */
const totalOf = (items: { quotedCents: number | null }[]) =>
  items.every((i) => i.quotedCents !== null) ? items.reduce((sum, i) => sum + (i.quotedCents ?? 0), 0) : null;

/** What the quotes service uses of other modules (their services, never their repositories), and its settings. */
export interface QuotesDeps {
  /** An accepted quote schedules its task, a completed one completes it (same transaction). */
  maintenance: Pick<MaintenanceService, "setTaskStatus">;
  customers: Pick<CustomersService, "findPropertyFor">;
  transaction: TransactionRunner;
  /** The audit trail: staff moves, deletions and quote reports sent (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  /** The staff bell: a client's accept or decline, and the bell's count and list (notifications README). */
  notifications?: Pick<Notifications, "raise" | "unreadCount"> | null;
  settings: {
    /** BUSINESS_TZ: the date of an "Asked again on" note. */
    timeZone: string;
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

  /** The client's (or homeowner's) answer to a quoted item, for the office, in the answer's transaction. */
  private async raiseDecision(locked: { id: number }, decision: ClientDecision, tx: Tx): Promise<void> {
    if (!this.deps.notifications) return;
    const current = (await this.quotes.find(locked.id, tx))!;
    await this.deps.notifications.raise(tx, {
      kind: decision === "accept" ? "quote-accepted" : "quote-declined",
      recordType: "quote_request",
      recordId: current.id,
      link: `/admin/quote-requests?${new URLSearchParams({ q: current.propertyAddress.split(",")[0] ?? "" })}`,
      text: `${current.clientName} ${decision === "accept" ? "accepted" : "declined"} the quote for ${current.taskTitle}${current.quotedAmount ? ` (${current.quotedAmount})` : ""}`,
    });
  }

  /** The bell's list (the last 30 days, newest first); opening it marks everything up to now as seen. */
  async openBell(staffUserId: number): Promise<BellItem[]> {
    const items = await this.quotes.bellItems(staffUserId, 50, 30);
    await this.quotes.markBellSeen(staffUserId);
    return items;
  }

  list(options: { limit: number; offset: number; q?: string; status?: QuoteStatus; propertyId?: number }) {
    return this.quotes.list(options);
  }

  /** Every request matching the list's filter, newest first, in batches (CSV export). */
  exportRows(options: { q?: string; status?: QuoteStatus; propertyId?: number }) {
    return this.quotes.exportRows(options);
  }

  async get(id: number): Promise<QuoteRequest> {
    const quote = await this.quotes.find(id);
    if (!quote) throw new NotFoundError("Quote request not found");
    return quote;
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
        throw new StaleEditError(STALE_QUOTE_MESSAGE, await this.quotes.find(id, tx));
      }
      if (!isStaffMove(current.status, input.status)) {
        throw new ConflictError(`A ${current.status} quote request cannot move to ${input.status}`, {
          status: `Not allowed from ${current.status}`,
        });
      }
      const before = await this.quotes.find(id, tx);
      await this.apply(current, input.status, tx, input);
      const after = await this.quotes.find(id, tx);
      await this.deps.audit.record(tx, { action: "quote.update", recordType: "quote", recordId: id, before, after });
    });
    return this.get(id);
  }

  /** Writes a move and its effect on the task: accepted schedules it, completed completes it. */
  private async apply(
    current: { id: number; maintenanceTaskId: number },
    status: QuoteStatus,
    tx: Tx,
    input: { quotedAmount?: string | null; adminNotes?: string | null } = {},
  ): Promise<void> {
    if (status === "quoted") {
      const quotedAmount = input.quotedAmount?.trim();
      if (!quotedAmount)
        throw new ValidationError("Quoted amount is required", { quotedAmount: "Quoted amount is required" });
      await this.quotes.update(
        current.id,
        {
          status,
          quotedAmount,
          quotedCents: parseCents(quotedAmount),
          adminNotes: input.adminNotes ?? null,
          quoted: true,
        },
        tx,
      );
      return;
    }
    await this.quotes.update(current.id, { status, decided: status === "accepted" || status === "declined" }, tx);
    if (status === "accepted") await this.deps.maintenance.setTaskStatus(current.maintenanceTaskId, "scheduled", tx);
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
      const quoted = await this.quotes.quotedOfProperty(propertyId, tx);
      if (!quoted.length) throw new ConflictError("This property has no quoted items to send");
      const totalCents = totalOf(quoted);
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
      return { reportLink, items: quoted.map(toClientItem), totalCents, clientEmail: property.clientEmail };
    });
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
    const items = (await this.quotes.byIds(link.quoteRequestIds)).map(toClientItem);
    return {
      linkId: link.id,
      property: { address: addressLine(property), clientName: property.clientName },
      items,
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
