import { describe, expect, it } from "vitest";
import {
  INSPECTION_WEIGHTS,
  type Entry,
  baseSubcategory,
  categoryScore,
  findCategory,
  recommendations,
  scoreInspection,
  weightedAverage,
} from "./scoring.js";
import { HAVEN_ITEMS, INSPECTION_POINTS, templateEntries } from "./template.js";

const entry = (categoryName: string, subcategoryName: string, score: number | null, urgent = false): Entry => ({
  categoryName,
  subcategoryName,
  score,
  urgent,
});

describe("weights", () => {
  it("has the 14 categories of staff-side §9, summing to 100.5", () => {
    expect(INSPECTION_WEIGHTS).toHaveLength(14);
    expect(INSPECTION_WEIGHTS.reduce((s, c) => s + c.weight, 0)).toBe(100.5);
  });

  it("every category's staff-side §9 subcategory weights sum to 100; Haven's own items follow them", () => {
    for (const c of INSPECTION_WEIGHTS) {
      const own = HAVEN_ITEMS[c.name] ?? {};
      const spec = Object.entries(c.subcategories).filter(([name]) => !Object.hasOwn(own, name));
      expect(
        spec.reduce((s, [, w]) => s + w, 0),
        c.name,
      ).toBe(100);
      expect(Object.keys(c.subcategories).slice(spec.length), c.name).toEqual(Object.keys(own));
    }
  });

  it("holds the 114 points of the pricing and booking copy: Type of Cladding is described, not scored", () => {
    const entries = templateEntries();
    expect(entries.filter((e) => e.weight > 0)).toHaveLength(INSPECTION_POINTS);
    expect(INSPECTION_POINTS).toBe(114);
    expect(entries.filter((e) => e.weight === 0).map((e) => e.subcategoryName)).toEqual(["Type of Cladding"]);
    expect(Object.values(HAVEN_ITEMS).flatMap(Object.keys)).toHaveLength(9);
  });

  it("scores an inspection that never scored Haven's own items as before them", () => {
    // Staff-side §9's Attic alone: Access 10, Insulation 25 → (100·10 + 40·25) / 35.
    const attic = findCategory("Attic")!;
    const old = [entry("Attic", "Access", 10), entry("Attic", "Insulation", 4)];
    expect(categoryScore(attic, old)).toBeCloseTo(2000 / 35, 10);
    // Scored, the insulation depth joins the mean on the same scale (15).
    expect(categoryScore(attic, [...old, entry("Attic", "Insulation Depth", 1)])).toBeCloseTo(2150 / 50, 10);
  });
});

describe("weightedAverage", () => {
  it("weights the scores and leaves weight 0 out", () => {
    // The marketing HVAC example: furnace 40 %, filter 20 %, ventilation 25 %, condensate 15 %.
    expect(
      weightedAverage([
        { score: 90, weight: 40 },
        { score: 60, weight: 20 },
        { score: 80, weight: 25 },
        { score: 70, weight: 15 },
      ]),
    ).toBe(78.5);
    expect(
      weightedAverage([
        { score: 10, weight: 0 },
        { score: 70, weight: 5 },
      ]),
    ).toBe(70);
    expect(weightedAverage([])).toBeNull();
  });
});

describe("categoryScore", () => {
  const roof = findCategory("Roof")!;

  it("is the weighted mean of scored entries on the 0-100 scale, N/A left out", () => {
    // Shingles 15 × 100, Gutters 20 × 40 → (1500 + 800) / 35
    expect(
      categoryScore(roof, [entry("Roof", "Shingles", 10), entry("Roof", "Gutters", 4), entry("Roof", "Ponding", null)]),
    ).toBeCloseTo(2300 / 35);
    expect(categoryScore(roof, [entry("Roof", "Ponding", null)])).toBeNull();
  });

  it("pools repeated rooms into their subcategory weight", () => {
    expect(baseSubcategory("Sinks (Bathroom 2)")).toBe("Sinks");
    const baths = findCategory("Bathrooms")!;
    // Toilets 10 twice (100 and 10), Sinks 8 once (70): (1000 + 100 + 560) / 28
    expect(
      categoryScore(baths, [
        entry("Bathrooms", "Toilets", 10),
        entry("Bathrooms", "Toilets (Bathroom 2)", 1),
        entry("Bathrooms", "Sinks", 7),
      ]),
    ).toBeCloseTo(1660 / 28);
  });

  it("never counts Type of Cladding", () => {
    const ext = findCategory("Exterior Envelope")!;
    expect(
      categoryScore(ext, [
        entry("Exterior Envelope", "Type of Cladding", 1),
        entry("Exterior Envelope", "Paint / Finish", 7),
      ]),
    ).toBe(70);
  });
});

describe("scoreInspection", () => {
  it("normalises the category weights over the categories that were scored, and rounds", () => {
    const report = scoreInspection([
      entry("Roof", "Shingles", 10),
      entry("HVAC", "Thermostat", 4),
      entry("Attic", "Access", null),
    ]);
    // Roof 100 × 7, HVAC 40 × 6 → 940 / 13 = 72.3; the unscored Attic is listed but does not count.
    expect(report.overallScore).toBe(72);
    expect(report.categories.map((c) => [c.categoryName, c.score])).toEqual([
      ["Roof", 100],
      ["HVAC", 40],
      ["Attic", null],
    ]);
    expect(report.summary).toEqual({
      highPriority: 0,
      mediumPriority: 0,
      lowPriority: 1,
      totalIssues: 1,
      overallScore: 72,
    });
  });

  it("has no overall score when nothing was scored", () => {
    expect(scoreInspection([entry("Attic", "Access", null)]).overallScore).toBeNull();
  });

  it("refuses an unknown category", () => {
    expect(() => scoreInspection([entry("Garden Gnomes", "Hats", 7)])).toThrow(/Unknown inspection category/);
  });
});

describe("recommendations", () => {
  it("come from entries at 40 or less and from urgent ones, highest priority first", () => {
    const recs = recommendations([
      entry("Roof", "Shingles", 4),
      entry("Roof", "Gutters", 1),
      entry("HVAC", "Thermostat", 10, true),
      entry("HVAC", "Filter Cleaning", 7),
      entry("Attic", "Access", null),
    ]);
    expect(recs.map((r) => [r.subcategory, r.priority, r.urgency])).toEqual([
      ["Gutters", "high", "Urgent"],
      ["Thermostat", "high", "Urgent"],
      ["Shingles", "low", "60 Days"],
    ]);
  });
});
