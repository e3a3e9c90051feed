// The client's side of quotes (docs/decisions.md#42 and #43): the quote report page a link opens, the answers given
// there or in My Home, the office's bell for them, and the homeowner's "your quote is ready" e-mail. The status
// machine and the staff moves stay in QuotesService (quotes.service.ts), which builds this and lends it `apply`.
import { enqueueJob, type TransactionRunner, type Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError, ValidationError } from "../../http/errors.js";
import { addressLine } from "../../shared/address.js";
import { expiryFrom, hashToken, newToken, openLink } from "../../shared/one-time-links.js";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/index.js";
import type { CustomersService } from "../customers/index.js";
import type { Notifications } from "../notifications/index.js";
import {
  type ClientDecision,
  type ClientQuoteItem,
  QUOTE_REPORT_MAIL_TASK,
  type QuoteStatus,
} from "./quotes.constants.js";
import type { QuoteLinkRow, QuotesRepository } from "./quotes.repository.js";
import { type ClientQuoteReport, type QuoteFigures, sumTotals, toClientItem } from "./quote-view.js";

/** The staff user who recorded an answer on the homeowner's behalf, as the office's bell names them. */
export interface QuoteActor {
  name: string;
  role: string;
}

/** What QuoteDecisions uses; QuotesService builds it from its own deps. */
export interface QuoteDecisionsDeps {
  quotes: QuotesRepository;
  transaction: TransactionRunner;
  customers: Pick<CustomersService, "findPropertyFor" | "findCustomer">;
  /** The staff bell: a client's accept or decline (notifications README). */
  notifications?: Pick<Notifications, "raise"> | null;
  figures: QuoteFigures;
  /** The site's public origin: the quote page link of a quote-ready e-mail. */
  publicUrl: string;
  /** QuotesService's status machine: writes a move and its effect on the task. */
  apply: (
    current: { id: number; maintenanceTaskId: number; validUntil: string | null },
    status: QuoteStatus,
    tx: Tx,
  ) => Promise<void>;
}

export class QuoteDecisions {
  private readonly quotes: QuotesRepository;

  constructor(private readonly deps: QuoteDecisionsDeps) {
    this.quotes = deps.quotes;
  }

  private today(): string {
    return this.deps.figures.today();
  }

  /**
   * An answer to a quoted item, for the office, in the answer's transaction: the client's or homeowner's, or one
   * staff recorded on their behalf (`byStaff`), so the rest of the office hears of it too. The line says who did
   * what (docs/decisions.md#55): "Priya Nguyen accepted the quote for … at 12 Elm St", or "Olivia Chen (office)
   * accepted the quote for … at 12 Elm St for Priya Nguyen"; staff without a name (the CLI) read "The office".
   */
  async raiseDecision(
    locked: { id: number },
    decision: ClientDecision,
    tx: Tx,
    byStaff?: QuoteActor | true,
  ): Promise<void> {
    if (!this.deps.notifications) return;
    const current = (await this.quotes.find(locked.id, tx))!;
    const verb = decision === "accept" ? "accepted" : "declined";
    const street = current.propertyAddress.split(",")[0]!.trim();
    const what = `the quote for ${current.taskTitle}${current.quotedAmount ? ` (${current.quotedAmount})` : ""} at ${street}`;
    const staff = byStaff === true ? "The office" : byStaff ? `${byStaff.name} (${byStaff.role})` : null;
    await this.deps.notifications.raise(tx, {
      kind: decision === "accept" ? "quote-accepted" : "quote-declined",
      recordType: "quote_request",
      recordId: current.id,
      // An accepted quote is the office's to book (docs/decisions.md#43); a declined one is listed with the others.
      // No address in the link: the line outlives an erasure, which scrubs only its text.
      link: decision === "accept" ? "/admin/quotes-to-book" : "/admin/quote-requests?status=declined",
      text: staff ? `${staff} ${verb} ${what} for ${current.clientName}` : `${current.clientName} ${verb} ${what}`,
    });
  }

  /**
   * The homeowner's "your quote is ready" e-mail of a quote just made or changed (docs/decisions.md#42): a
   * quote page link of this one item, and the job that renders and sends it, in the move's transaction. The
   * job carries the version the move wrote: a job whose quote has moved on since sends nothing, so each
   * version of a quote is e-mailed at most once.
   */
  async queueQuoteReady(id: number, propertyId: number, clientEmail: string, tx: Tx): Promise<void> {
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
      link: `${this.deps.publicUrl}/quote-report/${token}`,
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
    return toClientItem(this.deps.figures.present(row), this.today());
  }

  /** The quote report of a link for the job that e-mails it (no browser involved). */
  async quoteReportForMail(linkId: number): Promise<{ link: QuoteLinkRow; report: ClientQuoteReport; locale: Locale }> {
    const link = await this.quotes.findLinkById(linkId);
    if (!link) throw new NotFoundError("Quote report link not found");
    // The e-mail and its PDF speak the home's customer's language (customers.locale, docs/decisions.md#65).
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, link.propertyId);
    const customer = property ? await this.deps.customers.findCustomer(property.customerId) : null;
    return { link, report: await this.describe(link), locale: customer?.locale ?? DEFAULT_LOCALE };
  }

  private async describe(link: QuoteLinkRow): Promise<ClientQuoteReport> {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, link.propertyId);
    if (!property) throw new NotFoundError("Property not found");
    const today = this.today();
    const items = (await this.quotes.byIds(link.quoteRequestIds)).map((row) =>
      toClientItem(this.deps.figures.present(row), today),
    );
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
  ): Promise<void> {
    await this.deps.transaction(async (tx) => {
      const current = await this.quotes.lock(quoteRequestId, tx);
      if (!current || !mayDecide(current.propertyId)) throw new NotFoundError("Quote request not found");
      if (current.status !== "quoted")
        throw new ConflictError("This item has already been answered", {
          status: `Not allowed from ${current.status}`,
        });
      await this.deps.apply(current, decision === "accept" ? "accepted" : "declined", tx);
      await this.raiseDecision(current, decision, tx);
      // A quote report link whose items are now all answered is spent, as if answered there.
      for (const link of await this.quotes.openLinksWith(quoteRequestId, tx)) {
        if ((await this.quotes.byIds(link.quoteRequestIds, tx)).every((i) => i.status !== "quoted"))
          await this.quotes.completeLink(link.id, tx);
      }
    });
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
      await this.deps.apply(current, decision === "accept" ? "accepted" : "declined", tx);
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
