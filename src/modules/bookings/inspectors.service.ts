import type { Knex } from "knex";
import type { Tx } from "../../db/transaction.js";
import { NotFoundError, ValidationError } from "../../http/errors.js";
import { DAY_PART_VALUES, TIME_SLOTS, addDays, isIsoDate, zonedInstant } from "../../shared/business-time.js";
import { type InspectorCalendar, type Range, availableDays, datesBetween, inspectionMinutes } from "./availability.js";
import type { BookingAvailability } from "./bookings.constants.js";
import type { InspectorRow, InspectorsRepository, TimeOffRow } from "./inspectors.repository.js";

/** What the availability call answers (bookings README "inspectors' calendars"). */
export type Availability = BookingAvailability;

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const TIME_RE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'mon', 'mon-fri', 'sat,sun' → weekday numbers (0 = Sunday). */
export function parseWeekdays(text: string): number[] {
  const days = new Set<number>();
  for (const part of text.toLowerCase().split(",")) {
    const [a, b] = part
      .trim()
      .split("-")
      .map((s) => WEEKDAYS.indexOf(s.trim().slice(0, 3) as never));
    if (a === undefined || a < 0 || (b !== undefined && b < 0))
      throw new ValidationError(`Weekday must be mon, tue, wed, thu, fri, sat or sun (or a range such as mon-fri)`);
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (b === undefined || d === b) break;
    }
  }
  return [...days].sort();
}

/** The wall-clock times of these weekdays, as 'mon 08:00-17:00'. */
const hoursLine = (hours: InspectorCalendar["hours"]) =>
  [...hours.entries()].map(([d, h]) => `${WEEKDAYS[d]} ${h.starts}-${h.ends}`).join(", ");

export class InspectorsService {
  constructor(
    private readonly repo: InspectorsRepository,
    private readonly settings: { timeZone: string },
  ) {}

  private get tz() {
    return this.settings.timeZone;
  }

  /** The instants of the dates [from, to], from midnight to midnight in the business zone. */
  private window(from: string, to: string): Range {
    return {
      start: zonedInstant(from, "00:00", this.tz).getTime(),
      end: zonedInstant(addDays(to, 1), "00:00", this.tz).getTime(),
    };
  }

  /** Every active inspector with hours, their time off and live bookings over the dates [from, to]. */
  async calendars(from: string, to: string, db?: Tx | Knex): Promise<InspectorCalendar[]> {
    // A day either side, so a range that crosses midnight still counts.
    const window = this.window(addDays(from, -1), addDays(to, 1));
    const { inspectors, hours, busy } = await this.repo.calendarRows(window, db);
    return inspectors
      .map((i) => ({
        id: i.id,
        name: i.name,
        hours: new Map(hours.filter((h) => h.inspectorId === i.id).map((h) => [h.weekday, h])),
        busy: busy
          .filter((b) => b.inspectorId === i.id)
          .map((b) => (b.bookingId === undefined ? { start: b.start, end: b.end } : b)),
      }))
      .filter((i) => i.hours.size > 0);
  }

  /** The times of [from, to] at which some inspector is free for an inspection of this home's size. */
  async availability(input: { from: string; to: string; squareFootage?: number | null }): Promise<Availability> {
    const durationMinutes = inspectionMinutes(input.squareFootage);
    const dates = datesBetween(input.from, input.to);
    const inspectors = await this.calendars(input.from, input.to);
    if (!inspectors.length) {
      // No inspector set up (a fresh install): every time is offered, as before the calendars.
      const days = dates.map((date) => ({ date, slots: [...TIME_SLOTS], parts: [...DAY_PART_VALUES] }));
      return { from: input.from, to: input.to, calendar: "open", durationMinutes, days };
    }
    return {
      from: input.from,
      to: input.to,
      calendar: "inspectors",
      durationMinutes,
      days: availableDays(inspectors, dates, durationMinutes, this.tz),
    };
  }

  /** Active inspectors for the staff's choice (the booking dialog). */
  options(): Promise<{ id: number; name: string }[]> {
    return this.repo.inspectors().then((rows) => rows.map((r) => ({ id: r.id, name: r.name })));
  }

  findInspector(id: number, db?: Tx | Knex): Promise<InspectorRow | null> {
    return this.repo.findInspector({ id }, db);
  }

  private async byEmail(email: string): Promise<InspectorRow> {
    const inspector = await this.repo.findInspector({ email });
    if (!inspector)
      throw new NotFoundError(`No active inspector with e-mail ${email} (haven users create --role inspector)`);
    return inspector;
  }

  /** `haven inspectors list`: each inspector, their hours and their time off from today on. */
  async list(now: Date = new Date()): Promise<(InspectorRow & { hours: string; timeOff: TimeOffRow[] })[]> {
    const [inspectors, hours, timeOff] = await Promise.all([
      this.repo.inspectors(),
      this.repo.hours(),
      this.repo.timeOff({ start: now.getTime(), end: Date.UTC(9999, 0) }),
    ]);
    return inspectors.map((i) => ({
      ...i,
      hours: hoursLine(new Map(hours.filter((h) => h.inspectorId === i.id).map((h) => [h.weekday, h]))),
      timeOff: timeOff.filter((t) => t.inspectorId === i.id),
    }));
  }

  /** `haven inspectors hours`: these weekdays' working hours ('08:00' to '17:00'), or none with `off`. */
  async setHours(
    email: string,
    input: { weekdays: string; from?: string; to?: string; off?: boolean },
  ): Promise<{ inspector: InspectorRow; weekdays: number[] }> {
    const weekdays = parseWeekdays(input.weekdays);
    const inspector = await this.byEmail(email);
    if (input.off) {
      await this.repo.clearHours(inspector.id, weekdays);
      return { inspector, weekdays };
    }
    if (!input.from || !TIME_RE.test(input.from) || !input.to || !TIME_RE.test(input.to))
      throw new ValidationError("Hours must be given as --from HH:MM --to HH:MM (24-hour clock)");
    if (input.from >= input.to) throw new ValidationError("The hours must end after they start");
    await this.repo.setHours(inspector.id, weekdays, input.from, input.to);
    return { inspector, weekdays };
  }

  /**
   * `haven inspectors time-off`: from and to are dates (whole days, both included) or 'YYYY-MM-DD HH:MM' in the
   * business zone.
   */
  async addTimeOff(email: string, input: { from: string; to: string; reason?: string }): Promise<TimeOffRow> {
    const inspector = await this.byEmail(email);
    const start = this.instant(input.from, false);
    const end = this.instant(input.to, true);
    if (start >= end) throw new ValidationError("Time off must end after it starts");
    return this.repo.addTimeOff(inspector.id, { start, end }, input.reason?.trim() || null);
  }

  async removeTimeOff(id: number): Promise<void> {
    if (!Number.isSafeInteger(id) || id <= 0)
      throw new ValidationError("Give the time off's number (haven inspectors list)");
    if (!(await this.repo.removeTimeOff(id))) throw new NotFoundError(`No time off #${id}`);
  }

  /** 'YYYY-MM-DD' (its midnight, or the next midnight for an end) or 'YYYY-MM-DD HH:MM', in the business zone. */
  private instant(text: string, end: boolean): number {
    const [date = "", time] = text.trim().split(/[ T]+/);
    if (!isIsoDate(date) || (time !== undefined && !TIME_RE.test(time)))
      throw new ValidationError(`'${text}' is not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DD HH:MM)`);
    if (time) return zonedInstant(date, time, this.tz).getTime();
    return zonedInstant(end ? addDays(date, 1) : date, "00:00", this.tz).getTime();
  }
}
