import type { TransactionRunner, Tx } from "../../db/transaction.js";
import { ConflictError, NotFoundError } from "../../http/errors.js";
import type { StaffUser } from "../auth/auth.schemas.js";
import { type PropertyHistory, buildHistory } from "./history.js";
import { renderReportPdf } from "./pdf.js";
import {
  type ReportData,
  type ReportRecommendation,
  type SourceInspection,
  buildReportData,
  withRecommendationIds,
} from "./report-data.js";
import type { Report, ReportListItem, ReportsRepository } from "./reports.repository.js";
import type { PdfFormat } from "./reports.schemas.js";
import { baseSubcategory } from "../inspections/index.js";
import { DEFAULT_LOCALE, type Locale, type RenderLocale } from "../../i18n/locales.js";

export type { Report, ReportListItem };

export const NOT_COMPLETED_MESSAGE = "Only a completed inspection can have a report";
export const ALREADY_REPORTED_MESSAGE = "This inspection already has a report: delete it first to generate it again";
export const NO_INSPECTION_TITLE = "No Available Inspections";
export const NO_INSPECTION_MESSAGE = "No completed inspections found that don't already have reports.";

/** What the reports service uses of other modules (their services, never their repositories). */
/**
 * A maintenance task category (maintenance.constants.ts TASK_CATEGORIES). Maintenance shares the reports'
 * layer, so reports name what they send it here instead of importing it (docs/architecture.md).
 */
export type TaskCategory =
  | "hvac"
  | "plumbing"
  | "electrical"
  | "roofing"
  | "flooring"
  | "exterior"
  | "landscaping"
  | "cleaning"
  | "safety"
  | "other";

/** The pending maintenance task a recommendation becomes (a NewTask of the maintenance module). */
export interface RecommendationTask {
  propertyId: number;
  reportId: number;
  title: string;
  description: string;
  category: TaskCategory;
  priority: "low" | "medium" | "high";
  status: "pending";
}

/** What the reports service uses; src/container.ts builds them before it, in dependency order. */
export interface ReportsDeps {
  inspections: { get(id: number): Promise<SourceInspection> };
  photos: { load(id: number): Promise<{ mimeType: string; bytes: Buffer } | null> };
  maintenance: {
    createTasks(tasks: RecommendationTask[], tx?: Tx): Promise<{ id: number }[]>;
    deleteUntouchedReportTasks(reportId: number, tx?: Tx): Promise<number>;
  };
  users: { findById(id: number): Promise<StaffUser | null> };
  customers: {
    findPropertyFor(
      viewer: { kind: "staff" },
      id: number,
    ): Promise<{
      id: number;
      customerId: number;
      address: string;
      city: string;
      province?: string | null;
      state?: string | null;
      postalCode?: string | null;
      clientName: string;
      clientEmail: string;
    } | null>;
    findCustomer(id: number): Promise<{ locale: Locale } | null>;
  };
}

/** The maintenance task category of a recommendation (staff-side §9 task categories). */
export function taskCategoryOf(category: string, subcategory: string): TaskCategory {
  const item = baseSubcategory(subcategory);
  if (item === "Flooring") return "flooring";
  if (item === "Cleanliness") return "cleaning";
  if (/Electrical|Smoke|Receptacles/.test(item)) return "electrical";
  switch (category) {
    case "Plumbing":
      return "plumbing";
    case "HVAC":
      return "hvac";
    case "Electrical":
      return "electrical";
    case "Roof":
      return "roofing";
    case "Exterior Envelope":
    case "Windows and Doors":
      return "exterior";
    case "Site & Drainage":
      return /Grading|Vegetation/.test(item) ? "landscaping" : "exterior";
    case "Miscellaneous / Safety":
      return "safety";
    default:
      return /Leaks|Supply|Drain|Sink|Toilet|Faucet|Shower|Bathtub/.test(item) ? "plumbing" : "other";
  }
}

const taskOf = (propertyId: number, reportId: number, r: ReportRecommendation): RecommendationTask => ({
  propertyId,
  reportId,
  title: `${r.subcategory} (${r.category})`,
  description: r.notes ? `${r.notes}\n\n${r.description}` : r.description,
  category: taskCategoryOf(r.category, r.subcategory),
  priority: r.priority,
  status: "pending",
});

/** Health reports: frozen snapshots of completed inspections (docs/decisions.md#19, docs/decisions.md#20). */
export class ReportsService {
  constructor(
    private readonly reports: ReportsRepository,
    private readonly transaction: TransactionRunner,
    private readonly deps: ReportsDeps,
  ) {}

  /**
   * Freezes a completed inspection into a report. In one transaction: the report row, one pending
   * maintenance task per recommendation (its id becomes the recommendation's id), the snapshot.
   */
  async generate(inspectionId: number): Promise<Report> {
    const inspection = await this.deps.inspections.get(inspectionId);
    if (inspection.status !== "completed") throw new ConflictError(NOT_COMPLETED_MESSAGE);
    const [existing, inspector] = await Promise.all([
      this.reports.findByInspection(inspectionId),
      inspection.inspectorId ? this.deps.users.findById(inspection.inspectorId) : null,
    ]);
    if (existing) throw new ConflictError(ALREADY_REPORTED_MESSAGE);
    const inspectorName = inspector ? `${inspector.firstName} ${inspector.lastName}` : null;
    const generatedAt = new Date().toISOString();
    return this.transaction(async (tx) => {
      // The unique inspection_id settles a race between two generations: the second one is a 409.
      const reportId = await this.reports.insertPlaceholder(inspection.propertyId, inspectionId, tx);
      if (reportId === null) throw new ConflictError(ALREADY_REPORTED_MESSAGE);
      const draft = buildReportData(inspection, { reportId, generatedAt, inspectorName });
      const tasks = await this.deps.maintenance.createTasks(
        draft.recommendations.map((r) => taskOf(inspection.propertyId, reportId, r)),
        tx,
      );
      return this.reports.saveSnapshot(
        reportId,
        withRecommendationIds(
          draft,
          tasks.map((t) => t.id),
        ),
        tx,
      );
    });
  }

  async list(filter: {
    limit: number;
    offset: number;
    q?: string;
    inspectorId?: number;
  }): Promise<{ rows: Report[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.reports.list(filter.limit, filter.offset, filter.q || undefined, filter.inspectorId),
      this.reports.count(filter.q || undefined, filter.inspectorId),
    ]);
    return { rows, total };
  }

  /** Every report matching the list's search, newest first, in batches (CSV export; no snapshot arrays). */
  exportRows(filter: { q?: string; inspectorId?: number }): AsyncGenerator<Report[]> {
    return this.reports.exportRows(filter.q || undefined, filter.inspectorId);
  }

  /** The list page's rows: what it shows, without the snapshots. */
  async listItems(filter: {
    limit: number;
    offset: number;
    q?: string;
    inspectorId?: number;
  }): Promise<{ rows: ReportListItem[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.reports.listItems(filter.limit, filter.offset, filter.q || undefined, filter.inspectorId),
      this.reports.count(filter.q || undefined, filter.inspectorId),
    ]);
    return { rows, total };
  }

  async get(id: number): Promise<Report> {
    const report = await this.reports.find(id);
    if (!report) throw new NotFoundError("Report not found");
    return report;
  }

  findByInspection(inspectionId: number): Promise<Report | null> {
    return this.reports.findByInspection(inspectionId);
  }

  /**
   * Deletes the report with the recommendation tasks no one has acted on, so generating it again makes no
   * duplicates. Tasks already edited, quoted or scheduled stay, unlinked.
   */
  async delete(id: number): Promise<void> {
    const deleted = await this.transaction(async (tx) => {
      await this.deps.maintenance.deleteUntouchedReportTasks(id, tx);
      return this.reports.delete(id, tx);
    });
    if (!deleted) throw new NotFoundError("Report not found");
  }

  /** The first completed inspection without a report (the list's Generate Report), or null. */
  nextInspectionToReport(): Promise<number | null> {
    return this.reports.firstInspectionWithoutReport();
  }

  inspectionsWithoutReport(): Promise<number[]> {
    return this.reports.inspectionsWithoutReport();
  }

  allIds(): Promise<number[]> {
    return this.reports.allIds();
  }

  /** The full report or the one-to-two-page summary as a PDF (docs/decisions.md#20). */
  async pdf(id: number, format: PdfFormat = "full"): Promise<Buffer> {
    const report = await this.get(id);
    return this.pdfOf(report.reportData, format);
  }

  /**
   * Renders a snapshot (the sharing module may render one it holds) in its home's customer's language, whoever
   * downloads it: a report is a document, and documents follow the customer (docs/decisions.md#65, #70). Unlike an
   * invoice, a Quebec home's report is not French for an English-speaking customer (#68 is for billing documents).
   */
  async pdfOf(data: ReportData, format: PdfFormat = "full", locale?: RenderLocale): Promise<Buffer> {
    const language = locale ?? (await this.customerLocale(data.property.id));
    return renderReportPdf(data, format, (photoId) => this.deps.photos.load(photoId), language);
  }

  /** The language of a home's customer (customers.locale); English for a home no longer on file. */
  async customerLocale(propertyId: number): Promise<Locale> {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    const customer = property ? await this.deps.customers.findCustomer(property.customerId) : null;
    return customer?.locale ?? DEFAULT_LOCALE;
  }

  /** A property's history: its inspections, scores, trend, and what changed between the latest two. */
  async history(propertyId: number): Promise<PropertyHistory> {
    const property = await this.deps.customers.findPropertyFor({ kind: "staff" }, propertyId);
    if (!property) throw new NotFoundError("Property not found");
    const inspections = await this.reports.propertyInspections(propertyId);
    const scored = inspections.filter((i) => i.status === "completed" && i.overallScore !== null);
    const [previous, latest] = scored.slice(-2).length === 2 ? scored.slice(-2) : [undefined, scored.at(-1)];
    const [latestFull, previousFull] = await Promise.all([
      latest ? this.deps.inspections.get(latest.id) : null,
      previous ? this.deps.inspections.get(previous.id) : null,
    ]);
    return buildHistory(
      {
        id: property.id,
        address: property.address,
        city: property.city,
        province: property.province ?? property.state ?? null,
        postalCode: property.postalCode ?? null,
        clientName: property.clientName,
        clientEmail: property.clientEmail,
      },
      inspections,
      latestFull,
      previousFull,
    );
  }
}
