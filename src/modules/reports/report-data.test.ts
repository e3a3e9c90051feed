import { describe, expect, it } from "vitest";
import { addressLine } from "../../shared/address.js";
import {
  SUMMARY_SENTENCE,
  type SourceEntry,
  type SourceInspection,
  buildReportData,
  normaliseReportData,
  recommendationCount,
  withRecommendationIds,
} from "./report-data.js";

let nextId = 1;
const entry = (
  categoryName: string,
  subcategoryName: string,
  score: number | null,
  notes: string | null = null,
  urgent = false,
  photoIds: number[] = [],
): SourceEntry => ({
  id: nextId++,
  categoryName,
  subcategoryName,
  score,
  notes,
  urgent,
  photoIds,
  photos: photoIds.map((id) => `/api/photos/${id}`),
  updatedAt: "2026-02-03T15:00:00.000Z",
});

/** A small inspection whose every figure is computed by hand below. */
const inspection: SourceInspection = {
  id: 7,
  propertyId: 3,
  inspectorId: 2,
  inspectionDate: "2026-02-03",
  status: "completed",
  overallScore: 57,
  notes: "Dog in the yard",
  completedAt: "2026-02-03T16:00:00.000Z",
  createdAt: "2026-02-03T14:00:00.000Z",
  property: {
    id: 3,
    address: "12 Rue Élise",
    city: "Québec",
    province: "QC",
    postalCode: "G1R 4P5",
    clientName: "Łucja O’Brien",
    clientEmail: "l@example.com",
  },
  // Listed out of template order on purpose: the snapshot keeps the template's order.
  categories: [
    {
      categoryName: "Roof",
      entries: [
        entry("Roof", "Gutters", 7, "Sagging at the corner"),
        entry("Roof", "Shingles", null),
        entry("Roof", "Flashings", 10, "Loose at the chimney", true),
      ],
    },
    { categoryName: "Exterior Envelope", entries: [entry("Exterior Envelope", "Type of Cladding", null, "Vinyl")] },
    {
      categoryName: "Plumbing",
      entries: [
        entry("Plumbing", "Water Main Shut Off", 10),
        entry("Plumbing", "Pressure and Flow", 4, "Low pressure upstairs"),
        entry("Plumbing", "Hot Water System", 1, "Tank leaking", false, [5, 6]),
      ],
    },
    { categoryName: "Attic", entries: [] },
  ],
};

const options = { reportId: 11, generatedAt: "2026-02-04T09:00:00.000Z", inspectorName: "Sam Inspector" };

describe("buildReportData", () => {
  const data = buildReportData(inspection, options);

  it("scores the categories with the weights (hand-computed) in template order, with bands from bands.ts", () => {
    expect(data.allCategories.map((c) => c.categoryName)).toEqual(["Plumbing", "Exterior Envelope", "Roof"]);
    const [plumbing, exterior, roof] = data.allCategories;
    // (100×10 + 40×20 + 10×15) / 45 = 43.3; plain mean (100 + 40 + 10) / 3 = 50.
    expect(plumbing).toMatchObject({
      score: 43,
      averageScore: 50,
      band: "Fair",
      colour: "red",
      weight: 13,
      subcategoryCount: 3,
      notes: "2 of 3 scored items need attention.",
    });
    // Type of Cladding has weight 0 and no score: nothing counts.
    expect(exterior).toMatchObject({
      score: null,
      averageScore: null,
      band: null,
      colour: null,
      subcategoryCount: 1,
      notes: "No item was scored.",
    });
    // (70×20 + 100×15) / 35 = 82.9; N/A Shingles left out; mean (70 + 100) / 2 = 85.
    expect(roof).toMatchObject({ score: 83, averageScore: 85, band: "Excellent", colour: "green", weight: 7 });
    expect(roof!.subcategories[1]).toEqual({
      subcategoryName: "Shingles",
      score: null,
      scoreOutOf100: null,
      notes: "",
      photos: [],
      photoIds: [],
      inspectedAt: "2026-02-03T15:00:00.000Z",
      isNA: true,
      urgent: false,
    });
    expect(plumbing!.subcategories[2]).toMatchObject({
      subcategoryName: "Hot Water System",
      score: 1,
      scoreOutOf100: 10,
      notes: "Tank leaking",
      photos: ["/api/photos/5", "/api/photos/6"],
      photoIds: [5, 6],
      isNA: false,
    });
  });

  it("computes the overall score over the scored categories, normalised, with the admin and history labels", () => {
    // (13 × 43.33 + 7 × 82.86) / 20 = 57.17.
    expect(data.overallScore).toBe(57);
    expect(data.inspection.overallScore).toBe(57);
    expect(data.summary.overallScore).toBe(57);
    expect(data.label).toBe("Poor");
    expect(data.historyLabel).toBe("Poor");
    expect(data.inspection).toEqual({
      id: 7,
      overallScore: 57,
      inspectionDate: "2026-02-03",
      completedAt: "2026-02-03T16:00:00.000Z",
      status: "completed",
      notes: "Dog in the yard",
    });
  });

  it("derives recommendations: 40 or less, or urgent; high first; urgency texts", () => {
    expect(
      data.recommendations.map((r) => [r.id, r.subcategory, r.score, r.priority, r.urgency, r.priorityLabel]),
    ).toEqual([
      [1, "Hot Water System", 10, "high", "Urgent", "Critical"],
      [2, "Flashings", 100, "high", "Urgent", "Critical"],
      [3, "Pressure and Flow", 40, "low", "60 Days", "Monitor"],
    ]);
    expect(data.recommendations[0]).toEqual({
      id: 1,
      category: "Plumbing",
      subcategory: "Hot Water System",
      notes: "Tank leaking",
      description: "Hot Water System (Plumbing) scored 10/100 and needs immediate action.",
      score: 10,
      priority: "high",
      priorityLabel: "Critical",
      urgency: "Urgent",
      urgent: false,
      photos: ["/api/photos/5", "/api/photos/6"],
      photoIds: [5, 6],
      subcategories: ["Hot Water System"],
    });
    expect(data.summary).toEqual({
      highPriority: 2,
      mediumPriority: 0,
      lowPriority: 1,
      totalIssues: 3,
      overallScore: 57,
      itemCounts: { Excellent: 2, Marginal: 1, Defective: 1, Critical: 1 },
    });
    expect(recommendationCount(inspection)).toBe(3);
  });

  it("fills both aliases, the metadata and the property block", () => {
    expect(data.issues).toBe(data.recommendations);
    expect(data.categories).toBe(data.allCategories);
    expect(data.metadata).toEqual({
      reportId: 11,
      totalCategoriesInspected: 2,
      totalItemsInspected: 5,
      generatedAt: "2026-02-04T09:00:00.000Z",
    });
    expect(data.property).toMatchObject({
      id: 3,
      address: "12 Rue Élise",
      inspector: "Sam Inspector",
      reportGeneratedAt: "2026-02-04T09:00:00.000Z",
      createdAt: "2026-02-03T16:00:00.000Z",
    });
  });

  it("takes the task ids in the recommendations' order, and refuses a wrong count", () => {
    const withIds = buildReportData(inspection, { ...options, recommendationIds: [40, 41, 42] });
    expect(withIds.recommendations.map((r) => r.id)).toEqual([40, 41, 42]);
    expect(() => buildReportData(inspection, { ...options, recommendationIds: [1] })).toThrow(/Expected 3/);
    const replaced = withRecommendationIds(data, [7, 8, 9]);
    expect(replaced.recommendations.map((r) => r.id)).toEqual([7, 8, 9]);
    expect(replaced.issues).toBe(replaced.recommendations);
    expect(data.recommendations.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(() => withRecommendationIds(data, [])).toThrow(/Expected 3/);
  });

  it("is pure: the same input gives the same output and the input is not changed", () => {
    const before = JSON.stringify(inspection);
    expect(buildReportData(inspection, options)).toEqual(data);
    expect(JSON.stringify(inspection)).toBe(before);
  });

  it("gives a medium priority only below 25 and an urgent N/A item a null score", () => {
    const urgentNa: SourceInspection = {
      ...inspection,
      categories: [{ categoryName: "HVAC", entries: [entry("HVAC", "Thermostat", null, "Display dead", true)] }],
    };
    const only = buildReportData(urgentNa, options);
    expect(only.overallScore).toBeNull();
    expect(only.label).toBeNull();
    expect(only.recommendations[0]).toMatchObject({
      score: null,
      priority: "high",
      urgency: "Urgent",
      description: "Thermostat (HVAC) was marked urgent by the inspector.",
    });
  });
});

describe("normaliseReportData and helpers", () => {
  it("reads a JSON string and fills a missing alias", () => {
    const data = buildReportData(inspection, options);
    const { issues: _issues, categories: _categories, ...partial } = data;
    const back = normaliseReportData(JSON.stringify(partial));
    expect(back.issues).toEqual(data.recommendations);
    expect(back.categories).toEqual(data.allCategories);
  });

  it("writes the address on one line", () => {
    expect(addressLine(inspection.property)).toBe("12 Rue Élise, Québec, QC G1R 4P5");
    expect(addressLine({ address: "1 Main", city: null, province: null, postalCode: null })).toBe("1 Main");
  });

  it("quotes the summary sentence", () => {
    expect(SUMMARY_SENTENCE).toContain("1, 4 or 7");
  });
});
