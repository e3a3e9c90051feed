import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import type { Tx } from "../../db/transaction.js";
import { type ReportData, normaliseReportData } from "./report-data.js";

type Row = Record<string, unknown>;

export interface Report {
  id: number;
  propertyId: number;
  inspectionId: number;
  createdAt: string;
  overallScore: number | null;
  reportData: ReportData;
}

/** One row of the reports list page: what it shows, without the snapshot. */
export interface ReportListItem {
  id: number;
  propertyId: number;
  inspectionId: number;
  createdAt: string;
  overallScore: number | null;
  address: string;
  city: string | null;
  clientName: string | null;
  /** The client's e-mail on file now: the share dialog starts with it. */
  clientEmail: string | null;
  inspectionDate: string | null;
  totalIssues: number;
  highPriority: number;
}

/** One completed inspection of a property, for its history. */
export interface HistoryInspection {
  id: number;
  inspectionDate: string;
  status: string;
  overallScore: number | null;
  completedAt: string | null;
  reportId: number | null;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
const day = (value: unknown) =>
  value instanceof Date
    ? value.toISOString().slice(0, 10)
    : value === null || value === undefined
      ? null
      : String(value).slice(0, 10);

const toReport = (row: Row): Report => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  inspectionId: row.inspection_id as number,
  createdAt: iso(row.created_at),
  overallScore: (row.overall_score as number | null) ?? null,
  reportData: normaliseReportData(row.report_data),
});

const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class ReportsRepository {
  constructor(private readonly db: Knex) {}

  /** A report row with an empty snapshot, to learn its id; null when the inspection already has one. */
  async insertPlaceholder(propertyId: number, inspectionId: number, tx: Tx): Promise<number | null> {
    const rows = await tx("reports")
      .insert({ property_id: propertyId, inspection_id: inspectionId, report_data: {} })
      .onConflict("inspection_id")
      .ignore()
      .returning("id");
    return rows[0] ? (rows[0].id as number) : null;
  }

  async saveSnapshot(id: number, data: ReportData, tx: Tx): Promise<Report> {
    const [row] = await tx("reports")
      .where({ id })
      .update({ report_data: JSON.stringify(data), overall_score: data.overallScore })
      .returning("*");
    return toReport(row);
  }

  async find(id: number): Promise<Report | null> {
    const row = await this.db("reports").where({ id }).first();
    return row ? toReport(row) : null;
  }

  async findByInspection(inspectionId: number): Promise<Report | null> {
    const row = await this.db("reports").where({ inspection_id: inspectionId }).first();
    return row ? toReport(row) : null;
  }

  private filtered(q?: string, inspectorId?: number) {
    const query = this.db("reports as r");
    // An inspector's list holds the reports of their own inspections only (docs/decisions.md#36).
    if (inspectorId !== undefined)
      query.whereIn("r.inspection_id", this.db("inspections").select("id").where({ inspector_id: inspectorId }));
    if (q) {
      query
        .join("properties as p", "p.id", "r.property_id")
        .where((w) =>
          w
            .whereILike("p.address", like(q))
            .orWhereILike("p.city", like(q))
            .orWhereILike("p.client_name", like(q))
            .orWhereRaw("r.id::text = ?", [q]),
        );
    }
    return query;
  }

  async count(q?: string, inspectorId?: number): Promise<number> {
    const row = await this.filtered(q, inspectorId).count({ n: "*" }).first();
    return Number(row?.n ?? 0);
  }

  /** Newest first (created_at desc, id desc: the reports_created_idx index). */
  async list(limit: number, offset: number, q?: string, inspectorId?: number): Promise<Report[]> {
    const rows = await this.filtered(q, inspectorId)
      .select("r.*")
      .orderBy([
        { column: "r.created_at", order: "desc" },
        { column: "r.id", order: "desc" },
      ])
      .limit(limit)
      .offset(offset);
    return rows.map(toReport);
  }

  /**
   * Every report `list` would page through, in its order, a batch at a time (CSV export). The snapshot's
   * arrays (categories, recommendations) stay in Postgres: a CSV row has no cell for them, and a batch of
   * whole snapshots would weigh megabytes.
   */
  exportRows(q?: string, inspectorId?: number): AsyncGenerator<Report[]> {
    const rows = this.filtered(q, inspectorId)
      .select(
        "r.id",
        "r.property_id",
        "r.inspection_id",
        "r.created_at",
        "r.overall_score",
        this.db.raw("r.report_data - 'recommendations' - 'issues' - 'allCategories' - 'categories' as report_data"),
      )
      .orderBy([
        { column: "r.created_at", order: "desc" },
        { column: "r.id", order: "desc" },
      ]);
    return cursorBatches(this.db, rows, toReport);
  }

  async listItems(limit: number, offset: number, q?: string, inspectorId?: number): Promise<ReportListItem[]> {
    const ids = this.filtered(q, inspectorId)
      .select("r.id")
      .orderBy([
        { column: "r.created_at", order: "desc" },
        { column: "r.id", order: "desc" },
      ])
      .limit(limit)
      .offset(offset);
    const rows = await this.db("reports as r")
      .join("properties as p", "p.id", "r.property_id")
      .leftJoin("inspections as i", "i.id", "r.inspection_id")
      .whereIn("r.id", ids)
      .select(
        "r.id",
        "r.property_id",
        "r.inspection_id",
        "r.created_at",
        "r.overall_score",
        "p.address",
        "p.city",
        "p.client_name",
        "p.client_email",
        "i.inspection_date",
        this.db.raw("coalesce((r.report_data->'summary'->>'totalIssues')::int, 0) as total_issues"),
        this.db.raw("coalesce((r.report_data->'summary'->>'highPriority')::int, 0) as high_priority"),
      )
      .orderBy([
        { column: "r.created_at", order: "desc" },
        { column: "r.id", order: "desc" },
      ]);
    return rows.map((row: Row) => ({
      id: row.id as number,
      propertyId: row.property_id as number,
      inspectionId: row.inspection_id as number,
      createdAt: iso(row.created_at),
      overallScore: (row.overall_score as number | null) ?? null,
      address: row.address as string,
      city: (row.city as string | null) ?? null,
      clientName: (row.client_name as string | null) ?? null,
      clientEmail: (row.client_email as string | null) ?? null,
      inspectionDate: day(row.inspection_date),
      totalIssues: Number(row.total_issues),
      highPriority: Number(row.high_priority),
    }));
  }

  async delete(id: number, tx: Knex = this.db): Promise<boolean> {
    return (await tx("reports").where({ id }).delete()) > 0;
  }

  /** The first completed inspection (oldest completed first) that has no report yet. */
  async firstInspectionWithoutReport(): Promise<number | null> {
    const row = await this.db("inspections as i")
      .where("i.status", "completed")
      .whereNotExists((q) => q.select(this.db.raw("1")).from("reports as r").whereRaw("r.inspection_id = i.id"))
      .orderBy([
        { column: "i.completed_at", order: "asc" },
        { column: "i.id", order: "asc" },
      ])
      .first("i.id");
    return row ? (row.id as number) : null;
  }

  /** Every completed inspection without a report, oldest first (the CLI's --all-missing). */
  async inspectionsWithoutReport(): Promise<number[]> {
    const rows = await this.db("inspections as i")
      .where("i.status", "completed")
      .whereNotExists((q) => q.select(this.db.raw("1")).from("reports as r").whereRaw("r.inspection_id = i.id"))
      .orderBy([
        { column: "i.completed_at", order: "asc" },
        { column: "i.id", order: "asc" },
      ])
      .select("i.id");
    return rows.map((r: Row) => r.id as number);
  }

  async allIds(): Promise<number[]> {
    return (await this.db("reports").orderBy("id").select("id")).map((r: Row) => r.id as number);
  }

  /** A property's inspections, oldest first, with their report when one exists. */
  async propertyInspections(propertyId: number): Promise<HistoryInspection[]> {
    const rows = await this.db("inspections as i")
      .leftJoin("reports as r", "r.inspection_id", "i.id")
      .where("i.property_id", propertyId)
      .orderBy([
        { column: "i.inspection_date", order: "asc" },
        { column: "i.id", order: "asc" },
      ])
      .select("i.id", "i.inspection_date", "i.status", "i.overall_score", "i.completed_at", "r.id as report_id");
    return rows.map((row: Row) => ({
      id: row.id as number,
      inspectionDate: day(row.inspection_date)!,
      status: row.status as string,
      overallScore: (row.overall_score as number | null) ?? null,
      completedAt: row.completed_at ? iso(row.completed_at) : null,
      reportId: (row.report_id as number | null) ?? null,
    }));
  }
}
