import type { Knex } from "knex";

/** One visit of an inspector's day: what the person at the door needs, and the inspection it opens. */
export interface DayVisit {
  bookingId: number;
  propertyId: number;
  scheduledDate: string;
  timeSlot: string;
  /** When the booking holds a time range (docs/decisions.md#37). */
  startsAt: string | null;
  endsAt: string | null;
  inspectorId: number | null;
  inspectorName: string | null;
  address: string;
  city: string;
  province: string | null;
  postalCode: string | null;
  clientName: string;
  clientPhone: string | null;
  accessMethod: string | null;
  accessInstructions: string | null;
  specialRequests: string | null;
  /** What the homeowner wrote at intake, "Notes for your inspector" (properties.notes). */
  homeownerNotes: string | null;
  /** The booking's own notes (the booking page's, and the office's). */
  bookingNotes: string | null;
  /** Whether a door code was given: the page offers to show it, never carries it (docs/decisions.md#38). */
  hasAccessCode: boolean;
  planName: string | null;
  inspectionId: number | null;
  inspectionStatus: string | null;
}

/**
 * The read model of /admin/my-day: scheduled bookings with their property, inspector, plan and latest
 * inspection, in one query. A read model, as My Home's is (README "Read model"): it reads other modules' tables
 * and never writes them. The access code is left out (only whether there is one): the page is kept on the phone for
 * offline use, and shows the code only when asked (GET /api/inspection-bookings/{id}/access-code).
 */
export class MyDayRepository {
  constructor(private readonly db: Knex) {}

  async visits(filter: { from: string; to: string; inspectorId?: number; bookingId?: number }): Promise<DayVisit[]> {
    const query = this.db("inspection_bookings as b")
      .join("properties as p", "p.id", "b.property_id")
      .leftJoin("staff_users as i", "i.id", "b.inspector_id")
      .leftJoin("plans as pl", "pl.type", "p.subscription_plan")
      .joinRaw(
        "left join lateral (select n.id, n.status from inspections n where n.booking_id = b.id order by n.id desc limit 1) as n on true",
      )
      .whereBetween("b.scheduled_date", [filter.from, filter.to])
      .where("b.status", "scheduled")
      .select(
        "b.id as booking_id",
        "b.property_id",
        "b.scheduled_date",
        "b.time_slot",
        this.db.raw("lower(b.during) as starts_at"),
        this.db.raw("upper(b.during) as ends_at"),
        "b.inspector_id",
        this.db.raw("nullif(trim(i.first_name || ' ' || i.last_name), '') as inspector_name"),
        "p.address",
        "p.city",
        "p.province",
        "p.postal_code",
        "p.client_name",
        "p.client_phone",
        "b.access_method",
        "b.access_instructions",
        "b.special_requests",
        "p.notes as homeowner_notes",
        "b.notes as booking_notes",
        this.db.raw("coalesce(trim(b.access_code), '') <> '' as has_access_code"),
        "pl.name as plan_name",
        "n.id as inspection_id",
        "n.status as inspection_status",
      )
      .orderBy([{ column: "b.scheduled_date" }, { column: "b.id" }]);
    if (filter.inspectorId !== undefined) query.where("b.inspector_id", filter.inspectorId);
    if (filter.bookingId !== undefined) query.where("b.id", filter.bookingId);
    const rows = await query;
    return rows.map((r) => ({
      bookingId: r.booking_id,
      propertyId: r.property_id,
      scheduledDate: r.scheduled_date,
      timeSlot: r.time_slot,
      startsAt: r.starts_at ? new Date(r.starts_at).toISOString() : null,
      endsAt: r.ends_at ? new Date(r.ends_at).toISOString() : null,
      inspectorId: r.inspector_id,
      inspectorName: r.inspector_name,
      address: r.address,
      city: r.city,
      province: r.province,
      postalCode: r.postal_code,
      clientName: r.client_name,
      clientPhone: r.client_phone,
      accessMethod: r.access_method,
      accessInstructions: r.access_instructions,
      specialRequests: r.special_requests,
      homeownerNotes: r.homeowner_notes,
      bookingNotes: r.booking_notes,
      hasAccessCode: r.has_access_code === true,
      planName: r.plan_name,
      inspectionId: r.inspection_id,
      inspectionStatus: r.inspection_status,
    }));
  }
}
