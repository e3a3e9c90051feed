// The inspection template's rules and score choices, without its data (template.ts): the form island imports these, and
// gets the categories and weights from its page as props, so its first screen carries no copy of them
// (docs/decisions.md#79). template.ts re-exports everything here: the server imports the template from there.

export type RepeatableRoom = "Kitchen" | "Bathroom" | "Laundry";

export interface CategoryWeights {
  name: string;
  /** Percent of the overall score (they sum to 100.5: the overall score normalises). */
  weight: number;
  /** Categories an inspector can add again: 'Sinks (Bathroom 2)'. */
  repeatable?: RepeatableRoom;
  /**
   * Subcategory name → weight within the category: staff-side §9's items sum to 100, Haven's own items
   * (HAVEN_ITEMS) come after them on the same scale; the category score is their weighted mean, so it normalises.
   * Weight 0 = description only, never scored.
   */
  subcategories: Record<string, number>;
}

/** Sections the form opens by default (staff-side §2): Attic, Basement, Plumbing. */
export const DEFAULT_OPEN_CATEGORIES: readonly string[] = [
  "Attic",
  "Basement, Foundation, Crawlspace & Structure",
  "Plumbing",
];

export type EntryScore = 10 | 7 | 4 | 1;
/** Score choices (staff-side §5), best first; null is N/A (left out of the score). */
export const SCORE_CHOICES: readonly { value: EntryScore | null; label: string }[] = [
  { value: 10, label: "Excellent" },
  { value: 7, label: "Good" },
  { value: 4, label: "Needs Attention" },
  { value: 1, label: "Immediate Action Required" },
  { value: null, label: "N/A" },
];
export const SCORE_VALUES: readonly EntryScore[] = [10, 7, 4, 1];
export const isEntryScore = (value: unknown): value is EntryScore => SCORE_VALUES.includes(value as EntryScore);

const ROOM_SUFFIX = / \((Kitchen|Bathroom|Laundry) (\d+)\)$/;

/** 'Sinks (Bathroom 2)' → 'Sinks': repeated instances pool into their subcategory's weight. */
export function baseSubcategory(name: string): string {
  return name.replace(ROOM_SUFFIX, "");
}

/** The subcategory name of room n (1 = the first room, no suffix): 'Sinks' + 2 → 'Sinks (Bathroom 2)'. */
export function roomSubcategoryName(category: CategoryWeights, subcategory: string, n: number): string {
  if (n <= 1 || !category.repeatable) return subcategory;
  return `${subcategory} (${category.repeatable} ${n})`;
}

/** Which room a subcategory name belongs to: 1 without suffix, n for ' (Kitchen n)'. */
export function roomNumber(name: string): number {
  const match = ROOM_SUFFIX.exec(name);
  return match ? Number(match[2]) : 1;
}

/** subcategoryWeight within a category already found (the form island's come from its props). */
export function subcategoryWeightIn(
  category: CategoryWeights | undefined,
  subcategoryName: string,
): number | undefined {
  if (!category) return undefined;
  // Most names carry no room suffix: skip the regular expression for them.
  if (!subcategoryName.endsWith(")"))
    return Object.hasOwn(category.subcategories, subcategoryName) ? category.subcategories[subcategoryName] : undefined;
  const match = ROOM_SUFFIX.exec(subcategoryName);
  if (match) {
    const [, room, n] = match;
    if (room !== category.repeatable || !/^[1-9]\d{0,2}$/.test(n!) || Number(n) < 2) return undefined;
  }
  const base = subcategoryName.replace(ROOM_SUFFIX, "");
  return Object.hasOwn(category.subcategories, base) ? category.subcategories[base] : undefined;
}
