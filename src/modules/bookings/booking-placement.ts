// Where a booking goes (docs/decisions.md#37): the inspector and the instants it holds, the least-loaded free
// inspector first, each try in a savepoint that the no-overlap constraint may refuse; and the office's reassignments.
// Contenders for one date take turns on a short lock, and a lost time's free times are read after the transaction
// (docs/decisions.md#46).
import type { AnsweredAfterRollback, Tx } from "../../db/transaction.js";
import { ConflictError, ValidationError } from "../../http/errors.js";
import { addDays, todayIn, zonedInstant } from "../../shared/business-time.js";
import { type InspectorCalendar, type Range, bookingRange, freeInspectors, inspectionMinutes } from "./availability.js";
import type { BookingsRepository } from "./bookings.repository.js";
import type { Booking } from "./bookings.schemas.js";
import type { Availability, InspectorsService } from "./inspectors.service.js";

/**
 * The answer to a booking that lost its time (docs/decisions.md#37): a 409 with fresh times to choose from. The
 * times are read once the transaction has rolled back (`afterRollback`, which the transaction runners call): read
 * inside it, each loser of a burst would hold its connection while waiting for a second one, and a burst larger
 * than the pool would wait on itself until the pool's timeout (docs/decisions.md#46).
 */
export const SLOT_TAKEN_MESSAGE = "That time was just taken";
export class SlotTakenError extends ConflictError implements AnsweredAfterRollback {
  /** The free times of that date and the six after it; set after the rollback. */
  availability?: Availability;

  constructor(
    message: string,
    private readonly freeTimes: () => Promise<Availability>,
  ) {
    super(message, { timeSlot: message });
  }

  async afterRollback(): Promise<void> {
    this.availability ??= await this.freeTimes();
  }
}

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code;
/** Postgres' exclusion_violation: the no-overlap constraint of one inspector's bookings refused a row. */
const isOverlap = (error: unknown) => codeOf(error) === "23P01";
/** Postgres' lock_not_available: a wait passed lock_timeout (LOCK_TIMEOUT_MS), another booking still holds it. */
const isLockTimeout = (error: unknown) => codeOf(error) === "55P03";

/** What placing a booking uses; BookingsService passes its own. */
export interface BookingPlacementDeps {
  bookings: BookingsRepository;
  inspectors: InspectorsService;
  settings: { timeZone: string };
}

export class BookingPlacement {
  private readonly bookings: BookingsRepository;
  private readonly inspectors: InspectorsService;
  private readonly settings: { timeZone: string };

  constructor(deps: BookingPlacementDeps) {
    ({ bookings: this.bookings, inspectors: this.inspectors, settings: this.settings } = deps);
  }

  /**
   * Runs `write` with the inspector and the instants a booking at that date and slot holds. With the calendars
   * on (some active inspector has hours), the date's lock is taken first (held to commit), so contenders for one
   * date read the calendars one after another and a lost time is a 409 at once. The inspector is `keep` when free,
   * else the least-loaded free one.
   * Each try runs in a savepoint: when the no-overlap constraint refuses it (a writer that takes no date lock,
   * such as a reassignment), the calendars are read again and the next free inspector tried; when none is left,
   * or a lock is not granted within lock_timeout, a 409 with fresh times.
   */
  async place(
    tx: Tx,
    at: { date: string; slot: string; propertyId: number; bookingId?: number; keep?: number | null },
    write: (placement: { inspectorId: number | null; during: Range | null }, trx: Tx) => Promise<Booking>,
    message = SLOT_TAKEN_MESSAGE,
  ): Promise<Booking> {
    const tz = this.settings.timeZone;
    const size = await this.bookings.propertySize(at.propertyId, tx);
    const during = bookingRange(at.date, at.slot, inspectionMinutes(size), tz);
    let calendars: InspectorCalendar[] = [];
    if (during) {
      try {
        await this.bookings.lockDate(at.date, tx);
      } catch (error) {
        if (isLockTimeout(error)) throw this.slotTaken(message, at.date, size);
        throw error;
      }
      calendars = await this.inspectors.calendars(at.date, at.date, tx);
    }
    if (!during || !calendars.length) {
      // No inspector set up: booking works as before; a booking that still has one keeps them if they are free.
      try {
        return await tx.transaction((sp) => write({ inspectorId: during ? (at.keep ?? null) : null, during }, sp));
      } catch (error) {
        if (isOverlap(error)) throw this.slotTaken(message, at.date, size);
        throw error;
      }
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      if (attempt) calendars = await this.inspectors.calendars(at.date, at.date, tx);
      const free = freeInspectors(calendars, at.date, during, tz, at.bookingId);
      const chosen = free.find((i) => i.id === at.keep) ?? free[0];
      if (!chosen) break;
      try {
        return await tx.transaction((sp) => write({ inspectorId: chosen.id, during }, sp));
      } catch (error) {
        if (isLockTimeout(error)) break;
        if (!isOverlap(error)) throw error;
      }
    }
    throw this.slotTaken(message, at.date, size);
  }

  /** The 409 of a lost time, with the free times of that date and the six after it, read after the rollback. */
  slotTaken(message: string, date: string, squareFootage: number | null): SlotTakenError {
    return new SlotTakenError(message, () => {
      const tomorrow = addDays(todayIn(this.settings.timeZone), 1);
      const from = date < tomorrow ? tomorrow : date;
      return this.inspectors.availability({ from, to: addDays(from, 6), squareFootage });
    });
  }

  /**
   * The office gives a booking to this inspector (null: to nobody). Their hours are not checked (the office
   * may ask for an evening), their other bookings are: the no-overlap constraint answers, as a 409.
   */
  async reassign(
    tx: Tx,
    current: Booking,
    inspectorId: number | null,
    date: string,
    slot: string,
    change: { scheduledDate?: string; timeSlot?: string; note?: string },
  ): Promise<Booking> {
    if (inspectorId !== null && !(await this.inspectors.findInspector(inspectorId, tx)))
      throw new ValidationError("Inspector not found", { inspectorId: "Choose one of the active inspectors" });
    const size = await this.bookings.propertySize(current.propertyId, tx);
    const during = bookingRange(date, slot, inspectionMinutes(size), this.settings.timeZone);
    try {
      return await tx.transaction((sp) => this.bookings.change(current.id, { ...change, inspectorId, during }, sp));
    } catch (error) {
      if (isOverlap(error) || isLockTimeout(error))
        throw this.slotTaken("That inspector already has a booking at that time", date, size);
      throw error;
    }
  }

  /**
   * Gives the open bookings from `from` on (a time, no inspector) to inspectors who work then and are free, the
   * least loaded that day first; `lock` takes the calendars' lock first (the caller may hold it already).
   */
  async assignOpen(tx: Tx, from?: string, lock = true): Promise<{ assigned: number; left: number }> {
    const tz = this.settings.timeZone;
    if (lock) await this.bookings.lockCalendars(tx);
    const open = await this.bookings.unassigned(from ?? "0001-01-01", tx);
    if (!open.length) return { assigned: 0, left: 0 };
    const calendars = await this.inspectors.calendars(open[0]!.scheduledDate, open.at(-1)!.scheduledDate, tx);
    // Each inspector's busy ranges by date, so each check reads one day.
    const dayOf = (t: number) => todayIn(tz, new Date(t));
    const busy = new Map<string, Range[]>();
    // Time off may span days: it counts on each.
    for (const c of calendars)
      for (const b of c.busy)
        for (let day = dayOf(b.start); day <= dayOf(b.end - 1); day = addDays(day, 1)) {
          const key = `${c.id}:${day}`;
          busy.set(key, [...(busy.get(key) ?? []), b]);
        }
    const assignments: { id: number; inspectorId: number }[] = [];
    for (const booking of open) {
      const fits = calendars
        .filter((c) => {
          const hours = c.hours.get(new Date(`${booking.scheduledDate}T00:00:00Z`).getUTCDay());
          if (!hours) return false;
          const opens = zonedInstant(booking.scheduledDate, hours.starts, tz).getTime();
          const closes = zonedInstant(booking.scheduledDate, hours.ends, tz).getTime();
          if (booking.start < opens || booking.end > closes) return false;
          const taken = busy.get(`${c.id}:${booking.scheduledDate}`) ?? [];
          return !taken.some((r) => r.start < booking.end && booking.start < r.end);
        })
        .sort(
          (a, b) =>
            (busy.get(`${a.id}:${booking.scheduledDate}`)?.length ?? 0) -
              (busy.get(`${b.id}:${booking.scheduledDate}`)?.length ?? 0) || a.id - b.id,
        );
      const chosen = fits[0];
      if (!chosen) continue;
      const key = `${chosen.id}:${booking.scheduledDate}`;
      busy.set(key, [...(busy.get(key) ?? []), booking]);
      assignments.push({ id: booking.id, inspectorId: chosen.id });
    }
    await this.bookings.assign(assignments, tx);
    return { assigned: assignments.length, left: open.length - assignments.length };
  }

  /** The instants each booking holds at its date and slot, for the home's inspection length (the demo's import). */
  async withRanges<B extends { propertyId: number; scheduledDate: string; timeSlot: string }>(
    bookings: B[],
    tx: Tx,
  ): Promise<(B & { during: Range | null })[]> {
    const sizes = await this.bookings.propertySizes([...new Set(bookings.map((b) => b.propertyId))], tx);
    const tz = this.settings.timeZone;
    return bookings.map((b) => ({
      ...b,
      during: bookingRange(b.scheduledDate, b.timeSlot, inspectionMinutes(sizes.get(b.propertyId)), tz),
    }));
  }

  /** An inspector's scheduled bookings from `today` on lose them and go to the inspectors free then. */
  async releaseInspector(tx: Tx, inspectorId: number, today: string): Promise<{ released: number; assigned: number }> {
    await this.bookings.lockCalendars(tx);
    const released = await this.bookings.release(inspectorId, today, tx);
    if (!released.length) return { released: 0, assigned: 0 };
    const { assigned } = await this.assignOpen(tx, today, false);
    return { released: released.length, assigned };
  }
}
