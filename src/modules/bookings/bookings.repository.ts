import type { Knex } from "knex";
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
    const [row] = await tx("inspection_bookings")
      .insert({
        property_id: booking.propertyId,
        customer_id: booking.customerId,
        scheduled_date: booking.scheduledDate,
        time_slot: booking.timeSlot,
        access_method: booking.accessMethod ?? null,
        access_code: booking.accessCode ?? null,
        access_instructions: booking.accessInstructions ?? null,
        special_requests: booking.specialRequests ?? null,
        notes: booking.notes ?? null,
        source: booking.source,
      })
      .returning("id");
    return (await this.find(row.id as number, tx))!;
  }

  async find(id: number, tx: Tx | Knex = this.db): Promise<Booking | null> {
    const row = await this.selectJoined(tx).where("b.id", id).first();
    return row ? toBooking(row) : null;
  }

  /** Bookings, oldest first; optionally only some customers'. */
  async list(customerIds?: number[]): Promise<Booking[]> {
    const query = this.selectJoined(this.db).orderBy([{ column: "b.created_at" }, { column: "b.id" }]);
    if (customerIds) query.whereIn("b.customer_id", customerIds);
    return (await query).map(toBooking);
  }
}
