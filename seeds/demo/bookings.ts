// Bookings: when each home's inspections are booked, by which path and with what access, and the batch step
// that writes them. A home has one visit, or two when it came back about six months after a completed one.
import { ACCESS_METHODS } from "../../src/modules/bookings/bookings.constants.js";
import type { InspectionStatus } from "../../src/modules/inspections/inspections.schemas.js";
import { DAY, isoDate } from "./dates.js";
import { type InspectedHome, planInspection } from "./inspections-and-reports.js";
import type { DemoStep, PlannedVisit } from "./model.js";
import { type Rng, between, chance, pick } from "./random.js";

const WIZARD_SLOTS = ["9:00 AM", "10:30 AM", "12:00 PM", "1:30 PM", "3:00 PM"];
const PAGE_SLOTS = ["morning", "afternoon", "evening"];

/** What a homeowner writes beside the wizard's access method. */
const ACCESS_WORDS: Record<string, string> = {
  lockbox: "Lockbox on the side gate.",
  "smart-lock": "The code opens the front door; please lock it when you leave.",
  "meet-inspector": "Ring the bell; I work from home.",
};

/** Forces the first four homes of a run into each open status, so even a tiny run shows every one. */
const FORCED: readonly InspectionStatus[] = ["completed", "in_progress", "scheduled", "draft"];

/** The status of an unforced visit's inspection from its date; null: booked, no inspection yet. */
function visitStatus(rng: Rng, date: Date, now: Date): InspectionStatus | null {
  const past = isoDate(date) <= isoDate(now);
  const daysAgo = Math.floor((now.getTime() - date.getTime()) / DAY);
  if (!past) return chance(rng, 0.4) ? "scheduled" : null;
  if (daysAgo > 14) return "completed";
  return pick(rng, ["completed", "completed", "in_progress", "in_progress", "draft"] as const);
}

/** One booking on `date` and its inspection, if any. */
function planVisit(
  rng: Rng,
  date: Date,
  bookedAt: Date,
  forced: InspectionStatus | null,
  quality: number,
  home: InspectedHome,
  now: Date,
): PlannedVisit {
  const scheduledDate = isoDate(date);
  const source = pick(rng, ["wizard", "wizard", "booking-page", "onboarding"] as const);
  const accessMethod = source === "wizard" ? pick(rng, ACCESS_METHODS) : null;
  const status = forced ?? visitStatus(rng, date, now);
  const inspection = status ? planInspection(rng, status, { scheduledDate, bookedAt, quality }, home, now) : null;
  return {
    scheduledDate,
    timeSlot: source === "wizard" ? pick(rng, WIZARD_SLOTS) : pick(rng, PAGE_SLOTS),
    source,
    accessMethod,
    accessCode: accessMethod === "lockbox" || accessMethod === "smart-lock" ? String(between(rng, 1000, 9999)) : null,
    // Chosen by the date, not the generator, so the demo's other figures stay as they were.
    accessInstructions: accessMethod ? (ACCESS_WORDS[accessMethod] ?? null) : null,
    specialRequests:
      Number(scheduledDate.slice(8)) % 4 === 0 ? "Please look at the sump pump; it ran all spring." : null,
    bookingStatus: status === "completed" ? "completed" : "scheduled",
    bookingCreatedAt: bookedAt,
    inspection,
  };
}

/**
 * A home's visits, booked after it signed up. A forced first visit may move the sign-up earlier, so the
 * home's creation date comes back with them.
 */
export function planVisits(
  rng: Rng,
  home: InspectedHome & { createdAt: Date; quality: number },
  runPosition: number,
  now: Date,
): { visits: PlannedVisit[]; createdAt: Date } {
  const visits: PlannedVisit[] = [];
  let createdAt = home.createdAt;
  let bookedAt = createdAt;
  let quality = home.quality;
  for (let v = 0; v < 2; v++) {
    let date = new Date(bookedAt.getTime() + between(rng, 4, 21) * DAY);
    const forced = v === 0 ? (FORCED[runPosition] ?? null) : null;
    if (forced) {
      // In progress and draft: a visit in the last week; scheduled: in the coming weeks; completed: a month ago.
      const offset =
        forced === "scheduled"
          ? between(rng, 3, 20)
          : forced === "completed"
            ? -between(rng, 25, 60)
            : -between(rng, 0, 6);
      date = new Date(now.getTime() + offset * DAY);
      bookedAt = new Date(Math.min(bookedAt.getTime(), date.getTime() - 5 * DAY));
      createdAt = new Date(Math.min(createdAt.getTime(), bookedAt.getTime() - DAY));
    }
    const visit = planVisit(rng, date, bookedAt, forced, quality, home, now);
    visits.push(visit);
    // About a third of homes inspected over 7 months ago came back for a second inspection ~6 months later.
    const returnDate = new Date(date.getTime() + between(rng, 170, 200) * DAY);
    if (visit.bookingStatus !== "completed" || returnDate.getTime() > now.getTime() + 20 * DAY || !chance(rng, 0.35))
      break;
    bookedAt = new Date(returnDate.getTime() - between(rng, 5, 20) * DAY);
    quality = Math.min(1, Math.max(0, quality + (rng() - 0.35) * 0.3));
  }
  return { visits, createdAt };
}

export const bookingsStep: DemoStep = {
  name: "inspection bookings",
  async run(batch, { container }) {
    const rows = batch.planned.flatMap((p, i) =>
      p.visits.map((v) => ({
        propertyId: batch.propertyIds[i]!,
        customerId: batch.customerIds[i]!,
        scheduledDate: v.scheduledDate,
        timeSlot: v.timeSlot,
        accessMethod: v.accessMethod,
        accessCode: v.accessCode,
        accessInstructions: v.accessInstructions,
        specialRequests: v.specialRequests,
        source: v.source,
        // Booked as scheduled; completing its inspection (next step) marks it completed.
        status: "scheduled" as const,
        createdAt: v.bookingCreatedAt,
      })),
    );
    const ids = await container.bookings.importMany(rows, batch.tx);
    let k = 0;
    batch.bookingIds = batch.planned.map((p) => p.visits.map(() => ids[k++]!));
  },
};
