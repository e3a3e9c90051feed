import type { Knex } from "knex";
import { cursorBatches } from "../../db/cursor.js";
import { SEARCH_COUNT_CAP, countToCap, propertyMatches } from "../../db/property-search.js";
import type { Tx } from "../../db/transaction.js";
import type { Inspection, InspectionStatus, InspectionVisit } from "./inspections.schemas.js";
import { type EntryWrite, type NewInspectionRow, type StoredEntry, iso, keyOf, toEntry } from "./inspection-rows.js";

type Row = Record<string, unknown>;
type Db = Tx | Knex;

const toInspection = (row: Row): Inspection => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  bookingId: (row.booking_id as number | null) ?? null,
  inspectorId: (row.inspector_id as number | null) ?? null,
  inspectionDate: row.inspection_date as string,
  scheduledDate: (row.scheduled_date as string | null) ?? null,
  status: row.status as InspectionStatus,
  overallScore: (row.overall_score as number | null) ?? null,
  notes: (row.notes as string | null) ?? null,
  completedAt: iso(row.completed_at),
  createdAt: iso(row.created_at)!,
  updatedAt: iso(row.updated_at)!,
  property: {
    id: row.property_id as number,
    address: row.address as string,
    city: row.city as string,
    province: (row.province as string | null) ?? null,
    postalCode: (row.postal_code as string | null) ?? null,
    clientName: row.client_name as string,
    clientEmail: row.client_email as string,
  },
});

/** The list's filter; `inspectorId` limits it to one inspector's own inspections (docs/decisions.md#36). */
export interface InspectionFilter {
  status?: InspectionStatus;
  q?: string;
  inspectorId?: number;
  /** Not completed; completed in [from, to): the dashboard's figures as lists (docs/decisions.md#55). */
  open?: boolean;
  completedIn?: { from: Date; to: Date };
}

/** The list's order: newest first (created_at, then id). */
const NEWEST_FIRST = [
  { column: "i.created_at", order: "desc" as const },
  { column: "i.id", order: "desc" as const },
];

export class InspectionsRepository {
  constructor(private readonly db: Knex) {}

  private selectJoined(db: Db) {
    return db("inspections as i")
      .join("properties as p", "p.id", "i.property_id")
      .leftJoin("inspection_bookings as b", "b.id", "i.booking_id")
      .select(
        "i.*",
        "p.address",
        "p.city",
        "p.province",
        "p.postal_code",
        "p.client_name",
        "p.client_email",
        "b.scheduled_date",
      );
  }

  async find(id: number, db: Db = this.db): Promise<Inspection | null> {
    const row = await this.selectJoined(db).where("i.id", id).first();
    return row ? toInspection(row) : null;
  }

  /** The client's phone and the linked booking's access and notes (InspectionVisit). */
  async visit(id: number, db: Db = this.db): Promise<InspectionVisit | null> {
    const row = await db("inspections as i")
      .join("properties as p", "p.id", "i.property_id")
      .leftJoin("inspection_bookings as b", "b.id", "i.booking_id")
      .select(
        "b.id as booking_id",
        "p.client_phone",
        "p.notes as homeowner_notes",
        "b.access_method",
        "b.access_instructions",
        "b.special_requests",
        "b.notes",
        db.raw("coalesce(trim(b.access_code), '') <> '' as has_access_code"),
      )
      .where("i.id", id)
      .first();
    if (!row) return null;
    return {
      bookingId: row.booking_id ?? null,
      clientPhone: row.client_phone ?? null,
      homeownerNotes: row.homeowner_notes ?? null,
      hasAccessCode: row.has_access_code === true,
      accessMethod: row.access_method ?? null,
      accessInstructions: row.access_instructions ?? null,
      specialRequests: row.special_requests ?? null,
      bookingNotes: row.notes ?? null,
    };
  }

  /** Locks the inspection row for this transaction: `update` for status changes, `share` for entry saves. */
  async lock(
    id: number,
    mode: "update" | "share",
    tx: Tx,
  ): Promise<{ id: number; status: InspectionStatus; bookingId: number | null } | null> {
    const query = tx("inspections").select("id", "status", "booking_id").where({ id }).first();
    const row = await (mode === "update" ? query.forUpdate() : query.forShare());
    return row ? { id: row.id, status: row.status, bookingId: row.booking_id ?? null } : null;
  }

  private filtered(db: Db, filter: InspectionFilter) {
    const query = db("inspections as i");
    if (filter.status) query.where("i.status", filter.status);
    if (filter.open) query.whereNot("i.status", "completed");
    const done = filter.completedIn;
    if (done) query.where("i.completed_at", ">=", done.from).where("i.completed_at", "<", done.to);
    // An inspector's list holds their own inspections only (docs/decisions.md#36).
    if (filter.inspectorId !== undefined) query.where("i.inspector_id", filter.inspectorId);
    const q = filter.q?.trim();
    // The matching properties come from their trigram index; without a search, count and page read indexes alone.
    if (q) {
      const matching = db("properties as p")
        .select("p.id")
        .whereRaw(...propertyMatches("p", q));
      query.where((w) => {
        w.whereIn("i.property_id", matching);
        if (/^\d{1,9}$/.test(q)) w.orWhere("i.id", Number(q));
      });
    }
    return query;
  }

  /**
   * Newest first (created_at, then id), one page, and the count. A search counts its matches up to SEARCH_COUNT_CAP:
   * past it, `total` is the cap, `capped` is true, and the page walks the list newest first and stops at its rows
   * (docs/decisions.md#77, #88).
   */
  async list(
    filter: InspectionFilter & { limit: number; offset: number },
    db: Db = this.db,
  ): Promise<{ rows: Inspection[]; total: number; capped: boolean }> {
    const newestFirst = (query: Knex.QueryBuilder) =>
      query.select("i.id").orderBy(NEWEST_FIRST).limit(filter.limit).offset(filter.offset);
    let count: { total: number; capped: boolean };
    let page: Knex.QueryBuilder;
    if (filter.q?.trim()) {
      const ids = (await this.filtered(db, filter)
        .limit(SEARCH_COUNT_CAP + 1)
        .pluck("i.id")) as number[];
      count = countToCap(ids);
      page = newestFirst(
        count.capped ? this.filtered(db, filter) : db("inspections as i").whereRaw("i.id = any(?::int[])", [ids]),
      );
    } else {
      const [row] = await this.filtered(db, filter).count<{ count: number }[]>({ count: "*" });
      count = { total: Number(row?.count ?? 0), capped: false };
      page = newestFirst(this.filtered(db, filter));
    }
    const rows = await this.selectJoined(db).whereIn("i.id", page).orderBy(NEWEST_FIRST);
    return { rows: rows.map(toInspection), ...count };
  }

  /** Every inspection `list` would page through, in its order, a batch at a time (CSV export). */
  exportRows(filter: InspectionFilter): AsyncGenerator<Inspection[]> {
    const db = this.db;
    const rows = this.selectJoined(db).whereIn("i.id", this.filtered(db, filter).select("i.id")).orderBy(NEWEST_FIRST);
    return cursorBatches(db, rows, toInspection);
  }

  /** The report of each of these inspections, if any (one page of the list; reports.inspection_id is unique, so indexed). */
  async reportIds(inspectionIds: number[], db: Db = this.db): Promise<Map<number, number>> {
    if (!inspectionIds.length) return new Map();
    const rows: { id: number; inspection_id: number }[] = await db("reports")
      .whereIn("inspection_id", inspectionIds)
      .select("id", "inspection_id");
    return new Map(rows.map((r) => [r.inspection_id, r.id]));
  }

  async propertyExists(propertyId: number, db: Db = this.db): Promise<boolean> {
    return Boolean(await db("properties").where({ id: propertyId }).first("id"));
  }

  /** Locks the property row so two inspections started at once never link the same booking. */
  async lockProperty(propertyId: number, tx: Tx): Promise<boolean> {
    return Boolean(await tx("properties").where({ id: propertyId }).forUpdate().first("id"));
  }

  /** The property's earliest scheduled booking that no inspection fulfils yet. */
  async findOpenBooking(propertyId: number, db: Db = this.db): Promise<number | null> {
    const row = await db("inspection_bookings as b")
      .where({ "b.property_id": propertyId, "b.status": "scheduled" })
      .whereNotExists(db("inspections as i").whereRaw("i.booking_id = b.id"))
      .orderBy([{ column: "b.scheduled_date" }, { column: "b.id" }])
      .first("b.id");
    return (row?.id as number | undefined) ?? null;
  }

  async insert(rows: NewInspectionRow[], db: Db = this.db): Promise<number[]> {
    if (!rows.length) return [];
    const inserted = await db("inspections")
      .insert(
        rows.map((r) => ({
          property_id: r.propertyId,
          booking_id: r.bookingId,
          inspector_id: r.inspectorId,
          inspection_date: r.inspectionDate,
          status: r.status,
          overall_score: r.overallScore ?? null,
          notes: r.notes ?? null,
          completed_at: r.completedAt ?? null,
          ...(r.createdAt && { created_at: r.createdAt, updated_at: r.completedAt ?? r.createdAt }),
        })),
      )
      .returning("id");
    return inserted.map((r: { id: number }) => r.id);
  }

  async setStatus(id: number, status: InspectionStatus, tx: Db): Promise<void> {
    await tx("inspections").where({ id }).update({ status, updated_at: tx.fn.now() });
  }

  async markCompleted(id: number, overallScore: number | null, tx: Db): Promise<void> {
    await tx("inspections")
      .where({ id })
      .update({ status: "completed", overall_score: overallScore, completed_at: tx.fn.now(), updated_at: tx.fn.now() });
  }

  async completeBookings(bookingIds: number[], tx: Db): Promise<void> {
    if (bookingIds.length) await tx("inspection_bookings").whereIn("id", bookingIds).update({ status: "completed" });
  }

  async entries(inspectionId: number, db: Db = this.db): Promise<StoredEntry[]> {
    const rows = await db("inspection_entries").where({ inspection_id: inspectionId }).orderBy("id");
    return rows.map(toEntry);
  }

  /** The stored entries with these keys, locked against a concurrent save of the same keys. */
  async entriesByKey(
    inspectionId: number,
    keys: { categoryName: string; subcategoryName: string }[],
    tx: Tx,
  ): Promise<Map<string, StoredEntry>> {
    if (!keys.length) return new Map();
    const rows = await tx("inspection_entries")
      .where({ inspection_id: inspectionId })
      .whereIn(
        ["category_name", "subcategory_name"],
        keys.map((k) => [k.categoryName, k.subcategoryName]),
      )
      .forUpdate();
    return new Map(
      rows.map((row: Row) => [keyOf(row.category_name as string, row.subcategory_name as string), toEntry(row)]),
    );
  }

  /**
   * Upserts entries by (inspection, category, subcategory). A row whose values are unchanged is not
   * touched (its updated_at stays), so a retried chunk changes nothing. Returns the ids by key.
   */
  async upsertEntries(inspectionId: number, entries: EntryWrite[], tx: Db): Promise<Map<string, number>> {
    if (!entries.length) return new Map();
    await tx.raw(
      `insert into inspection_entries (inspection_id, category_name, subcategory_name, score, notes, urgent)
       select ?, e.category_name, e.subcategory_name, e.score, e.notes, e.urgent
       from jsonb_to_recordset(?::jsonb) as e(category_name text, subcategory_name text, score smallint, notes text, urgent boolean)
       on conflict (inspection_id, category_name, subcategory_name) do update
         set score = excluded.score, notes = excluded.notes, urgent = excluded.urgent, updated_at = now()
         where (inspection_entries.score, inspection_entries.notes, inspection_entries.urgent)
               is distinct from (excluded.score, excluded.notes, excluded.urgent)`,
      [
        inspectionId,
        JSON.stringify(
          entries.map((e) => ({
            category_name: e.categoryName,
            subcategory_name: e.subcategoryName,
            score: e.score,
            notes: e.notes,
            urgent: e.urgent,
          })),
        ),
      ],
    );
    const rows = await tx("inspection_entries")
      .where({ inspection_id: inspectionId })
      .whereIn(
        ["category_name", "subcategory_name"],
        entries.map((e) => [e.categoryName, e.subcategoryName]),
      )
      .select("id", "category_name", "subcategory_name");
    return new Map(
      rows.map((row: Row) => [keyOf(row.category_name as string, row.subcategory_name as string), row.id as number]),
    );
  }

  /** Many inspections' entries at once (the demo seed): new rows, one array parameter per column (unnest). */
  async insertEntries(
    rows: (EntryWrite & { inspectionId: number; updatedAt?: string | Date | null })[],
    tx: Db,
  ): Promise<void> {
    const chunk = 10_000;
    for (let i = 0; i < rows.length; i += chunk) {
      const part = rows.slice(i, i + chunk);
      await tx.raw(
        `insert into inspection_entries (inspection_id, category_name, subcategory_name, score, notes, urgent, created_at, updated_at)
         select e.inspection_id, e.category_name, e.subcategory_name, e.score, e.notes, e.urgent, coalesce(e.at, now()), coalesce(e.at, now())
         from unnest(?::int[], ?::text[], ?::text[], ?::smallint[], ?::text[], ?::boolean[], ?::timestamptz[])
           as e(inspection_id, category_name, subcategory_name, score, notes, urgent, at)`,
        // One array per column: node-postgres writes each as an array literal (quotes, commas and nulls escaped).
        [
          part.map((e) => e.inspectionId),
          part.map((e) => e.categoryName),
          part.map((e) => e.subcategoryName),
          part.map((e) => e.score),
          part.map((e) => e.notes),
          part.map((e) => e.urgent),
          part.map((e) => (e.updatedAt ? new Date(e.updatedAt).toISOString() : null)),
        ] as unknown as Knex.RawBinding[],
      );
    }
  }

  /** Photo ids per entry id, in position order. */
  async photoIds(entryIds: number[], db: Db = this.db): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!entryIds.length) return map;
    const rows = await db("inspection_entry_photos")
      .whereIn("entry_id", entryIds)
      .orderBy([{ column: "entry_id" }, { column: "position" }, { column: "id" }])
      .select("entry_id", "photo_id");
    for (const row of rows) {
      const list = map.get(row.entry_id) ?? [];
      list.push(row.photo_id);
      map.set(row.entry_id, list);
    }
    return map;
  }

  async existingPhotoIds(ids: number[], db: Db = this.db): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await db("photos").whereIn("id", ids).select("id");
    return new Set(rows.map((r: { id: number }) => r.id));
  }

  /**
   * Makes an entry's photo links exactly `photoIds`, in that order. Links that stay keep their row
   * (and the client id the upload gave them); returns whether anything changed.
   */
  async replacePhotos(entryId: number, photoIds: number[], tx: Db): Promise<boolean> {
    const removed = await tx("inspection_entry_photos")
      .where({ entry_id: entryId })
      .modify((q) => {
        if (photoIds.length) q.whereNotIn("photo_id", photoIds);
      })
      .delete();
    if (!photoIds.length) return removed > 0;
    const result = await tx.raw(
      `insert into inspection_entry_photos (entry_id, photo_id, position)
       select ?, p.photo_id, p.position from jsonb_to_recordset(?::jsonb) as p(photo_id int, position int)
       on conflict (entry_id, photo_id) do update set position = excluded.position
         where inspection_entry_photos.position is distinct from excluded.position`,
      [entryId, JSON.stringify(photoIds.map((photoId, position) => ({ photo_id: photoId, position })))],
    );
    return removed > 0 || (result.rowCount ?? 0) > 0;
  }

  async touchEntries(entryIds: number[], tx: Db): Promise<void> {
    if (entryIds.length) await tx("inspection_entries").whereIn("id", entryIds).update({ updated_at: tx.fn.now() });
  }
}
