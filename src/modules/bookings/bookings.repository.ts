import type { Knex } from "knex";
import { propertyMatches } from "../../db/property-search.js";
import type { Tx } from "../../db/transaction.js";
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
}

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
});

/** A new booking's columns. */
const bookingRow = (b: NewBooking) => ({
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

export class BookingsRepository {
  constructor(private readonly db: Knex) {}

  private selectJoined(db: Tx | Knex) {
    return db("inspection_bookings as b")
      .join("properties as p", "p.id", "b.property_id")
      .select(
        "b.*",
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
    const [row] = await tx("inspection_bookings").insert(bookingRow(booking)).returning("id");
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
      .insert(bookings.map((b) => ({ ...bookingRow(b), status: b.status, created_at: b.createdAt })))
      .returning("id");
    return rows.map((r: { id: number }) => r.id);
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<Booking | null> {
    const row = await this.selectJoined(tx).where("b.id", id).first();
    return row ? toBooking(row) : null;
  }

  /** Staff lists: a page of every booking, newest first, and the count of all that match the search. */
  async listPage(query: { q?: string; limit: number; offset: number }): Promise<{ rows: Booking[]; total: number }> {
    const filter = (builder: Knex.QueryBuilder) => {
      if (!query.q?.trim()) return builder;
      return builder.whereRaw(...propertyMatches("p", query.q));
    };
    const [rows, [count]] = await Promise.all([
      filter(this.selectJoined(this.db))
        .orderBy([
          { column: "b.created_at", order: "desc" },
          { column: "b.id", order: "desc" },
        ])
        .limit(query.limit)
        .offset(query.offset),
      filter(this.db("inspection_bookings as b").join("properties as p", "p.id", "b.property_id")).count<
        { n: number }[]
      >({ n: "*" }),
    ]);
    return { rows: rows.map(toBooking), total: Number(count?.n ?? 0) };
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

  /** A new date and slot, or the status cancelled; `note` is added as a line of the booking's notes (My Home's changes). */
  async change(
    id: number,
    change: { scheduledDate?: string; timeSlot?: string; status?: "cancelled"; note?: string },
    tx: Tx,
  ): Promise<Booking> {
    const patch: Record<string, unknown> = {};
    if (change.scheduledDate) patch.scheduled_date = change.scheduledDate;
    if (change.timeSlot) patch.time_slot = change.timeSlot;
    if (change.status) patch.status = change.status;
    if (change.note) patch.notes = tx.raw("concat_ws(E'\\n', nullif(notes, ''), ?::text)", [change.note]);
    await tx("inspection_bookings").where({ id }).update(patch);
    return (await this.find(id, tx))!;
  }
}
