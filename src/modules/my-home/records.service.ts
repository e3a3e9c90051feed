// My Home's records (Home, Reports, Quotes; docs/decisions.md#29). Every read and action asks
// HomeAccess first; a record that is not the homeowner's is a 404, exactly like one that does not exist.
import type { TransactionRunner } from "../../db/transaction.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { ClientDecision } from "../quotes/quotes.constants.js";
import { barColour, clientLabel } from "../inspections/index.js";
import type { CustomersService } from "../customers/index.js";
import type { PhotosService } from "../inspections/index.js";
import { QuoteExpiredError, type QuotesService } from "../quotes/index.js";
import type { PropertyHistory, ReportsService } from "../reports/index.js";
import { addressLine } from "../../shared/address.js";
import { clientReportData, photoIdsOf, quotePriority, recommendationsOf } from "../sharing/index.js";
import type { HomeAccess } from "./home-access.js";
import type {
  AskQuoteInput,
  HomeProperty,
  HomeQuote,
  HomeRecommendation,
  HomeReportItem,
  HomeReportPayload,
} from "./my-home.schemas.js";
import type { OpenTaskRow, RecordsRepository, ReportRow } from "./records.repository.js";
import { safeFileName } from "../../shared/file-name.js";
import { DEFAULT_LOCALE, type Locale } from "../../i18n/index.js";

export const QUOTE_ANSWERED_MESSAGE = "This item has already been answered";
export const NOT_QUOTABLE_MESSAGE = "This item is done or cancelled: there is nothing to quote";

const toPriority = (p: string): HomeRecommendation["priority"] => (p === "high" || p === "low" ? p : "medium");

const toRecommendation = (t: OpenTaskRow): HomeRecommendation => ({
  id: t.id,
  propertyId: t.propertyId,
  reportId: t.reportId,
  title: t.title,
  description: t.description,
  priority: toPriority(t.priority),
  status: t.status,
  quote: t.quoteId && t.quoteStatus ? { id: t.quoteId, status: t.quoteStatus } : null,
});

const toReportItem = (r: ReportRow, shared: boolean): HomeReportItem => ({
  id: r.id,
  propertyId: r.propertyId,
  address: r.address,
  addressLine: addressLine(r),
  createdAt: r.createdAt,
  inspectionDate: r.inspectionDate,
  overallScore: r.overallScore,
  band: r.overallScore === null ? null : clientLabel(r.overallScore),
  shared,
});

export const reportPdfPath = (id: number, format: "full" | "summary") =>
  `/my-home/reports/${id}/pdf${format === "summary" ? "?format=summary" : ""}`;

/** What the records use of other modules: their services; the read model (RecordsRepository) reads the rest. */
export interface RecordsDeps {
  homeAccess: HomeAccess;
  reports: Pick<ReportsService, "get" | "history" | "pdfOf">;
  customers: Pick<CustomersService, "findPropertyFor">;
  photos: Pick<PhotosService, "load">;
  /** Accept or decline a quote, ask for one: QuotesService's own rules (docs/decisions.md#8). */
  quotes: Pick<QuotesService, "decideAsOwner" | "createRequests" | "clientItems">;
  transaction: TransactionRunner;
}

export class RecordsService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly deps: RecordsDeps,
  ) {}

  private get access() {
    return this.deps.homeAccess;
  }

  /** Home: each property with its latest score, band, trend and what needs attention now. */
  async properties(email: string): Promise<HomeProperty[]> {
    const ids = await this.access.propertyIds(email);
    const [rows, reports, open, pastDue] = await Promise.all([
      this.records.properties(ids),
      this.records.reports(ids, []),
      this.records.openRecommendations(ids),
      this.records.pastDue(ids),
    ]);
    const out: HomeProperty[] = [];
    for (const p of rows) {
      const history = await this.deps.reports.history(p.id);
      const latest = reports.find((r) => r.propertyId === p.id) ?? null;
      const score = history.currentScore;
      out.push({
        id: p.id,
        address: p.address,
        addressLine: addressLine(p),
        planType: p.planType,
        latestReport: latest ? { id: latest.id, createdAt: latest.createdAt, overallScore: latest.overallScore } : null,
        currentScore: score,
        band: score === null ? null : clientLabel(score),
        colour: score === null ? null : barColour(score),
        trend: history.trend,
        openRecommendations: open.filter((t) => t.propertyId === p.id).map(toRecommendation),
        pastDue: pastDue.has(p.id),
      });
    }
    return out;
  }

  /** Every report of their properties, then those shared to their e-mail, newest first. */
  async reports(email: string): Promise<HomeReportItem[]> {
    const [own, shared] = await Promise.all([this.access.propertyIds(email), this.access.sharedReportIds(email)]);
    const rows = await this.records.reports(own, shared);
    const ownSet = new Set(own);
    return rows.map((r) => toReportItem(r, !ownSet.has(r.propertyId)));
  }

  private async readable(email: string, reportId: number) {
    if (!(await this.access.canReadReport(email, reportId))) throw new NotFoundError("Report not found");
    const report = await this.deps.reports.get(reportId);
    const own = await this.access.ownsProperty(email, report.propertyId);
    return { report, own };
  }

  /**
   * One report in the client view's shape: never one-time once signed in (docs/decisions.md#29); its points said in
   * `locale`, the language the island asked in (docs/decisions.md#78).
   */
  async report(email: string, reportId: number, locale: Locale = DEFAULT_LOCALE): Promise<HomeReportPayload> {
    const { report, own } = await this.readable(email, reportId);
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, report.propertyId);
    if (!property) throw new NotFoundError("Report not found");
    const stored = { ...report, reportData: report.reportData as unknown as Record<string, unknown> };
    const items: HomeReportPayload["items"] = {};
    if (own) {
      const ids = recommendationsOf(stored).map((r) => Number(r.id));
      for (const t of await this.records.tasks(ids, [report.propertyId])) {
        items[String(t.id)] = {
          status: t.status,
          quote: t.quoteId && t.quoteStatus ? { id: t.quoteId, status: t.quoteStatus } : null,
        };
      }
    }
    return {
      report: {
        id: report.id,
        createdAt: report.createdAt,
        overallScore: report.overallScore,
        reportData: clientReportData(stored, `/api/my-home/reports/${report.id}/photos`, locale),
      },
      property: {
        id: property.id,
        address: property.address,
        city: property.city,
        province: property.province ?? property.state,
        postalCode: property.postalCode,
        clientName: property.clientName,
      },
      shared: !own,
      items,
      pdf: { full: reportPdfPath(report.id, "full"), summary: reportPdfPath(report.id, "summary") },
    };
  }

  /** A photo the report shows, for a homeowner who may read the report (404 for any other photo). */
  async photo(email: string, reportId: number, photoId: number): Promise<{ mimeType: string; bytes: Buffer }> {
    const { report } = await this.readable(email, reportId);
    if (!photoIdsOf({ ...report, reportData: report.reportData as unknown as Record<string, unknown> }).has(photoId))
      throw new NotFoundError("Photo not found");
    const photo = await this.deps.photos.load(photoId);
    if (!photo) throw new NotFoundError("Photo not found");
    return photo;
  }

  /** The report's PDF (the staff builder, from the same snapshot) and its file name. */
  async pdf(email: string, reportId: number, format: "full" | "summary"): Promise<{ name: string; bytes: Buffer }> {
    const { report } = await this.readable(email, reportId);
    const bytes = await this.deps.reports.pdfOf(report.reportData, format);
    return {
      name: `haven-report-${report.id}-${safeFileName(report.reportData.property.address)}${format === "summary" ? "-summary" : ""}.pdf`,
      bytes,
    };
  }

  /** The history of one of their own properties: never of a property whose report was only shared to them. */
  async history(email: string, propertyId: number): Promise<PropertyHistory> {
    if (!(await this.access.ownsProperty(email, propertyId))) throw new NotFoundError("Property not found");
    return this.deps.reports.history(propertyId);
  }

  /** Their quote requests and quotes in every status (quoted first: they await an answer). */
  async quotes(email: string): Promise<HomeQuote[]> {
    const rows = await this.records.quotes(await this.access.propertyIds(email));
    // Each as a quote document (docs/decisions.md#42): scope, figures with tax, validity, what happens after yes.
    const documents = new Map((await this.deps.quotes.clientItems(rows.map((r) => r.id))).map((d) => [d.id, d]));
    return rows.map((row) => {
      const d = documents.get(row.id);
      return {
        ...row,
        scope: d?.scope ?? null,
        validUntil: d?.validUntil ?? null,
        expired: d?.expired ?? false,
        totals: d?.totals ?? null,
        afterYes: d?.afterYes ?? "",
      };
    });
  }

  /** Open recommendations of their homes, for 'Ask for a quote'. */
  async openRecommendations(email: string): Promise<HomeRecommendation[]> {
    return (await this.records.openRecommendations(await this.access.propertyIds(email))).map(toRecommendation);
  }

  private async quoteOf(email: string, id: number): Promise<HomeQuote> {
    const quote = (await this.quotes(email)).find((q) => q.id === id);
    if (!quote) throw new NotFoundError("Quote request not found");
    return quote;
  }

  /** Accept or decline a quoted item: the quote report's rule (the same state machine), without its link. */
  async decide(email: string, quoteRequestId: number, decision: ClientDecision): Promise<HomeQuote> {
    const own = new Set(await this.access.propertyIds(email));
    try {
      await this.deps.quotes.decideAsOwner(quoteRequestId, decision, (propertyId) => own.has(propertyId));
    } catch (error) {
      // An expired quote says so (docs/decisions.md#42); any other 409 is an answered one.
      if (error instanceof ConflictError && !(error instanceof QuoteExpiredError))
        throw new ConflictError(QUOTE_ANSWERED_MESSAGE, error.fields);
      throw error;
    }
    return this.quoteOf(email, quoteRequestId);
  }

  /**
   * Ask for a quote on an open recommendation (or any open task) of their own home: a quote request marked as
   * from the portal, made like a link's answer (quotes.createRequests), so an open request of the task gets the
   * note appended instead of a second one. Staff see it at once in the quote requests list ('From My Home').
   */
  async askQuote(email: string, input: AskQuoteInput): Promise<{ quote: HomeQuote; created: boolean }> {
    const own = await this.access.propertyIds(email);
    const task = await this.records.openTask(input.taskId, own);
    if (!task) {
      // Theirs but done or cancelled: say so; anyone else's (or none): a 404 that tells nothing.
      if (await this.records.taskExists(input.taskId, own))
        throw new ConflictError(NOT_QUOTABLE_MESSAGE, { recommendationId: NOT_QUOTABLE_MESSAGE });
      throw new NotFoundError("Recommendation not found");
    }
    let priority = quotePriority({ priority: toPriority(task.priority) });
    if (task.reportId) {
      const report = await this.deps.reports.get(task.reportId).catch(() => null);
      const rec = report
        ? recommendationsOf({ ...report, reportData: report.reportData as unknown as Record<string, unknown> }).find(
            (r) => Number(r.id) === task.id,
          )
        : undefined;
      if (rec) priority = quotePriority(rec);
    }
    const [id] = await this.deps.transaction((tx) =>
      this.deps.quotes.createRequests(
        [
          {
            propertyId: task.propertyId,
            maintenanceTaskId: task.id,
            shareId: null,
            priority,
            clientNotes: input.notes,
            source: "portal",
          },
        ],
        tx,
      ),
    );
    return { quote: await this.quoteOf(email, id!), created: task.quoteId === null };
  }
}
