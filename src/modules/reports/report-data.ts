// The report snapshot (docs/decisions.md#19): a pure function from a completed inspection to
// `reportData` in the shape of staff-side §3, with both names of each aliased field. Zod-free and
// server-free: the viewer island imports the types, the PDF renderer reads the same object.
import {
  type Priority,
  adminLabel,
  barColour,
  categoryBand,
  clientPriorityLabel,
  historyLabel,
  recommendationPriority,
  summaryLabel,
  urgencyText,
} from "../inspections/inspections.constants.js";
import {
  INSPECTION_WEIGHTS,
  baseSubcategory,
  categoryScore,
  toHundred,
  weightedAverage,
} from "../inspections/inspections.constants.js";

/** What the builder reads of an inspection (a structural subset of InspectionsService's InspectionWithEntries). */
export interface SourceEntry {
  id: number;
  categoryName: string;
  subcategoryName: string;
  score: number | null;
  notes: string | null;
  urgent: boolean;
  photoIds: number[];
  photos: string[];
  updatedAt: string;
}

export interface SourceInspection {
  id: number;
  propertyId: number;
  inspectorId: number | null;
  inspectionDate: string;
  status: string;
  overallScore: number | null;
  notes: string | null;
  completedAt: string | null;
  createdAt: string;
  property: {
    id: number;
    address: string;
    city: string | null;
    province: string | null;
    postalCode: string | null;
    clientName: string | null;
    clientEmail: string | null;
  };
  categories: { categoryName: string; entries: SourceEntry[] }[];
}

export type SummaryItemLabel = "Excellent" | "Marginal" | "Defective" | "Critical";

export interface SubcategoryEntry {
  subcategoryName: string;
  /** The inspector's score, 10, 7, 4 or 1; null is N/A. */
  score: number | null;
  /** The same score on the 0–100 scale the categories and the overall score use. */
  scoreOutOf100: number | null;
  notes: string;
  photos: string[];
  photoIds: number[];
  inspectedAt: string;
  isNA: boolean;
  urgent: boolean;
}

export interface ReportCategory {
  categoryName: string;
  /** Weighted 0–100 score, rounded; null when no item was scored. */
  score: number | null;
  /** The category band and bar colour (bands.ts). */
  band: string | null;
  colour: "green" | "yellow" | "red" | null;
  weight: number;
  notes: string;
  subcategoryCount: number;
  subcategories: SubcategoryEntry[];
  /** Plain mean of the scored items on 0–100, rounded. */
  averageScore: number | null;
}

export interface ReportRecommendation {
  /** The maintenance task's id (docs/decisions.md#19). */
  id: number;
  category: string;
  subcategory: string;
  notes: string;
  description: string;
  /** 0–100 score of the entry; null when it was only marked urgent. */
  score: number | null;
  priority: Priority;
  /** 'Critical', 'Defective' or 'Monitor' (client priority labels). */
  priorityLabel: string;
  urgency: "Urgent" | "30 Days" | "60 Days";
  urgent: boolean;
  photos: string[];
  photoIds: number[];
  subcategories: string[];
}

export interface ReportSummary {
  highPriority: number;
  mediumPriority: number;
  lowPriority: number;
  totalIssues: number;
  overallScore: number | null;
  /** Items scored 10, 7, 4 and 1 (staff-side §9 summary panel). */
  itemCounts: Record<SummaryItemLabel, number>;
}

export interface ReportData {
  overallScore: number | null;
  /** Admin label of the overall score, and its history label. */
  label: string | null;
  historyLabel: string | null;
  inspection: {
    id: number;
    overallScore: number | null;
    inspectionDate: string;
    completedAt: string | null;
    status: string;
    notes: string | null;
  };
  summary: ReportSummary;
  metadata: { reportId: number; totalCategoriesInspected: number; totalItemsInspected: number; generatedAt: string };
  property: {
    id: number;
    address: string;
    city: string | null;
    province: string | null;
    postalCode: string | null;
    clientName: string | null;
    clientEmail: string | null;
    createdAt: string;
    inspector: string | null;
    reportGeneratedAt: string;
  };
  recommendations: ReportRecommendation[];
  issues: ReportRecommendation[];
  allCategories: ReportCategory[];
  categories: ReportCategory[];
}

/** The spec's sentence of the summary panel. */
export const SUMMARY_SENTENCE = "Items scored 1, 4 or 7 need attention.";

export const SUMMARY_ITEM_SCORES: { label: SummaryItemLabel; score: number }[] = [
  { label: "Excellent", score: 10 },
  { label: "Marginal", score: 7 },
  { label: "Defective", score: 4 },
  { label: "Critical", score: 1 },
];

export interface BuildOptions {
  reportId: number;
  generatedAt: string;
  inspectorName: string | null;
  /** Task ids, in the order of the recommendations; 1..n when absent (before the tasks exist). */
  recommendationIds?: number[];
}

const scorable = ({ categoryName, subcategoryName, score }: SourceEntry) => ({ categoryName, subcategoryName, score });

const RANK: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

function describe(entry: SourceEntry, hundred: number | null): string {
  const where = `${entry.subcategoryName} (${entry.categoryName})`;
  if (hundred === null) return `${where} was marked urgent by the inspector.`;
  const verdict = hundred <= 10 ? "needs immediate action" : "needs attention";
  return `${where} scored ${hundred}/100 and ${verdict}.`;
}

function buildCategory(name: string, entries: SourceEntry[]): ReportCategory {
  const template = INSPECTION_WEIGHTS.find((c) => c.name === name);
  const exact = template ? categoryScore(template, entries.map(scorable)) : null;
  const score = exact === null ? null : Math.round(exact);
  const scored = entries.filter(
    (e) => e.score !== null && (template?.subcategories[baseSubcategory(e.subcategoryName)] ?? 0) > 0,
  );
  const average = scored.length
    ? Math.round(scored.reduce((sum, e) => sum + toHundred(e.score!), 0) / scored.length)
    : null;
  const attention = scored.filter((e) => e.score! <= 7).length;
  return {
    categoryName: name,
    score,
    band: score === null ? null : categoryBand(score),
    colour: score === null ? null : barColour(score),
    weight: template?.weight ?? 0,
    notes: scored.length ? `${attention} of ${scored.length} scored items need attention.` : "No item was scored.",
    subcategoryCount: entries.length,
    subcategories: entries.map((e) => ({
      subcategoryName: e.subcategoryName,
      score: e.score,
      scoreOutOf100: e.score === null ? null : toHundred(e.score),
      notes: e.notes ?? "",
      photos: [...e.photos],
      photoIds: [...e.photoIds],
      inspectedAt: e.updatedAt,
      isNA: e.score === null,
      urgent: e.urgent,
    })),
    averageScore: average,
  };
}

/** Entries at 40 or less on 0–100, or marked urgent (docs/decisions.md#2), worst first, then in inspection order. */
function buildRecommendations(entries: SourceEntry[], ids?: number[]): ReportRecommendation[] {
  const drafts = entries
    .map((entry, index) => ({ entry, index, hundred: entry.score === null ? null : toHundred(entry.score) }))
    .filter(({ entry, hundred }) => entry.urgent || (hundred !== null && hundred <= 40))
    .map(({ entry, index, hundred }) => ({
      entry,
      index,
      hundred,
      priority: recommendationPriority(hundred, entry.urgent),
    }))
    .sort((a, b) => RANK[a.priority] - RANK[b.priority] || a.index - b.index);
  if (ids && ids.length !== drafts.length)
    throw new Error(`Expected ${drafts.length} recommendation ids, got ${ids.length}`);
  return drafts.map(({ entry, hundred, priority }, position) => ({
    id: ids ? ids[position]! : position + 1,
    category: entry.categoryName,
    subcategory: entry.subcategoryName,
    notes: entry.notes ?? "",
    description: describe(entry, hundred),
    score: hundred,
    priority,
    priorityLabel: clientPriorityLabel(priority),
    urgency: urgencyText(priority),
    urgent: entry.urgent,
    photos: [...entry.photos],
    photoIds: [...entry.photoIds],
    subcategories: [entry.subcategoryName],
  }));
}

/** How many recommendations an inspection yields: the generator creates that many tasks first. */
export function recommendationCount(inspection: SourceInspection): number {
  return buildRecommendations(inspection.categories.flatMap((c) => c.entries)).length;
}

/** Freezes a completed inspection into `reportData` (staff-side §3). Pure: same input, same output. */
export function buildReportData(inspection: SourceInspection, options: BuildOptions): ReportData {
  // Template order, whatever order the source lists its categories in; unknown names go last.
  const order = (name: string) => {
    const index = INSPECTION_WEIGHTS.findIndex((c) => c.name === name);
    return index === -1 ? INSPECTION_WEIGHTS.length : index;
  };
  const sources = inspection.categories
    .filter((c) => c.entries.length)
    .sort((a, b) => order(a.categoryName) - order(b.categoryName));
  const categories = sources.map((c) => buildCategory(c.categoryName, c.entries));
  const entries = sources.flatMap((c) => c.entries);
  // Category weights over the categories with a scored item, normalised (they sum to 100.5), rounded.
  const weighted = sources.flatMap((source, i) => {
    const template = INSPECTION_WEIGHTS.find((t) => t.name === source.categoryName);
    const exact = template ? categoryScore(template, source.entries.map(scorable)) : null;
    return exact === null ? [] : [{ score: exact, weight: categories[i]!.weight }];
  });
  const mean = weightedAverage(weighted);
  const overall = mean === null ? null : Math.round(mean);
  const recommendations = buildRecommendations(entries, options.recommendationIds);
  const count = (p: Priority) => recommendations.filter((r) => r.priority === p).length;
  const itemCounts = { Excellent: 0, Marginal: 0, Defective: 0, Critical: 0 } satisfies Record<
    SummaryItemLabel,
    number
  >;
  for (const entry of entries) {
    const label = entry.score === null ? null : summaryLabel(entry.score);
    if (label) itemCounts[label] += 1;
  }
  const summary: ReportSummary = {
    highPriority: count("high"),
    mediumPriority: count("medium"),
    lowPriority: count("low"),
    totalIssues: recommendations.length,
    overallScore: overall,
    itemCounts,
  };
  const p = inspection.property;
  return {
    overallScore: overall,
    label: overall === null ? null : adminLabel(overall),
    historyLabel: overall === null ? null : historyLabel(overall),
    inspection: {
      id: inspection.id,
      overallScore: overall,
      inspectionDate: inspection.inspectionDate,
      completedAt: inspection.completedAt,
      status: inspection.status,
      notes: inspection.notes,
    },
    summary,
    metadata: {
      reportId: options.reportId,
      totalCategoriesInspected: categories.filter((c) => c.score !== null).length,
      totalItemsInspected: entries.filter((e) => e.score !== null).length,
      generatedAt: options.generatedAt,
    },
    property: {
      id: p.id,
      address: p.address,
      city: p.city,
      province: p.province,
      postalCode: p.postalCode,
      clientName: p.clientName,
      clientEmail: p.clientEmail,
      createdAt: inspection.completedAt ?? inspection.createdAt,
      inspector: options.inspectorName,
      reportGeneratedAt: options.generatedAt,
    },
    recommendations,
    issues: recommendations,
    allCategories: categories,
    categories,
  };
}

/** The snapshot with its recommendations' ids replaced (by the task ids, in order), in both aliases. */
export function withRecommendationIds(data: ReportData, ids: number[]): ReportData {
  if (ids.length !== data.recommendations.length)
    throw new Error(`Expected ${data.recommendations.length} recommendation ids, got ${ids.length}`);
  const recommendations = data.recommendations.map((r, i) => ({ ...r, id: ids[i]! }));
  return { ...data, recommendations, issues: recommendations };
}

/** A report's data may be stored as an object or a JSON string (staff-side §3); both aliases are filled in. */
export function normaliseReportData(raw: unknown): ReportData {
  const data = (typeof raw === "string" ? JSON.parse(raw) : raw) as Partial<ReportData>;
  const recommendations = data.recommendations ?? data.issues ?? [];
  const categories = data.allCategories ?? data.categories ?? [];
  return { ...(data as ReportData), recommendations, issues: recommendations, allCategories: categories, categories };
}
