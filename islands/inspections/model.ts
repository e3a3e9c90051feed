// The inspection form's data on this device (docs/decisions.md#18): entries and photos as the form
// keeps them, and the rules the screen needs (staff-side §2, §4, §5). No React, no IndexedDB here.
// The template's categories and weights come from the page's props (the server renders them: data, not code, in the
// form's first screen; docs/decisions.md#79); its functions are imported, and its data stays out of the bundle.
import {
  type CategoryWeights,
  type EntryScore,
  type RepeatableRoom,
  roomNumber,
  roomSubcategoryName,
  subcategoryWeightIn,
} from "../../src/modules/inspections/template-rules";
import type { InspectionVisit } from "../../src/modules/inspections/inspections.schemas";

export type Rooms = Record<RepeatableRoom, number>;

/** One entry as this device holds it. `score` undefined = never touched; null = N/A. */
export interface LocalEntry {
  inspectionId: number;
  key: string;
  categoryName: string;
  subcategoryName: string;
  score: EntryScore | null | undefined;
  notes: string;
  urgent: boolean;
  /** Client ids of its photos, in order. */
  photos: string[];
  /** Bumped on every change here; `syncedRev` is the last one the server accepted. */
  rev: number;
  syncedRev: number;
  /** The server holds a version of this entry (so clearing it must be sent too). */
  onServer: boolean;
  /** The server refused the last version (400/409): shown on the card until the next change. */
  error?: string;
}

/** One photo as this device holds it: the shrunk image until (and after) the server stores it. */
export interface LocalPhoto {
  clientId: string;
  inspectionId: number;
  blob?: Blob;
  serverId?: number;
  error?: string;
}

export interface LocalInspection {
  id: number;
  status: string;
  propertyLabel: string;
  /** The header's client and what the homeowner wrote for the visit (older device copies have neither). */
  clientName?: string;
  visit?: InspectionVisit;
  rooms: Rooms;
  /** 'Complete Inspection' was pressed: sent as soon as the network allows. */
  completeRequested: boolean;
  /** When the server copy was last read. */
  loadedAt?: string;
}

export const entryKey = (categoryName: string, subcategoryName: string) => `${categoryName}|${subcategoryName}`;

export const DEFAULT_ROOMS: Rooms = { Kitchen: 1, Bathroom: 1, Laundry: 1 };

/** Items that take no score: weight 0 in their category (Type of Cladding), as the template's isDescriptionOnly. */
const isDescriptionOnly = (categories: readonly CategoryWeights[], categoryName: string, subcategoryName: string) =>
  subcategoryWeightIn(
    categories.find((c) => c.name === categoryName),
    subcategoryName,
  ) === 0;

/** An entry counts as complete when it has a score, notes or photos (staff-side §4); such entries are sent. */
export const hasData = (e: Pick<LocalEntry, "score" | "notes" | "photos"> | undefined): boolean =>
  Boolean(e && ((e.score !== undefined && e.score !== null) || e.notes.trim() !== "" || e.photos.length > 0));

export const isDirty = (e: LocalEntry) => e.rev > e.syncedRev;

/** Entries the save sends: those with data, and those the server holds that were cleared here. */
export const toSend = (e: LocalEntry) => hasData(e) || (e.onServer && isDirty(e));

export const blankEntry = (inspectionId: number, categoryName: string, subcategoryName: string): LocalEntry => ({
  inspectionId,
  key: entryKey(categoryName, subcategoryName),
  categoryName,
  subcategoryName,
  score: undefined,
  notes: "",
  urgent: false,
  photos: [],
  rev: 0,
  syncedRev: 0,
  onServer: false,
});

export interface Slot {
  key: string;
  categoryName: string;
  subcategoryName: string;
  /** The name without its room suffix. */
  label: string;
  room: number;
  descriptionOnly: boolean;
}

/** The cards of one category, room by room. */
export function categorySlots(category: CategoryWeights, rooms: Rooms): Slot[][] {
  const count = category.repeatable ? Math.max(1, rooms[category.repeatable]) : 1;
  const out: Slot[][] = [];
  for (let n = 1; n <= count; n++) {
    out.push(
      Object.keys(category.subcategories).map((label) => {
        const subcategoryName = roomSubcategoryName(category, label, n);
        return {
          key: entryKey(category.name, subcategoryName),
          categoryName: category.name,
          subcategoryName,
          label,
          room: n,
          descriptionOnly: subcategoryWeightIn(category, subcategoryName) === 0,
        };
      }),
    );
  }
  return out;
}

export const allSlots = (categories: readonly CategoryWeights[], rooms: Rooms): Slot[] =>
  categories.flatMap((c) => categorySlots(c, rooms).flat());

/** The rooms an inspection needs: at least what was added here and what its entries name. */
export function roomsFor(
  categories: readonly CategoryWeights[],
  entries: Iterable<Pick<LocalEntry, "categoryName" | "subcategoryName">>,
  known: Rooms = DEFAULT_ROOMS,
): Rooms {
  const rooms = { ...known };
  for (const e of entries) {
    const room = categories.find((c) => c.name === e.categoryName)?.repeatable;
    if (room) rooms[room] = Math.max(rooms[room], roomNumber(e.subcategoryName));
  }
  return rooms;
}

export interface Progress {
  completed: number;
  total: number;
  percent: number;
}

/**
 * Progress over the points: the cards that take a score, each done once it holds data (a score, notes or
 * photos). A description-only card (Type of Cladding) is not a point (docs/decisions.md#41), so a visit's
 * progress counts the same 114 points as its completion.
 */
export function progressOf(slots: Slot[], entries: Map<string, LocalEntry>): Progress {
  const points = slots.filter((s) => !s.descriptionOnly);
  const completed = points.filter((s) => hasData(entries.get(s.key))).length;
  return {
    completed,
    total: points.length,
    percent: points.length ? Math.round((completed / points.length) * 100) : 0,
  };
}

/**
 * 'Complete Inspection' shows only when every entry to be sent has a score (staff-side §2, §5);
 * description-only items take none. At least one entry must be scored.
 */
export function canComplete(categories: readonly CategoryWeights[], entries: Iterable<LocalEntry>): boolean {
  let any = false;
  for (const e of entries) {
    if (!hasData(e)) continue;
    if (
      (e.score === undefined || e.score === null) &&
      !isDescriptionOnly(categories, e.categoryName, e.subcategoryName)
    )
      return false;
    if (e.score !== undefined && e.score !== null) any = true;
  }
  return any;
}

/** Below this share of scored items, completing warns that the report will say little. */
export const LOW_COVERAGE_PERCENT = 50;

export interface Completion {
  /** Items holding a score (N/A is not a score), out of the items that take one. */
  scored: number;
  total: number;
  percent: number;
  /** Entries the server would refuse: sent (they hold notes or photos) but with no score; N/A included. */
  blockers: Pick<LocalEntry, "key" | "categoryName" | "subcategoryName">[];
  /** Nothing is scored yet: the server refuses a completion without one scored item. */
  noScore: boolean;
  ready: boolean;
}

/** What completing would do, by the server's rule (InspectionsService.complete), for the sticky bar and its dialog. */
export function completionOf(
  categories: readonly CategoryWeights[],
  slots: Slot[],
  entries: Map<string, LocalEntry>,
): Completion {
  const total = slots.filter((s) => !s.descriptionOnly).length;
  let scored = 0;
  const blockers: Completion["blockers"] = [];
  for (const e of entries.values()) {
    const described = isDescriptionOnly(categories, e.categoryName, e.subcategoryName);
    if (e.score !== undefined && e.score !== null) {
      if (!described) scored++;
    } else if (hasData(e) && !described) blockers.push(e);
  }
  const order = new Map(slots.map((s, i) => [s.key, i]));
  blockers.sort((a, b) => (order.get(a.key) ?? Infinity) - (order.get(b.key) ?? Infinity));
  const noScore = !canComplete(categories, entries.values()) && blockers.length === 0;
  return {
    scored,
    total,
    percent: total ? Math.round((scored / total) * 100) : 0,
    blockers,
    noScore,
    ready: blockers.length === 0 && !noScore,
  };
}

/** The next item after `afterKey` (wrapping) that has no score yet and takes one; N/A counts as answered. */
export function nextUnscored(slots: Slot[], entries: Map<string, LocalEntry>, afterKey?: string): Slot | undefined {
  const open = slots.filter((s) => !s.descriptionOnly && entries.get(s.key)?.score === undefined);
  if (!afterKey) return open[0];
  const at = slots.findIndex((s) => s.key === afterKey);
  return open.find((s) => slots.indexOf(s) > at) ?? open[0];
}

/** How many things still wait to reach the server: entries, photos, and a queued completion. */
export function waitingOf({
  entries,
  photos,
  inspection,
}: {
  entries: Map<string, LocalEntry>;
  photos: Map<string, LocalPhoto>;
  inspection: LocalInspection;
}): number {
  const used = new Set([...entries.values()].flatMap((e) => e.photos));
  const pendingEntries = [...entries.values()].filter((e) => isDirty(e) && toSend(e) && !e.error).length;
  const pendingPhotos = [...photos.values()].filter(
    (p) => used.has(p.clientId) && p.serverId === undefined && !p.error,
  ).length;
  return pendingEntries + pendingPhotos + (inspection.completeRequested ? 1 : 0);
}
