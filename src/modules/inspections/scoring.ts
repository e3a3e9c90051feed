// Weighted scoring of an inspection (staff-side §9 weights, docs/decisions.md#2). Plain functions:
// the sample report, the report generator and the client page all compute scores here.
import { type Priority, recommendationPriority, urgencyText } from "./bands.js";

// The template lives in this module (docs/decisions.md#16); re-exported for existing importers.
import { type CategoryWeights, INSPECTION_WEIGHTS, baseSubcategory, findCategory } from "./template.js";
export { type CategoryWeights, INSPECTION_WEIGHTS, baseSubcategory, findCategory };

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
  const items = categories
    .filter((c) => c.exactScore !== null)
    .map((c) => ({ score: c.exactScore!, weight: c.weight }));
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
      return {
        id: index + 1,
        category: e.categoryName,
        subcategory: e.subcategoryName,
        notes: e.notes ?? "",
        score: hundred,
        priority,
        urgency: urgencyText(priority),
      };
    })
    .sort((a, b) => rank[a.priority] - rank[b.priority] || a.id - b.id);
}

export interface ScoredReport {
  overallScore: number | null;
  categories: CategoryResult[];
  recommendations: Recommendation[];
  summary: {
    highPriority: number;
    mediumPriority: number;
    lowPriority: number;
    totalIssues: number;
    overallScore: number | null;
  };
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
    summary: {
      highPriority: count("high"),
      mediumPriority: count("medium"),
      lowPriority: count("low"),
      totalIssues: recs.length,
      overallScore: overall,
    },
  };
}
