// The booking pages' words that depend on a value (docs/decisions.md#64): a visit's length (docs/decisions.md#59),
// a time slot and a short date, in the page's language. English keeps src/shared's exact texts.
import { shortDate } from "../../src/shared/business-time";
import { INSPECTION_ITSELF_MINUTES } from "../../src/shared/visit-length";
import type { IslandT } from "../ui/i18n";

/** 120 → "2 hours" / "2 heures", 90 → "90 minutes". */
const duration = (t: IslandT, minutes: number) =>
  minutes % 60 === 0
    ? t("booking.duration", { unit: "hours", n: minutes / 60 })
    : t("booking.duration", { unit: "minutes", n: minutes });

/** "about 2 hours" for a known home size; "2 to 4 hours, by the home's size" otherwise. */
export const visitLengthIn = (t: IslandT, visitMinutes: number | null | undefined) =>
  visitMinutes ? t("booking.visit.about", { duration: duration(t, visitMinutes) }) : t("booking.visit.unknown");

/** The sentence a homeowner reads wherever a booking's length is told (src/shared/visit-length.ts). */
export const visitSentenceIn = (t: IslandT, visitMinutes: number | null | undefined) =>
  t("booking.visit.sentence", { length: visitLengthIn(t, visitMinutes), minutes: INSPECTION_ITSELF_MINUTES });

/**
 * A wizard slot ("2:30 PM", the value the API takes) as the page writes a time: the slot itself in English,
 * "14 h 30" / "14 h" in French (the glossary's style, src/i18n/format.ts).
 */
export function slotLabel(locale: IslandT["locale"], slot: string): string {
  const match = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(slot);
  if (locale !== "fr-CA" || !match) return slot;
  const hour = (Number(match[1]) % 12) + (match[3] === "PM" ? 12 : 0);
  return match[2] === "00" ? `${hour} h` : `${hour} h ${match[2]}`;
}

/** "Wed, Dec 2" / "mer. 2 déc.": a free date offered as a button. */
export function shortDateIn(locale: IslandT["locale"], date: string): string {
  if (locale !== "fr-CA") return shortDate(date);
  return new Intl.DateTimeFormat("fr-CA", { timeZone: "UTC", weekday: "short", month: "short", day: "numeric" }).format(
    new Date(`${date}T12:00:00Z`),
  );
}
