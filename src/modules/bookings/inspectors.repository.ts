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

/** What calendarRows answers: inspectors by id, all hours, and each busy range (a booking's with its id). */
export interface CalendarRows {
  inspectors: { id: number; name: string }[];
  hours: HoursRow[];
  busy: (Range & { inspectorId: number; bookingId?: number })[];
}

interface CalendarRow {
  kind: "inspector" | "hours" | "off" | "booked";
  inspector_id: number;
  name: string | null;
  weekday: number | null;
  starts: string | null;
  ends: string | null;
  from_at: Date | null;
  to_at: Date | null;
  booking_id: number | null;
}

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

  async hours(db: Tx | Knex = this.db): Promise<HoursRow[]> {
    const rows = await db("inspector_hours").orderBy(["staff_user_id", "weekday"]);
    return rows.map((r: { staff_user_id: number; weekday: number; starts: string; ends: string }) => ({
      inspectorId: r.staff_user_id,
      weekday: r.weekday,
      starts: hhmm(r.starts),
      ends: hhmm(r.ends),
    }));
  }

  /**
   * The calendars over [from, to) in one statement: the active inspectors, every inspector's hours, the time off
   * and the live assigned bookings overlapping it. Inside a booking's transaction each round trip is time the
   * date's lock is held (docs/decisions.md#46).
   */
  async calendarRows(window: Range, db: Tx | Knex = this.db): Promise<CalendarRows> {
    const [from, to] = [new Date(window.start).toISOString(), new Date(window.end).toISOString()];
    const { rows } = (await db.raw(
      `select 'inspector' as kind, id as inspector_id, trim(first_name || ' ' || last_name) as name,
              null::int as weekday, null::text as starts, null::text as ends,
              null::timestamptz as from_at, null::timestamptz as to_at, null::int as booking_id
         from staff_users where role = 'inspector' and disabled_at is null
       union all
       select 'hours', staff_user_id, null, weekday, starts::text, ends::text, null, null, null from inspector_hours
       union all
       select 'off', staff_user_id, null, null, null, null, starts_at, ends_at, null from inspector_time_off
        where ends_at > ?::timestamptz and starts_at < ?::timestamptz
       union all
       select 'booked', inspector_id, null, null, null, null, lower(during), upper(during), id from inspection_bookings
        where inspector_id is not null and status <> 'cancelled' and during && tstzrange(?::timestamptz, ?::timestamptz, '[)')`,
      [from, to, from, to],
    )) as { rows: CalendarRow[] };
    const out: CalendarRows = { inspectors: [], hours: [], busy: [] };
    for (const r of rows) {
      if (r.kind === "inspector") out.inspectors.push({ id: r.inspector_id, name: r.name! });
      else if (r.kind === "hours")
        out.hours.push({
          inspectorId: r.inspector_id,
          weekday: r.weekday!,
          starts: hhmm(r.starts!),
          ends: hhmm(r.ends!),
        });
      else
        out.busy.push({
          inspectorId: r.inspector_id,
          start: r.from_at!.getTime(),
          end: r.to_at!.getTime(),
          ...(r.kind === "booked" && { bookingId: r.booking_id! }),
        });
    }
    out.inspectors.sort((a, b) => a.id - b.id);
    return out;
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
}
