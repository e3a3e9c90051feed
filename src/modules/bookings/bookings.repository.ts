import type { Knex } from "knex";
import { propertyMatches } from "../../db/property-search.js";
import type { Tx } from "../../db/transaction.js";
import type { Range } from "./availability.js";
import { cursorBatches } from "../../db/cursor.js";
import type { BookingsFilter } from "./bookings-desk.schemas.js";
import type { Booking } from "./bookings.schemas.js";

export interface NewBooking {
  propertyId: number;
  customerId: number;
  scheduledDate: string;
  timeSlot: string;
  accessMethod?: string | null;
  accessCode?: string | null;
  accessInstructions?: string | null;
  specialRequests?: string | null;
  notes?: string | null;
  source: "wizard" | "booking-page" | "onboarding";
  /** The inspector it is given to (docs/decisions.md#37); null: nobody, as when no inspector is set up. */
  inspectorId?: number | null;
  /** The instants it holds (ms); null only for a slot that names no time. */
  during?: Range | null;
}

/** A range as Postgres' tstzrange, start included, end excluded. */
const tstzrange = (db: Tx | Knex, range: Range | null | undefined) =>
  range
    ? db.raw("tstzrange(?::timestamptz, ?::timestamptz, '[)')", [
        new Date(range.start).toISOString(),
        new Date(range.end).toISOString(),
      ])
    : null;

type Row = Record<string, unknown>;

const toBooking = (row: Row): Booking => ({
  id: row.id as number,
  propertyId: row.property_id as number,
  customerId: row.customer_id as number,
  scheduledDate: row.scheduled_date as string,
  timeSlot: row.time_slot as string,
  preferredTime: row.time_slot as string,
  notes: (row.notes as string | null) ?? null,
  accessMethod: (row.access_method as string | null) ?? null,
  accessCode: (row.access_code as string | null) ?? null,
  accessInstructions: (row.access_instructions as string | null) ?? null,
  specialRequests: (row.special_requests as string | null) ?? null,
  status: row.status as string,
  source: row.source as string,
  createdAt: (row.created_at as Date).toISOString(),
  address: row.address as string,
  city: row.city as string,
  state: (row.state as string | null) ?? null,
  province: (row.province as string | null) ?? null,
  postalCode: (row.postal_code as string | null) ?? null,
  clientName: row.client_name as string,
  clientEmail: row.client_email as string,
  clientPhone: (row.client_phone as string | null) ?? null,
  preferredContact: null,
  subscriptionPlan: row.subscription_plan as string,
  inspectorId: (row.inspector_id as number | null) ?? null,
  inspectorName: (row.inspector_name as string | null) ?? null,
});

/** A new booking's columns. */
const bookingRow = (db: Tx | Knex, b: NewBooking) => ({
  inspector_id: b.inspectorId ?? null,
  during: tstzrange(db, b.during),
  property_id: b.propertyId,
  customer_id: b.customerId,
  scheduled_date: b.scheduledDate,
  time_slot: b.timeSlot,
  access_method: b.accessMethod ?? null,
  access_code: b.accessCode ?? null,
  access_instructions: b.accessInstructions ?? null,
  special_requests: b.specialRequests ?? null,
  notes: b.notes ?? null,
  source: b.source,
});

const NEWEST_FIRST = [
  { column: "b.created_at", order: "desc" as const },
  { column: "b.id", order: "desc" as const },
];
// By the visit's date, then the instant it starts (a booking with no range last in its day): inspection_bookings'
// scheduled_date index bounds a date range, and a day's few rows sort in memory.
const BY_TIME = [
  { column: "b.scheduled_date" },
  { column: "b.during", order: "asc" as const, nulls: "last" as const },
  { column: "b.id" },
];

/** The staff list's filter (bookings-desk.schemas.ts): search, dates, status and inspector. */
function bookingsWhere(builder: Knex.QueryBuilder, query: BookingsFilter): Knex.QueryBuilder {
  // An inspector's list holds their own bookings only (docs/decisions.md#36).
  if (query.inspectorId !== undefined) builder.where("b.inspector_id", query.inspectorId);
  if (query.inspector === "unassigned") builder.whereNull("b.inspector_id");
  else if (query.inspector !== undefined) builder.where("b.inspector_id", query.inspector);
  if (query.from) builder.where("b.scheduled_date", ">=", query.from);
  if (query.to) builder.where("b.scheduled_date", "<=", query.to);
  if (query.status) builder.where("b.status", query.status);
  if (query.q?.trim()) builder.whereRaw(...propertyMatches("p", query.q));
  return builder;
}

export class BookingsRepository {
  constructor(private readonly db: Knex) {}

  private selectJoined(db: Tx | Knex) {
    return db("inspection_bookings as b")
      .join("properties as p", "p.id", "b.property_id")
      .leftJoin("staff_users as i", "i.id", "b.inspector_id")
      .select(
        "b.*",
        db.raw("trim(i.first_name || ' ' || i.last_name) as inspector_name"),
        "p.address",
        "p.city",
        "p.state",
        "p.province",
        "p.postal_code",
        "p.client_name",
        "p.client_email",
        "p.client_phone",
        "p.subscription_plan",
      );
  }

  async insert(booking: NewBooking, tx: Tx | Knex = this.db): Promise<Booking> {
    const [row] = await tx("inspection_bookings").insert(bookingRow(tx, booking)).returning("id");
    return (await this.find(row.id as number, tx))!;
  }

  /**
   * Holds the property's bookings for the rest of the transaction, so two submissions for one home
   * take turns and the second sees what the first booked.
   */
  async lockProperty(propertyId: number, tx: Tx): Promise<void> {
    await tx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`booking-property:${propertyId}`]);
  }

  /** The customer's scheduled booking of this property at this date and slot, if there is one. */
  async findScheduled(
    booking: Pick<NewBooking, "propertyId" | "customerId" | "scheduledDate" | "timeSlot">,
    tx: Tx | Knex = this.db,
  ): Promise<Booking | null> {
    const row = await this.selectJoined(tx)
      .where({
        "b.property_id": booking.propertyId,
        "b.customer_id": booking.customerId,
        "b.scheduled_date": booking.scheduledDate,
        "b.time_slot": booking.timeSlot,
        "b.status": "scheduled",
      })
      .orderBy("b.id")
      .first();
    return row ? toBooking(row) : null;
  }

  /** Many bookings in one multi-row insert (the demo seed); ids in input order. */
  async insertMany(
    bookings: (NewBooking & { status: string; createdAt: Date })[],
    tx: Tx | Knex = this.db,
  ): Promise<number[]> {
    if (!bookings.length) return [];
    const rows = await tx("inspection_bookings")
      .insert(bookings.map((b) => ({ ...bookingRow(tx, b), status: b.status, created_at: b.createdAt })))
      .returning("id");
    return rows.map((r: { id: number }) => r.id);
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<Booking | null> {
    const row = await this.selectJoined(tx).where("b.id", id).first();
    return row ? toBooking(row) : null;
  }

  /** Staff lists: a page of every booking, newest first, and the count of all that match the search. */
  async listPage(
    query: BookingsFilter & { limit: number; offset: number },
  ): Promise<{ rows: Booking[]; total: number }> {
    const filter = (builder: Knex.QueryBuilder) => bookingsWhere(builder, query);
    const [rows, [count]] = await Promise.all([
      filter(this.selectJoined(this.db))
        .orderBy(query.sort === "time" ? BY_TIME : NEWEST_FIRST)
        .limit(query.limit)
        .offset(query.offset),
      filter(this.db("inspection_bookings as b").join("properties as p", "p.id", "b.property_id")).count<
        { n: number }[]
      >({ n: "*" }),
    ]);
    return { rows: rows.map(toBooking), total: Number(count?.n ?? 0) };
  }

  /** Every booking of the filter, in the list's order, a batch at a time from a cursor (the CSV export). */
  exportRows(query: BookingsFilter): AsyncGenerator<Booking[]> {
    const rows = bookingsWhere(this.selectJoined(this.db), query).orderBy(
      query.sort === "time" ? BY_TIME : NEWEST_FIRST,
    );
    return cursorBatches(this.db, rows, toBooking);
  }

  /** Every booking of these properties, latest date first (the properties page matches them by propertyId). */
  async listForProperties(propertyIds: number[]): Promise<Booking[]> {
    if (!propertyIds.length) return [];
    const rows = await this.selectJoined(this.db)
      .whereIn("b.property_id", propertyIds)
      .orderBy([
        { column: "b.scheduled_date", order: "desc" },
        { column: "b.id", order: "desc" },
      ]);
    return rows.map(toBooking);
  }

  /** Bookings dated in [from, to] ('YYYY-MM-DD'), by date then id; the maintenance calendar and reminders read these. */
  async listBetween(from: string, to: string): Promise<Booking[]> {
    const rows = await this.selectJoined(this.db)
      .whereBetween("b.scheduled_date", [from, to])
      .orderBy([{ column: "b.scheduled_date" }, { column: "b.id" }]);
    return rows.map(toBooking);
  }

  /** Bookings, oldest first; optionally only some customers'. */
  async list(customerIds?: number[]): Promise<Booking[]> {
    const query = this.selectJoined(this.db).orderBy([{ column: "b.created_at" }, { column: "b.id" }]);
    if (customerIds) query.whereIn("b.customer_id", customerIds);
    return (await query).map(toBooking);
  }

  // --- Staff changes from the calendar ---

  /** The booking, its row locked for the rest of the transaction. */
  async findForUpdate(id: number, tx: Tx): Promise<Booking | null> {
    const locked = await tx("inspection_bookings").where({ id }).forUpdate().first("id");
    return locked ? this.find(id, tx) : null;
  }

  /**
   * A new date and slot, or the status cancelled; `note` is added as a line of the booking's notes (My Home's
   * changes); an inspector and the instants held when they are given.
   */
  async change(
    id: number,
    change: {
      scheduledDate?: string;
      timeSlot?: string;
      status?: "cancelled";
      note?: string;
      inspectorId?: number | null;
      during?: Range | null;
    },
    tx: Tx,
  ): Promise<Booking> {
    const patch: Record<string, unknown> = {};
    if (change.scheduledDate) patch.scheduled_date = change.scheduledDate;
    if (change.timeSlot) patch.time_slot = change.timeSlot;
    if (change.status) patch.status = change.status;
    if (change.note) patch.notes = tx.raw("concat_ws(E'\\n', nullif(notes, ''), ?::text)", [change.note]);
    if (change.inspectorId !== undefined) patch.inspector_id = change.inspectorId;
    if (change.during !== undefined) patch.during = tstzrange(tx, change.during);
    await tx("inspection_bookings").where({ id }).update(patch);
    return (await this.find(id, tx))!;
  }

  // --- Inspectors' calendars (docs/decisions.md#37) ---

  /** The home's size in square feet, which sets how long its inspection lasts; null when unknown. */
  /** The language of the home's customer (customers.locale): the booking's e-mails follow it. */
  async customerLocale(propertyId: number, tx: Tx | Knex = this.db): Promise<string | null> {
    const row = await tx("properties as p")
      .join("customers as c", "c.id", "p.customer_id")
      .where("p.id", propertyId)
      .first("c.locale");
    return (row?.locale as string | undefined) ?? null;
  }

  async propertySize(propertyId: number, tx: Tx | Knex = this.db): Promise<number | null> {
    const row = await tx("properties").where({ id: propertyId }).first("square_footage");
    return (row?.square_footage as number | null | undefined) ?? null;
  }

  /**
   * What the wizard asked of a home it reuses (one intake made, which asks no type): the chosen type is saved on
   * the property, and a size or year it lacks is filled in; a size on file stays.
   */
  async saveAskedDetails(
    propertyId: number,
    details: { propertyType: string; squareFootage: number | null; yearBuilt: number | null },
    tx: Tx,
  ): Promise<void> {
    await tx("properties")
      .where({ id: propertyId })
      .update({
        property_type: details.propertyType,
        square_footage: tx.raw("coalesce(square_footage, ?)", [details.squareFootage]),
        year_built: tx.raw("coalesce(year_built, ?)", [details.yearBuilt]),
      });
  }

  async propertySizes(propertyIds: number[], tx: Tx | Knex = this.db): Promise<Map<number, number | null>> {
    const sizes = new Map<number, number | null>();
    for (let i = 0; i < propertyIds.length; i += 5000) {
      const rows = await tx("properties")
        .whereIn("id", propertyIds.slice(i, i + 5000))
        .select("id", "square_footage");
      for (const r of rows as { id: number; square_footage: number | null }[]) sizes.set(r.id, r.square_footage);
    }
    return sizes;
  }

  /**
   * Holds the date's placements for the rest of the transaction: contenders for one date take turns, each reading
   * the calendars the one before it left (docs/decisions.md#46). A wait is bounded by lock_timeout.
   */
  async lockDate(date: string, tx: Tx): Promise<void> {
    await tx.raw("select pg_advisory_xact_lock(hashtextextended(?, 0))", [`booking-date:${date}`]);
  }

  /** Serialises the bulk assignment of open bookings (two runs at once would pick the same inspector). */
  async lockCalendars(tx: Tx): Promise<void> {
    await tx.raw("select pg_advisory_xact_lock(hashtextextended('inspector-calendars', 0))");
  }

  /** Live bookings dated from `from` that hold a time but no inspector, by start. */
  async unassigned(
    from: string,
    tx: Tx | Knex = this.db,
  ): Promise<{ id: number; scheduledDate: string; start: number; end: number }[]> {
    const rows = await tx.raw(
      `select id, scheduled_date, lower(during) as starts, upper(during) as ends from inspection_bookings
        where inspector_id is null and during is not null and status <> 'cancelled' and scheduled_date >= ?
        order by lower(during), id`,
      [from],
    );
    return rows.rows.map((r: { id: number; scheduled_date: string; starts: Date; ends: Date }) => ({
      id: r.id,
      scheduledDate: r.scheduled_date,
      start: r.starts.getTime(),
      end: r.ends.getTime(),
    }));
  }

  /** Takes this inspector off their live bookings dated from `from` (they left); the bookings' ids. */
  async release(inspectorId: number, from: string, tx: Tx): Promise<number[]> {
    return tx("inspection_bookings")
      .where({ inspector_id: inspectorId, status: "scheduled" })
      .where("scheduled_date", ">=", from)
      .update({ inspector_id: null })
      .returning("id")
      .then((rows: { id: number }[]) => rows.map((r) => r.id));
  }

  /** Gives each booking its inspector, in a few statements. */
  async assign(assignments: { id: number; inspectorId: number }[], tx: Tx): Promise<void> {
    for (let i = 0; i < assignments.length; i += 5000) {
      const chunk = assignments.slice(i, i + 5000);
      await tx.raw(
        `update inspection_bookings b set inspector_id = a.inspector_id
           from json_to_recordset(?::json) as a(id int, inspector_id int) where b.id = a.id`,
        [JSON.stringify(chunk.map((c) => ({ id: c.id, inspector_id: c.inspectorId })))],
      );
    }
  }
}
