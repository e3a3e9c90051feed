// The free times the wizard and the booking page offer (docs/decisions.md#37): the availability call's URL,
// so a 409's fresh times can replace the cached answer of the same question.
import type { BookingAvailability } from "../../src/modules/bookings/bookings.constants";
import { addDays, isIsoDate } from "../../src/shared/business-time";

const PATH = "/api/inspection-bookings/availability";

/** The query key (its URL) of the free times of [from, to] for a home of this size. */
export function availabilityKey(from: string, to: string, size?: string): string {
  const params = new URLSearchParams({ from, to });
  if (size && /^\d{3,6}$/.test(size.replace(/,/g, ""))) params.set("size", size.replace(/,/g, ""));
  return `${PATH}?${params}`;
}

/** The wizard asks for the chosen date and the six after it, as the 409's fresh times cover. */
export const wizardAvailabilityKey = (date: string, size: string) =>
  isIsoDate(date) ? availabilityKey(date, addDays(date, 6), size) : null;

/** The 409 body's fresh times, when it carries them. */
export function freshTimes(body: string): BookingAvailability | null {
  try {
    const parsed = JSON.parse(body) as { availability?: BookingAvailability };
    return parsed.availability?.days ? parsed.availability : null;
  } catch {
    return null;
  }
}

/** The next dates after `date` with a free time, at most `count`. */
export const nextFreeDates = (answer: BookingAvailability | undefined, date: string, count = 3) =>
  (answer?.days ?? [])
    .filter((d) => d.date > date && d.slots.length)
    .slice(0, count)
    .map((d) => d.date);
