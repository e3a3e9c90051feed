// Weighted scoring of an inspection (staff-side §9 weights, DESIGN.md decision 2). Plain functions:
// the sample report, the report generator and the client page all compute scores here.
import { type Priority, recommendationPriority, urgencyText } from "./bands.js";

export interface CategoryWeights {
  name: string;
  /** Percent of the overall score (they sum to 100.5: the overall score normalises). */
  weight: number;
  repeatable?: "Kitchen" | "Bathroom" | "Laundry";
  subcategories: Record<string, number>;
}

/** Inspection categories with their subcategory weights, in the order staff-side §9 lists them. */
export const INSPECTION_WEIGHTS: CategoryWeights[] = [
  { name: "Basement, Foundation, Crawlspace & Structure", weight: 16, subcategories: { "Foundation Cracks": 30, "Basement Moisture / Mold": 30, "Settlement Indicators": 25, "Structural Assemblies": 15 } },
  { name: "Plumbing", weight: 13, subcategories: { "Water Main Shut Off": 10, "Pressure and Flow": 20, "Drain/Waste/Vent": 20, "Water Distribution": 15, "Hot Water System": 15, Hydronics: 5, "Sewer Ejection/Lift": 7.5, "Sump Pump": 7.5 } },
  { name: "Site & Drainage", weight: 11, subcategories: { "Grading and Drainage": 25, Vegetation: 15, "Driveway / Parking": 15, "Patios / Hardscapes": 15, "Retaining Walls / Slopes": 15, "Fencing / Gates": 15 } },
  {
    name: "Kitchens & Wet Bars",
    weight: 10,
    repeatable: "Kitchen",
    subcategories: { "Refrigerator / Freezer": 5, "Range / Oven": 10, Dishwasher: 10, Microwave: 5, "Hood Vent": 10, Garburator: 5, "Sink and Faucet": 15, Cabinetry: 10, Countertops: 5, "Backsplash / Wall Finishes": 5, Flooring: 10, Lighting: 10 },
  },
  {
    name: "Bathrooms",
    weight: 9,
    repeatable: "Bathroom",
    subcategories: { Toilets: 10, Sinks: 8, Bathtubs: 8, Showers: 10, Ventilation: 7, Waterproofing: 10, "Cabinetry and Storage": 5, Flooring: 7, "Wall Surfaces": 5, "Fixtures / Finish": 5, "Electrical Safety": 5, "Pressure / Temp / Functionality": 7, "Mold / Mildew": 5, "Leaks / Water Damage": 5, Cleanliness: 3 },
  },
  {
    name: "Exterior Envelope",
    weight: 8,
    subcategories: { "Type of Cladding": 0, "Cladding Condition": 20, "Eaves / Soffits": 10, "Paint / Finish": 10, "Caulking / Sealants": 10, "Decks / Steps": 15, "Exterior Rails": 5, "Grade Clearance / Flashing": 10, "Exterior Venting / Openings": 10, "Exterior Lighting": 10 },
  },
  { name: "Roof", weight: 7, subcategories: { Shingles: 15, Delamination: 10, Ponding: 10, Ventilation: 10, Flashings: 15, Penetrations: 10, "Roof Vent Systems": 10, Gutters: 20 } },
  { name: "HVAC", weight: 6, subcategories: { "Heating Source": 20, "Cooling System": 15, "Heating Condition": 15, "HVAC Components": 15, "Airflow / Registers": 10, Thermostat: 15, "Filter Cleaning": 10 } },
  { name: "Electrical", weight: 6, subcategories: { "Service Entrance": 15, "Main Panel": 15, "Sub-Panels": 10, "Branch Wiring": 15, "Receptacles / Switches": 10, Lighting: 10, Grounding: 10, "Smoke / CO Detectors": 15 } },
  { name: "Interior Finishes", weight: 5, subcategories: { Flooring: 15, Walls: 10, Ceiling: 10, Doors: 10, Trim: 10, Baseboard: 5, Cabinetry: 10, Hardware: 10, "Guard Rails": 10, Cleanliness: 10 } },
  { name: "Attic", weight: 4, subcategories: { Access: 10, Insulation: 25, Ventilation: 15, Moisture: 20, "Pest Intrusion": 15, "Air Sealing": 15 } },
  { name: "Windows and Doors", weight: 3, subcategories: { "Windows / Screens": 30, Egress: 30, "Exterior Doors": 25, "Overhead Doors": 15 } },
  { name: "Laundry Room", weight: 2, repeatable: "Laundry", subcategories: { "Washer / Dryer": 20, "Sink / Fixtures": 20, "Supply / Drain": 20, "Dryer Ventilation": 20, "Electrical Safety": 20 } },
  { name: "Miscellaneous / Safety", weight: 0.5, subcategories: { Fireplace: 33, "Stair Treads / Risers": 33, "Egress Obstructions": 34 } },
];

export interface Entry {
  categoryName: string;
  /** Repeated instances carry a suffix: 'Sinks (Bathroom 2)'. */
  subcategoryName: string;
  /** 10, 7, 4, 1, or null for N/A (left out). */
  score: number | null;
  notes?: string;
  urgent?: boolean;
}

export interface Weighted {
  score: number;
  weight: number;
}

/** Weighted mean; items of weight 0 never count. Null when nothing counts. */
export function weightedAverage(items: Weighted[]): number | null {
  const counted = items.filter((i) => i.weight > 0);
  const total = counted.reduce((sum, i) => sum + i.weight, 0);
  if (total === 0) return null;
  return counted.reduce((sum, i) => sum + i.score * i.weight, 0) / total;
}

/** 'Sinks (Bathroom 2)' → 'Sinks': repeated instances pool into their subcategory's weight. */
export function baseSubcategory(name: string): string {
  return name.replace(/ \((Kitchen|Bathroom|Laundry) \d+\)$/, "");
}

export function findCategory(name: string): CategoryWeights | undefined {
  return INSPECTION_WEIGHTS.find((c) => c.name === name);
}

/** The 0–100 reading of an entry score (10, 7, 4, 1 → 100, 70, 40, 10). */
export const toHundred = (entryScore: number) => entryScore * 10;

/** A category's 0–100 score: weighted mean of its scored entries, null when none is scored. */
export function categoryScore(category: CategoryWeights, entries: Entry[]): number | null {
  const items: Weighted[] = [];
  for (const entry of entries) {
    if (entry.score === null) continue;
    const weight = category.subcategories[baseSubcategory(entry.subcategoryName)] ?? 0;
    items.push({ score: toHundred(entry.score), weight });
  }
  return weightedAverage(items);
}

export interface CategoryResult {
  categoryName: string;
  weight: number;
  /** Rounded 0–100 score, or null when nothing in it was scored. */
  score: number | null;
  exactScore: number | null;
  subcategoryCount: number;
  subcategories: { subcategoryName: string; score: number | null; isNA: boolean; notes: string }[];
}

export interface Recommendation {
  id: number;
  category: string;
  subcategory: string;
  notes: string;
  score: number | null;
  priority: Priority;
  urgency: string;
}

/** Per category, the scored result; unknown category names are refused loudly. */
export function scoreCategories(entries: Entry[]): CategoryResult[] {
  for (const e of entries) {
    if (!findCategory(e.categoryName)) throw new Error(`Unknown inspection category: ${e.categoryName}`);
  }
  return INSPECTION_WEIGHTS.filter((c) => entries.some((e) => e.categoryName === c.name)).map((category) => {
    const own = entries.filter((e) => e.categoryName === category.name);
    const exact = categoryScore(category, own);
    return {
      categoryName: category.name,
      weight: category.weight,
      score: exact === null ? null : Math.round(exact),
      exactScore: exact,
      subcategoryCount: own.length,
      subcategories: own.map((e) => ({
        subcategoryName: e.subcategoryName,
        score: e.score === null ? null : toHundred(e.score),
        isNA: e.score === null,
        notes: e.notes ?? "",
      })),
    };
  });
}

/** Overall 0–100 score: category weights over the categories with a scored entry, normalised, rounded. */
export function overallScore(categories: CategoryResult[]): number | null {
  const items = categories.filter((c) => c.exactScore !== null).map((c) => ({ score: c.exactScore!, weight: c.weight }));
  const mean = weightedAverage(items);
  return mean === null ? null : Math.round(mean);
}

/** Entries at 40 or less on the 0–100 scale, or marked urgent, become recommendations; worst first. */
export function recommendations(entries: Entry[]): Recommendation[] {
  const rank: Record<Priority, number> = { high: 0, medium: 1, low: 2 };
  return entries
    .map((e, index) => ({ e, index, hundred: e.score === null ? null : toHundred(e.score) }))
    .filter(({ e, hundred }) => e.urgent || (hundred !== null && hundred <= 40))
    .map(({ e, index, hundred }) => {
      const priority = recommendationPriority(hundred, e.urgent);
      return { id: index + 1, category: e.categoryName, subcategory: e.subcategoryName, notes: e.notes ?? "", score: hundred, priority, urgency: urgencyText(priority) };
    })
    .sort((a, b) => rank[a.priority] - rank[b.priority] || a.id - b.id);
}

export interface ScoredReport {
  overallScore: number | null;
  categories: CategoryResult[];
  recommendations: Recommendation[];
  summary: { highPriority: number; mediumPriority: number; lowPriority: number; totalIssues: number; overallScore: number | null };
}

export function scoreInspection(entries: Entry[]): ScoredReport {
  const categories = scoreCategories(entries);
  const overall = overallScore(categories);
  const recs = recommendations(entries);
  const count = (p: Priority) => recs.filter((r) => r.priority === p).length;
  return {
    overallScore: overall,
    categories,
    recommendations: recs,
    summary: { highPriority: count("high"), mediumPriority: count("medium"), lowPriority: count("low"), totalIssues: recs.length, overallScore: overall },
  };
}
