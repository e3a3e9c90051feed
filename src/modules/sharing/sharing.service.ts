import type { AuditLog } from "../audit/index.js";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/index.js";
import { enqueueJob, type TransactionRunner } from "../../db/transaction.js";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../http/errors.js";
import { addressLine } from "../../shared/address.js";
import type { CustomersService } from "../customers/index.js";
import type { MaintenanceService } from "../maintenance/index.js";
import type { QuotesService } from "../quotes/index.js";
import { SERVING_STATUSES, type SubscriptionsService } from "../subscriptions/index.js";
import { expiryFrom, hashToken, isToken, newToken, openLink } from "../../shared/one-time-links.js";
import {
  SAMPLE_CLIENT_PROPERTY,
  SAMPLE_READ_ONLY_MESSAGE,
  SAMPLE_REPORT_ID,
  SAMPLE_SHARE,
  sampleStoredReport,
} from "./sample.js";
import { SHARE_MAIL_TASK } from "./sharing.constants.js";
import type { ShareRow, SharingRepository } from "./sharing.repository.js";
import type { ClientReportPayload, ClientResponseInput, ShareSummary, StoredReport } from "./sharing.schemas.js";
import { clientReportData, photoIdsOf, quotePriority, recommendationsOf } from "./client-report-data.js";

export { SHARE_MAIL_TASK };

export interface ShareMailPayload {
  reportId: number;
  to: string;
  link: string;
  expiresAt: string;
  propertyAddress: string;
  /** The home's client, when the report goes to the client's own e-mail: the e-mail greets them by name. */
  recipientName?: string | null;
  /** The language of the home's customer (customers.locale): the e-mail and its link are in it. */
  locale?: Locale;
}

type Gone = { gone: true };

const clientPayload = (
  report: StoredReport,
  token: string,
  share: ClientReportPayload["share"],
  property: ClientReportPayload["property"],
  locale: Locale,
): ClientReportPayload => ({
  report: {
    id: report.id,
    createdAt: report.createdAt,
    overallScore: report.overallScore,
    reportData: clientReportData(report, `/api/client-report/${token}/photos`, locale),
  },
  share,
  property,
});

/** What the sharing service uses of other modules: their services, never their repositories. */
export interface SharingDeps {
  /** The frozen report a link shows, and its summary PDF (ReportsService). */
  reports: { get(id: number): Promise<StoredReport>; pdf(id: number, format: "full" | "summary"): Promise<Buffer> };
  /** The report's photos, served to the link's browser (PhotosService). */
  photos: { load(id: number): Promise<{ mimeType: string; bytes: Buffer } | null> };
  customers: Pick<CustomersService, "findPropertyFor" | "findCustomer">;
  maintenance: Pick<MaintenanceService, "findTask">;
  /** A client's request_quote answers become quote requests in the response's transaction. */
  quotes: Pick<QuotesService, "createRequests">;
  transaction: TransactionRunner;
  /** The audit trail: each link shared (and links it revoked) is one event (docs/decisions.md#39). */
  audit: Pick<AuditLog, "record">;
  /** Whether a used link's report belongs to a paying customer, who can read it in My Home instead. */
  subscriptions: Pick<SubscriptionsService, "forProperty">;
}

/** One-time report links and the client's responses (docs/decisions.md#7 and #8). */
export class SharingService {
  constructor(
    private readonly shares: SharingRepository,
    private readonly deps: SharingDeps,
  ) {}

  private async propertyOf(propertyId: number) {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    if (!property) throw new NotFoundError("Property not found");
    return property;
  }

  /**
   * A new link to a report for a client: the token goes into the e-mail and the answer, only its hash into
   * the database. The e-mail job (which renders the summary PDF) is queued in the same transaction.
   */
  async share(
    reportId: number,
    clientEmail: string,
    origin: string,
    options: { sendEmail?: boolean; revokeLive?: boolean } = {},
  ): Promise<{ reportLink: string; share: ShareRow; revoked: number }> {
    const report = await this.deps.reports.get(reportId);
    const property = await this.propertyOf(report.propertyId);
    const token = newToken();
    const locale = (await this.deps.customers.findCustomer(property.customerId))?.locale ?? DEFAULT_LOCALE;
    const reportLink = `${origin}/client-report/${token}`;
    let revoked = 0;
    const share = await this.deps.transaction(async (tx) => {
      if (options.revokeLive) revoked = await this.shares.revokeLive(reportId, tx);
      const row = await this.shares.insert(
        { reportId, tokenHash: hashToken(token), clientEmail, expiresAt: expiryFrom(new Date()) },
        tx,
      );
      if (options.sendEmail !== false) {
        const payload: ShareMailPayload = {
          reportId,
          to: clientEmail,
          link: reportLink,
          expiresAt: row.expiresAt,
          propertyAddress: addressLine(property),
          recipientName:
            property.clientEmail?.toLowerCase() === clientEmail.toLowerCase() ? property.clientName || null : null,
          locale,
        };
        await enqueueJob(tx, SHARE_MAIL_TASK, payload);
      }
      await this.deps.audit.record(tx, {
        action: options.revokeLive ? "report.share_rotate" : "report.share",
        recordType: "report",
        recordId: reportId,
        after: {
          shareId: row.id,
          clientEmail,
          expiresAt: row.expiresAt,
          emailed: options.sendEmail !== false,
          ...(options.revokeLive ? { linksRevoked: revoked } : {}),
        },
      });
      return row;
    });
    return { reportLink, share, revoked };
  }

  /**
   * `haven shares rotate`: revokes the report's live links and issues a new one, e-mailed when `email` is
   * given (true: to the latest share's client, else the property's client).
   */
  async rotate(
    reportId: number,
    origin: string,
    email?: string | true,
  ): Promise<{ reportLink: string; share: ShareRow; revoked: number; emailedTo: string | null }> {
    const report = await this.deps.reports.get(reportId);
    const latest = (await this.shares.list({ limit: 1, offset: 0, reportId })).rows[0];
    const to =
      typeof email === "string"
        ? email
        : (latest?.clientEmail ?? (await this.propertyOf(report.propertyId)).clientEmail);
    const { reportLink, share, revoked } = await this.share(reportId, to, origin, {
      sendEmail: Boolean(email),
      revokeLive: true,
    });
    return { reportLink, share, revoked, emailedTo: email ? to : null };
  }

  list(options: {
    limit: number;
    offset: number;
    q?: string;
    reportId?: number;
  }): Promise<{ rows: ShareSummary[]; total: number }> {
    return this.shares.list(options);
  }

  /** The page: never claims (a mail scanner fetching the page must not spend the link); gone when another browser holds it. */
  async pageAccess(token: string, cookies: string[]): Promise<"ok" | "sample" | "gone" | "gone-member" | "malformed"> {
    if (token === SAMPLE_REPORT_ID) return "sample";
    if (!isToken(token)) return "malformed";
    const opened = await openLink(() => this.shares.findByHash(hashToken(token)), null, cookies);
    if (!("gone" in opened)) return "ok";
    return (await this.forMember(token)) ? "gone-member" : "gone";
  }

  /** A link that no longer opens, of a report whose home has a paying plan: My Home shows it (docs/decisions.md#28). */
  private async forMember(token: string): Promise<boolean> {
    const share = await this.shares.findByHash(hashToken(token));
    if (!share) return false;
    const report = await this.deps.reports.get(share.reportId).catch(() => null);
    if (!report) return false;
    const found = await this.deps.subscriptions.forProperty(report.propertyId);
    return Boolean(found && SERVING_STATUSES.includes(found.subscription.status));
  }

  private async openShare(
    token: string,
    cookies: string[],
    claim: boolean,
  ): Promise<{ share: ShareRow; binding?: string } | Gone> {
    if (!isToken(token)) return { gone: true };
    const tokenHash = hashToken(token);
    const opened = await openLink(
      () => this.shares.findByHash(tokenHash),
      claim ? (binding) => this.shares.claim(tokenHash, binding) : null,
      cookies,
    );
    if ("gone" in opened) return opened;
    // Without a claim an unclaimed link opens nothing beyond the page shell.
    if (!claim && opened.row.claimedAt === null) return { gone: true };
    return { share: opened.row, binding: opened.binding };
  }

  /**
   * GET /api/client-report/{token}: claims the link on the first view, then only for this browser. `locale` is the
   * language the island asked in: the points' names and descriptions are said in it.
   */
  async clientReport(
    token: string,
    cookies: string[],
    locale: Locale = DEFAULT_LOCALE,
  ): Promise<{ payload: ClientReportPayload; binding?: string } | Gone> {
    if (token === SAMPLE_REPORT_ID)
      return { payload: clientPayload(sampleStoredReport(), token, SAMPLE_SHARE, SAMPLE_CLIENT_PROPERTY, locale) };
    const opened = await this.openShare(token, cookies, true);
    if ("gone" in opened) return opened;
    const report = await this.deps.reports.get(opened.share.reportId);
    const property = await this.propertyOf(report.propertyId);
    const responses = await this.shares.responsesOf(opened.share.id);
    return {
      binding: opened.binding,
      payload: clientPayload(
        report,
        token,
        {
          clientEmail: opened.share.clientEmail,
          createdAt: opened.share.createdAt,
          expiresAt: opened.share.expiresAt,
          respondedAt: opened.share.respondedAt,
          responses,
        },
        {
          id: property.id,
          address: property.address,
          city: property.city,
          province: property.province ?? property.state,
          postalCode: property.postalCode,
          clientName: property.clientName,
        },
        locale,
      ),
    };
  }

  /** A photo of the shared report, for the browser that holds the link. */
  async photo(token: string, cookies: string[], photoId: number): Promise<{ mimeType: string; bytes: Buffer } | Gone> {
    const opened = await this.openShare(token, cookies, false);
    if ("gone" in opened) return opened;
    const report = await this.deps.reports.get(opened.share.reportId);
    const photos = this.deps.photos;
    if (!photoIdsOf(report).has(photoId) || !photos) throw new NotFoundError("Photo not found");
    const photo = await photos.load(photoId);
    if (!photo) throw new NotFoundError("Photo not found");
    return photo;
  }

  /**
   * The client's answers, once per link: the row is locked, so of concurrent submissions exactly one is
   * recorded and the others get 409. Each request_quote becomes a quote request in the same transaction.
   */
  async respond(
    token: string,
    cookies: string[],
    responses: ClientResponseInput[],
  ): Promise<{ recorded: number; quoteRequests: number } | Gone> {
    if (token === SAMPLE_REPORT_ID) throw new ForbiddenError(SAMPLE_READ_ONLY_MESSAGE);
    if (!isToken(token)) return { gone: true };
    const tokenHash = hashToken(token);
    // Read the snapshot before taking the row lock: inside the transaction only its own connection is used,
    // so concurrent submissions queued on the lock can never starve the pool.
    const unlocked = await this.shares.findByHash(tokenHash);
    if (!unlocked) return { gone: true };
    const stored = await this.deps.reports.get(unlocked.reportId);
    const report = await this.deps.transaction(async (tx) => {
      const opened = await openLink(() => this.shares.findByHash(tokenHash, tx, true), null, cookies);
      if ("gone" in opened || opened.row.claimedAt === null) return null;
      const share = opened.row;
      if (share.respondedAt) throw new ConflictError("Responses have already been submitted for this report");
      const recommendations = new Map(recommendationsOf(stored).map((rec) => [Number(rec.id), rec]));
      const fields: Record<string, string> = {};
      const seen = new Set<number>();
      responses.forEach((r, i) => {
        if (!recommendations.has(r.maintenanceTaskId))
          fields[`responses.${i}.maintenanceTaskId`] = "This item is not in this report";
        else if (seen.has(r.maintenanceTaskId))
          fields[`responses.${i}.maintenanceTaskId`] = "Each item takes one response";
        seen.add(r.maintenanceTaskId);
      });
      for (const [i, r] of responses.entries()) {
        if (fields[`responses.${i}.maintenanceTaskId`]) continue;
        const task = await this.deps.maintenance.findTask(r.maintenanceTaskId, tx);
        if (!task || task.propertyId !== stored.propertyId)
          fields[`responses.${i}.maintenanceTaskId`] = "This item is not in this report";
      }
      if (Object.keys(fields).length)
        throw new ValidationError("Some responses name items that are not in this report", fields);
      await this.shares.insertResponses(share.id, responses, tx);
      const quotes = await this.deps.quotes.createRequests(
        responses
          .filter((r) => r.action === "request_quote")
          .map((r) => ({
            propertyId: stored.propertyId,
            maintenanceTaskId: r.maintenanceTaskId,
            shareId: share.id,
            priority: quotePriority(recommendations.get(r.maintenanceTaskId)),
            clientNotes: r.notes,
          })),
        tx,
      );
      await this.shares.markResponded(share.id, tx);
      return { recorded: responses.length, quoteRequests: quotes.length };
    });
    return report ?? { gone: true };
  }
}
