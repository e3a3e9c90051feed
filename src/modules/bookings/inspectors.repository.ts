import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import type { Range } from "./availability.js";

export interface InspectorRow {
  id: number;
  email: string;
  name: string;
}

export interface HoursRow {
  inspectorId: number;
  weekday: number;
  starts: string;
  ends: string;
}

export interface TimeOffRow {
  id: number;
  inspectorId: number;
  startsAt: Date;
  endsAt: Date;
  reason: string | null;
}

const hhmm = (time: string) => time.slice(0, 5);

/** The SQL of inspectors' calendars: staff users of role inspector, their hours, time off and booked ranges. */
export class InspectorsRepository {
  constructor(private readonly db: Knex) {}

  /** Active inspectors, by id. */
  async inspectors(db: Tx | Knex = this.db): Promise<InspectorRow[]> {
    const rows = await db("staff_users")
      .where({ role: "inspector" })
      .whereNull("disabled_at")
      .orderBy("id")
      .select("id", "email", db.raw("trim(first_name || ' ' || last_name) as name"));
    return rows as InspectorRow[];
  }

  /** An active inspector by e-mail (any case) or id. */
  async findInspector(by: { email?: string; id?: number }, db: Tx | Knex = this.db): Promise<InspectorRow | null> {
    const query = db("staff_users")
      .where({ role: "inspector" })
      .whereNull("disabled_at")
      .first("id", "email", db.raw("trim(first_name || ' ' || last_name) as name"));
    if (by.id !== undefined) query.where({ id: by.id });
    if (by.email !== undefined) query.whereRaw("lower(email) = lower(?)", [by.email]);
    return ((await query) as InspectorRow | undefined) ?? null;
  }

  /** Whether some active inspector has working hours: the calendars are on (docs/decisions.md#37). */
  async calendarsOn(db: Tx | Knex = this.db): Promise<boolean> {
    const row = await db("inspector_hours as h")
      .join("staff_users as u", "u.id", "h.staff_user_id")
      .where("u.role", "inspector")
      .whereNull("u.disabled_at")
      .first(db.raw("1 as on"));
    return Boolean(row);
  }

  async hours(db: Tx | Knex = this.db): Promise<HoursRow[]> {
    const rows = await db("inspector_hours").orderBy(["staff_user_id", "weekday"]);
    return rows.map((r: { staff_user_id: number; weekday: number; starts: string; ends: string }) => ({
      inspectorId: r.staff_user_id,
      weekday: r.weekday,
      starts: hhmm(r.starts),
      ends: hhmm(r.ends),
    }));
  }

  async setHours(inspectorId: number, weekdays: number[], starts: string, ends: string): Promise<void> {
    await this.db("inspector_hours")
      .insert(weekdays.map((weekday) => ({ staff_user_id: inspectorId, weekday, starts, ends })))
      .onConflict(["staff_user_id", "weekday"])
      .merge(["starts", "ends"]);
  }

  async clearHours(inspectorId: number, weekdays: number[]): Promise<number> {
    return this.db("inspector_hours").where({ staff_user_id: inspectorId }).whereIn("weekday", weekdays).delete();
  }

  /** Time off overlapping [from, to), or all of one inspector's from `from` on. */
  async timeOff(window: Range, db: Tx | Knex = this.db, inspectorId?: number): Promise<TimeOffRow[]> {
    const query = db("inspector_time_off")
      .where("ends_at", ">", new Date(window.start))
      .andWhere("starts_at", "<", new Date(window.end))
      .orderBy(["starts_at", "id"]);
    if (inspectorId !== undefined) query.where({ staff_user_id: inspectorId });
    const rows = await query;
    return rows.map(
      (r: { id: number; staff_user_id: number; starts_at: Date; ends_at: Date; reason: string | null }) => ({
        id: r.id,
        inspectorId: r.staff_user_id,
        startsAt: r.starts_at,
        endsAt: r.ends_at,
        reason: r.reason,
      }),
    );
  }

  async addTimeOff(inspectorId: number, range: Range, reason: string | null): Promise<TimeOffRow> {
    const [row] = await this.db("inspector_time_off")
      .insert({
        staff_user_id: inspectorId,
        starts_at: new Date(range.start),
        ends_at: new Date(range.end),
        reason,
      })
      .returning("id");
    return { id: row.id, inspectorId, startsAt: new Date(range.start), endsAt: new Date(range.end), reason };
  }

  async removeTimeOff(id: number): Promise<boolean> {
    return (await this.db("inspector_time_off").where({ id }).delete()) > 0;
  }

  /** The live (not cancelled) assigned bookings overlapping [from, to). */
  async bookedRanges(
    window: Range,
    db: Tx | Knex = this.db,
  ): Promise<{ bookingId: number; inspectorId: number; start: number; end: number }[]> {
    const rows = await db.raw(
      `select id, inspector_id, lower(during) as starts, upper(during) as ends from inspection_bookings
        where inspector_id is not null and status <> 'cancelled' and during && tstzrange(?, ?, '[)')`,
      [new Date(window.start).toISOString(), new Date(window.end).toISOString()],
    );
    return rows.rows.map((r: { id: number; inspector_id: number; starts: Date; ends: Date }) => ({
      bookingId: r.id,
      inspectorId: r.inspector_id,
      start: r.starts.getTime(),
      end: r.ends.getTime(),
    }));
  }
}
