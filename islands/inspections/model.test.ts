import { describe, expect, it } from "vitest";
import {
  type LocalEntry,
  allSlots,
  blankEntry,
  canComplete,
  categorySlots,
  completionOf,
  DEFAULT_ROOMS,
  hasData,
  nextUnscored,
  progressOf,
  roomsFor,
  toSend,
} from "./model";
import { INSPECTION_POINTS, INSPECTION_WEIGHTS } from "../../src/modules/inspections/template";

const entry = (categoryName: string, subcategoryName: string, over: Partial<LocalEntry> = {}): LocalEntry => ({
  ...blankEntry(1, categoryName, subcategoryName),
  rev: 1,
  ...over,
});
const map = (...entries: LocalEntry[]) => new Map(entries.map((e) => [e.key, e]));

describe("the form's rules", () => {
  it("counts an entry as complete with a score, notes or photos; N/A alone is not one", () => {
    expect(hasData(entry("Attic", "Access", { score: 7 }))).toBe(true);
    expect(hasData(entry("Attic", "Access", { notes: "  " }))).toBe(false);
    expect(hasData(entry("Attic", "Access", { notes: "Hatch" }))).toBe(true);
    expect(hasData(entry("Attic", "Access", { photos: ["p1"] }))).toBe(true);
    expect(hasData(entry("Attic", "Access", { score: null }))).toBe(false);
    // A cleared entry the server holds is still sent, to clear it there.
    expect(toSend(entry("Attic", "Access", { onServer: true, rev: 3, syncedRev: 2 }))).toBe(true);
    expect(toSend(entry("Attic", "Access", { rev: 3, syncedRev: 2 }))).toBe(false);
  });

  it("shows Complete only when every entry with data has a score (description-only items exempt)", () => {
    expect(canComplete(INSPECTION_WEIGHTS, [])).toBe(false);
    expect(canComplete(INSPECTION_WEIGHTS, [entry("Attic", "Access", { score: 10 })])).toBe(true);
    expect(
      canComplete(INSPECTION_WEIGHTS, [
        entry("Attic", "Access", { score: 10 }),
        entry("Attic", "Moisture", { notes: "Wet" }),
      ]),
    ).toBe(false);
    expect(
      canComplete(INSPECTION_WEIGHTS, [
        entry("Attic", "Access", { score: 10 }),
        entry("Attic", "Moisture", { score: null, notes: "Wet" }),
      ]),
    ).toBe(false);
    expect(
      canComplete(INSPECTION_WEIGHTS, [
        entry("Attic", "Access", { score: 10 }),
        entry("Exterior Envelope", "Type of Cladding", { notes: "Brick" }),
      ]),
    ).toBe(true);
    expect(canComplete(INSPECTION_WEIGHTS, [entry("Exterior Envelope", "Type of Cladding", { notes: "Brick" })])).toBe(
      false,
    );
  });

  it("names repeated rooms with their suffix and measures progress over every card", () => {
    const kitchens = INSPECTION_WEIGHTS.find((c) => c.repeatable === "Kitchen")!;
    const slots = categorySlots(kitchens, { ...DEFAULT_ROOMS, Kitchen: 3 });
    expect(slots).toHaveLength(3);
    expect(slots[1]![2]!.subcategoryName).toBe("Dishwasher (Kitchen 2)");
    expect(slots[0]![2]!.subcategoryName).toBe("Dishwasher");
    const all = slots.flat();
    expect(progressOf(all, map(entry(kitchens.name, "Dishwasher (Kitchen 2)", { score: 4 })))).toEqual({
      completed: 1,
      total: 36,
      percent: 3,
    });
    // 114 points and the Type of Cladding card (docs/decisions.md#41).
    expect(allSlots(INSPECTION_WEIGHTS, DEFAULT_ROOMS)).toHaveLength(115);
    expect(
      roomsFor(INSPECTION_WEIGHTS, [entry("Bathrooms", "Sinks (Bathroom 4)"), entry("Laundry Room", "Washer / Dryer")]),
    ).toEqual({
      Kitchen: 1,
      Bathroom: 4,
      Laundry: 1,
    });
  });

  it("counts the 114 points in both the progress and the completion; Type of Cladding is not one", () => {
    const slots = allSlots(INSPECTION_WEIGHTS, DEFAULT_ROOMS);
    const cladding = entry("Exterior Envelope", "Type of Cladding", { notes: "Brick veneer" });
    const radon = entry("Basement, Foundation, Crawlspace & Structure", "Radon Test", { score: 7 });
    expect(progressOf(slots, map(cladding))).toEqual({ completed: 0, total: INSPECTION_POINTS, percent: 0 });
    expect(progressOf(slots, map(cladding, radon))).toEqual({ completed: 1, total: INSPECTION_POINTS, percent: 1 });
    expect(completionOf(INSPECTION_WEIGHTS, slots, map(cladding, radon))).toMatchObject({
      scored: 1,
      total: INSPECTION_POINTS,
      ready: true,
    });
    expect(INSPECTION_POINTS).toBe(114);
    // The Exterior Envelope's own progress counts its 9 points, not the cladding's description.
    const exterior = INSPECTION_WEIGHTS.find((c) => c.name === "Exterior Envelope")!;
    expect(progressOf(categorySlots(exterior, DEFAULT_ROOMS).flat(), map(cladding)).total).toBe(9);
  });

  it("jumps to the next item without a score, skipping N/A and description-only items, and wraps", () => {
    const slots = allSlots(INSPECTION_WEIGHTS, DEFAULT_ROOMS);
    const basement = "Basement, Foundation, Crawlspace & Structure";
    const entries = map(
      entry(basement, "Foundation Cracks", { score: 7 }),
      entry(basement, "Basement Moisture / Mold", { score: null }),
    );
    expect(nextUnscored(slots, entries)?.subcategoryName).toBe("Settlement Indicators");
    expect(nextUnscored(slots, entries, `${basement}|Settlement Indicators`)?.subcategoryName).toBe(
      "Structural Assemblies",
    );
    const cladding = slots.findIndex((s) => s.subcategoryName === "Type of Cladding");
    expect(nextUnscored(slots, entries, slots[cladding - 1]!.key)?.subcategoryName).toBe("Cladding Condition");
    expect(nextUnscored(slots, entries, slots.at(-1)!.key)?.subcategoryName).toBe("Settlement Indicators");
  });
});
