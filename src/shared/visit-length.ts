// One account of how long a visit takes (docs/decisions.md#59). The spec's "the inspection takes 60 minutes" is the
// 114-point inspection itself; the inspector's calendar holds the whole visit, 2 to 4 hours by the home's size
// (docs/decisions.md#37): arriving, walking the home with the homeowner, the inspection, and going over what was
// found. Every surface that names a length says which of the two it is, in the catalogue's words (docs/decisions.md#64).

/** The 114-point inspection itself (customer-side spec, the booking confirmation's notes). */
export const INSPECTION_ITSELF_MINUTES = 60;
