// One account of how long a visit takes (docs/decisions.md#59). The spec's "the inspection takes 60 minutes" is the
// 114-point inspection itself; the inspector's calendar holds the whole visit, 2 to 4 hours by the home's size
// (docs/decisions.md#37): arriving, walking the home with the homeowner, the inspection, and going over what was
// found. Every surface that names a length says which of the two it is.

/** The 114-point inspection itself (customer-side spec, the booking confirmation's notes). */
export const INSPECTION_ITSELF_MINUTES = 60;

/** 120 → "2 hours", 60 → "1 hour", 90 → "90 minutes". */
export function durationText(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? "" : "s"}` : `${minutes} minutes`;
}

/** "about 2 hours" for a known home size; "2 to 4 hours, by the home's size" when the size is not known yet. */
export function visitLength(visitMinutes: number | null | undefined): string {
  return visitMinutes ? `about ${durationText(visitMinutes)}` : "2 to 4 hours, by the home's size";
}
