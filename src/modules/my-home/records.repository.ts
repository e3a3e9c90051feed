// SQL of My Home's records (Home, Reports, Quotes): My Home's read model, which reads other modules' tables
// (properties, customers, reports, inspections, maintenance tasks, quote requests, invoices) directly, as the
// lint rule's READ_MODELS allows (docs/architecture.md "Modules and layers"; README "Read model"). Every query
// takes the ids HomeAccess allowed: it never decides by itself what a homeowner may see.
import type { Knex } from "knex";
import type { QuotePriority, QuoteSource, QuoteStatus } from "../quotes/quotes.constants.js";
import type { HomeQuote } from "./my-home.schemas.js";

/** A quote request as stored; RecordsService adds its quote document (docs/decisions.md#42) from quotes. */
export type HomeQuoteRow = Omit<HomeQuote, "scope" | "validUntil" | "expired" | "totals" | "afterYes">;

type Row = Record<string, unknown>;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));
const day = (value: unknown) =>
  value instanceof Date ? value.toISOString().slice(0, 10) : ((value as string | null) ?? null);

export interface PropertyRow {
  id: number;
  address: string;
  city: string;
  province: string | null;
  postalCode: string;
  planType: string | null;
}

export interface ReportRow {
  id: number;
  propertyId: number;
  address: string;
  city: string;
  province: string | null;
  postalCode: string;
  createdAt: string;
  inspectionDate: string | null;
  overallScore: number | null;
}

export interface OpenTaskRow {
  id: number;
  propertyId: number;
  reportId: number | null;
  title: string;
  description: string | null;
  priority: string;
  status: string;
  quoteId: number | null;
  quoteStatus: QuoteStatus | null;
}

/** High first, then medium, then low (maintenance priorities). */
const PRIORITY_ORDER_SQL = "case t.priority when 'high' then 0 when 'medium' then 1 else 2 end";
const OPEN_QUOTE_SQL = "q.status in ('pending','quoted','accepted')";
/** What toOpenTask reads: the task and its open quote request. */
const OPEN_TASK_COLUMNS = [
  "t.id",
  "t.property_id",
  "t.report_id",
  "t.title",
  "t.description",
  "t.priority",
  "t.status",
  "q.id as quote_id",
  "q.status as quote_status",
];

export class RecordsRepository {
  constructor(private readonly db: Knex) {}

  /** Maintenance tasks (`t`), each with its open quote request (`q`) when it has one. */
  private withOpenQuote() {
    return this.db("maintenance_tasks as t").leftJoin("quote_requests as q", (j) =>
      j.on("q.maintenance_task_id", "t.id").andOn(this.db.raw(OPEN_QUOTE_SQL)),
    );
  }

  async properties(ids: number[]): Promise<PropertyRow[]> {
    if (!ids.length) return [];
    const rows = await this.db("properties as p")
      .leftJoin("customers as c", "c.id", "p.customer_id")
      .whereIn("p.id", ids)
      .orderBy("p.id")
      .select(
        "p.id",
        "p.address",
        "p.city",
        this.db.raw("coalesce(p.province, p.state) as province"),
        "p.postal_code",
        "c.subscription_plan",
      );
    return rows.map((r: Row) => ({
      id: r.id as number,
      address: r.address as string,
      city: r.city as string,
      province: (r.province as string | null) ?? null,
      postalCode: r.postal_code as string,
      planType: (r.subscription_plan as string | null) ?? null,
    }));
  }

  /** Reports of these properties plus these report ids, newest first. */
  async reports(propertyIds: number[], reportIds: number[]): Promise<ReportRow[]> {
    if (!propertyIds.length && !reportIds.length) return [];
    const rows = await this.db("reports as r")
      .join("properties as p", "p.id", "r.property_id")
      .leftJoin("inspections as i", "i.id", "r.inspection_id")
      .where((w) => {
        if (propertyIds.length) w.whereIn("r.property_id", propertyIds);
        if (reportIds.length) w.orWhereIn("r.id", reportIds);
      })
      .orderBy([
        { column: "r.created_at", order: "desc" },
        { column: "r.id", order: "desc" },
      ])
      .select(
        "r.id",
        "r.property_id",
        "r.created_at",
        "r.overall_score",
        "i.inspection_date",
        "p.address",
        "p.city",
        this.db.raw("coalesce(p.province, p.state) as province"),
        "p.postal_code",
      );
    return rows.map((r: Row) => ({
      id: r.id as number,
      propertyId: r.property_id as number,
      address: r.address as string,
      city: r.city as string,
      province: (r.province as string | null) ?? null,
      postalCode: r.postal_code as string,
      createdAt: iso(r.created_at)!,
      inspectionDate: day(r.inspection_date),
      overallScore: (r.overall_score as number | null) ?? null,
    }));
  }

  /**
   * The open recommendations of these properties: the items of each home's latest report (it says what the home
   * needs now; an older report's item is either in it again or was fixed) that nobody has scheduled, started,
   * done or cancelled yet, high priority first, each with its open quote request when it has one.
   */
  async openRecommendations(propertyIds: number[]): Promise<OpenTaskRow[]> {
    if (!propertyIds.length) return [];
    const latestReports = this.db("reports")
      .whereIn("property_id", propertyIds)
      .distinctOn("property_id")
      .orderBy([{ column: "property_id" }, { column: "created_at", order: "desc" }, { column: "id", order: "desc" }])
      .select("id");
    const rows = await this.withOpenQuote()
      .whereIn("t.property_id", propertyIds)
      .whereIn("t.report_id", latestReports)
      .where("t.status", "pending")
      .orderByRaw(`${PRIORITY_ORDER_SQL}, t.id`)
      .select(OPEN_TASK_COLUMNS);
    return rows.map(toOpenTask);
  }

  /** One task of these properties that is still open (not completed or cancelled), with its open quote request. */
  async openTask(taskId: number, propertyIds: number[]): Promise<OpenTaskRow | null> {
    if (!propertyIds.length) return null;
    const row = await this.withOpenQuote()
      .where("t.id", taskId)
      .whereIn("t.property_id", propertyIds)
      .whereNotIn("t.status", ["completed", "cancelled"])
      .first(OPEN_TASK_COLUMNS);
    return row ? toOpenTask(row) : null;
  }

  /** These tasks of these properties in any status, each with its open quote request (a report's items). */
  async tasks(taskIds: number[], propertyIds: number[]): Promise<OpenTaskRow[]> {
    if (!taskIds.length || !propertyIds.length) return [];
    const rows = await this.withOpenQuote()
      .whereIn("t.id", taskIds)
      .whereIn("t.property_id", propertyIds)
      .select(OPEN_TASK_COLUMNS);
    return rows.map(toOpenTask);
  }

  async taskExists(taskId: number, propertyIds: number[]): Promise<boolean> {
    if (!propertyIds.length) return false;
    return Boolean(
      await this.db("maintenance_tasks").where("id", taskId).whereIn("property_id", propertyIds).first("id"),
    );
  }

  /** Every quote request of these properties, in every status: quoted ones first (they await an answer), then newest. */
  async quotes(propertyIds: number[]): Promise<HomeQuoteRow[]> {
    if (!propertyIds.length) return [];
    const rows = await this.db("quote_requests as q")
      .join("properties as p", "p.id", "q.property_id")
      .join("maintenance_tasks as t", "t.id", "q.maintenance_task_id")
      .whereIn("q.property_id", propertyIds)
      .orderByRaw("(q.status = 'quoted') desc, q.created_at desc, q.id desc")
      .select(
        "q.id",
        "q.property_id",
        "q.maintenance_task_id",
        "q.status",
        "q.priority",
        "q.quoted_amount",
        "q.quoted_cents",
        "q.client_notes",
        "q.source",
        "q.created_at",
        "q.updated_at",
        "t.title",
        "t.description",
        this.db.raw(
          "concat_ws(', ', p.address, p.city, nullif(concat_ws(' ', coalesce(p.province, p.state), p.postal_code), '')) as property_address",
        ),
      );
    return rows.map((r: Row) => ({
      id: r.id as number,
      propertyId: r.property_id as number,
      propertyAddress: r.property_address as string,
      maintenanceTaskId: r.maintenance_task_id as number,
      taskTitle: r.title as string,
      taskDescription: (r.description as string | null) ?? null,
      status: r.status as QuoteStatus,
      priority: r.priority as QuotePriority,
      quotedAmount: (r.quoted_amount as string | null) ?? null,
      quotedCents: r.quoted_cents === null || r.quoted_cents === undefined ? null : Number(r.quoted_cents),
      clientNotes: (r.client_notes as string | null) ?? null,
      source: (r.source === "portal" ? "portal" : "link") as QuoteSource,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
    }));
  }

  /** The properties among these whose latest subscription is past due (the card needs updating). */
  async pastDue(propertyIds: number[]): Promise<Set<number>> {
    if (!propertyIds.length) return new Set();
    const rows = await this.db("subscriptions")
      .whereIn("property_id", propertyIds)
      .where("status", "past_due")
      .distinct("property_id");
    return new Set(rows.map((r: Row) => r.property_id as number));
  }

  /**
   * The subscription an invoice belongs to (the receipt page), or null. An exception kept in the read model:
   * SubscriptionsService has no look-up by invoice id, and the receipt checks ownership through the subscription.
   */
  async invoiceSubscriptionId(invoiceId: number): Promise<number | null> {
    const row = await this.db("invoices").where({ id: invoiceId }).first("subscription_id");
    return row ? (row.subscription_id as number) : null;
  }
}

function toOpenTask(r: Row): OpenTaskRow {
  return {
    id: r.id as number,
    propertyId: r.property_id as number,
    reportId: (r.report_id as number | null) ?? null,
    title: r.title as string,
    description: (r.description as string | null) ?? null,
    priority: r.priority as string,
    status: r.status as string,
    quoteId: (r.quote_id as number | null) ?? null,
    quoteStatus: (r.quote_status as QuoteStatus | null) ?? null,
  };
}
