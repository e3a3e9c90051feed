// The one module of score labels and bands (docs/decisions.md#2). The report, the viewer, the PDF,
// the client page and the marketing pages all read their labels from here, so they never disagree.
// Plain functions of plain values: islands may import it too.

export const PRODUCT_NAME = "Haven";

export type BarColour = "green" | "yellow" | "red";
export type Priority = "high" | "medium" | "low";

interface Band<L extends string = string> {
  min: number;
  label: L;
}

/** First band whose minimum the score reaches; bands are listed from the top down. */
function byMinimum<L extends string>(bands: readonly Band<L>[], score: number): L {
  const band = bands.find((b) => score >= b.min) ?? bands[bands.length - 1]!;
  return band.label;
}

/** Marketing score bands = client report labels (customer-side §9, staff-side §9). */
export const MARKETING_BANDS = [
  { min: 90, max: 100, label: `${PRODUCT_NAME} Standing` },
  { min: 80, max: 89, label: "Well Appointed" },
  { min: 70, max: 79, label: "Due for Stewardship" },
  { min: 60, max: 69, label: "Diminishing Estate" },
  { min: 0, max: 59, label: "Beyond the Pale" },
] as const;

export type MarketingBandLabel = (typeof MARKETING_BANDS)[number]["label"];

export function marketingBand(score: number): MarketingBandLabel {
  return byMinimum(MARKETING_BANDS, score);
}

/** What each band says about a home, shown wherever a homeowner reads a band (docs/decisions.md#66). */
export const BAND_MEANINGS: Record<MarketingBandLabel, string> = {
  [`${PRODUCT_NAME} Standing`]: "The home is in excellent condition: keep up its routine care.",
  "Well Appointed": "The home is in good condition, with a few small items to watch.",
  "Due for Stewardship": "The home is sound, but some items need care this year.",
  "Diminishing Estate": "Wear is adding up: several items need repair soon.",
  "Beyond the Pale": "The home has serious problems: deal with the critical items first.",
} as Record<MarketingBandLabel, string>;

/** The sentence that says what a score's band means. */
export function bandMeaning(score: number): string {
  return BAND_MEANINGS[marketingBand(score)];
}

/** The bands from the top down, each with its range and meaning: the key a homeowner can open. */
export function bandKey(): { range: string; label: MarketingBandLabel; meaning: string; min: number; max: number }[] {
  return MARKETING_BANDS.map((b) => ({
    min: b.min,
    max: b.max,
    range: b.min === 0 ? `below ${MARKETING_BANDS[MARKETING_BANDS.length - 2]!.min}` : `${b.min} to ${b.max}`,
    label: b.label,
    meaning: BAND_MEANINGS[b.label],
  }));
}

/** Client report label: the same five bands as the marketing page. */
export function clientLabel(score: number): MarketingBandLabel {
  return marketingBand(score);
}

/** Bar colours: 80 and above green, 60 to 79 yellow, below 60 red. */
export function barColour(score: number): BarColour {
  if (score >= 80) return "green";
  if (score >= 60) return "yellow";
  return "red";
}

const ADMIN_LABELS: Band[] = [
  { min: 90, label: "Excellent" },
  { min: 80, label: "Very Good" },
  { min: 70, label: "Good" },
  { min: 60, label: "Fair" },
  { min: 50, label: "Poor" },
  { min: 40, label: "Very Poor" },
  { min: -Infinity, label: "Critical" },
];

/** Admin overall score label: each label at or above its threshold. */
export function adminLabel(score: number): string {
  return byMinimum(ADMIN_LABELS, score);
}

/** Category band: up to 40 Needs Attention, up to 60 Fair, up to 80 Good, above 80 Excellent. */
export function categoryBand(score: number): "Needs Attention" | "Fair" | "Good" | "Excellent" {
  if (score <= 40) return "Needs Attention";
  if (score <= 60) return "Fair";
  if (score <= 80) return "Good";
  return "Excellent";
}

const HISTORY_LABELS: Band[] = [
  { min: 90, label: "Excellent" },
  { min: 80, label: "Good" },
  { min: 70, label: "Fair" },
  { min: 60, label: "Needs Attention" },
  { min: 50, label: "Poor" },
  { min: -Infinity, label: "Critical" },
];

/** Property history label. */
export function historyLabel(score: number): string {
  return byMinimum(HISTORY_LABELS, score);
}

/** Inspection list tier from overallScore; null when there is no score (the list shows a dash). */
export function tier(overallScore: number | null | undefined): "Gold" | "Silver" | "Bronze" | null {
  if (overallScore === null || overallScore === undefined) return null;
  if (overallScore >= 85) return "Gold";
  if (overallScore >= 70) return "Silver";
  return "Bronze";
}

/** What a list shows for a missing tier. */
export const NO_TIER = "-";

/** Client priority labels: high Critical, medium Defective, otherwise Monitor. */
export function clientPriorityLabel(priority: string): "Critical" | "Defective" | "Monitor" {
  if (priority === "high") return "Critical";
  if (priority === "medium") return "Defective";
  return "Monitor";
}

/**
 * A recommendation's priority, the one spelling every page, PDF and e-mail shows (docs/decisions.md#41): the
 * client priority label and the urgency text, in title case ("Critical · Urgent"). Never upper-cased in code.
 */
export function priorityText(priority: string): string {
  return `${clientPriorityLabel(priority)} · ${urgencyText(priority === "high" || priority === "medium" ? priority : "low")}`;
}

/** How an item the inspector marked urgent is flagged (the same word as the urgency text). */
export const URGENT_FLAG = "Urgent";

/** Urgency text of a recommendation: high Urgent, medium 30 Days, low 60 Days. */
export function urgencyText(priority: Priority): "Urgent" | "30 Days" | "60 Days" {
  if (priority === "high") return "Urgent";
  if (priority === "medium") return "30 Days";
  return "60 Days";
}

/**
 * Recommendation priority from a 0–100 entry score (docs/decisions.md#2): high at 10 or less or when
 * marked urgent, medium at 25 or less, low otherwise.
 */
export function recommendationPriority(score: number | null, urgent = false): Priority {
  if (urgent || (score !== null && score <= 10)) return "high";
  if (score !== null && score <= 25) return "medium";
  return "low";
}

/** The inspector's score choices (staff-side §5); null is N/A. */
export const SCORE_CHOICES = [
  { value: 10, label: "Excellent" },
  { value: 7, label: "Good" },
  { value: 4, label: "Needs Attention" },
  { value: 1, label: "Immediate Action Required" },
] as const;

/**
 * Summary panel keys of an entry score (staff-side §9): 10 Excellent, 7 Marginal, 4 Defective, 1 Critical. They
 * key the report snapshot's itemCounts; what a reader sees for a score is scoreChoiceLabel (docs/decisions.md#41).
 */
export function summaryLabel(entryScore: number): "Excellent" | "Marginal" | "Defective" | "Critical" | null {
  const labels: Record<number, "Excellent" | "Marginal" | "Defective" | "Critical"> = {
    10: "Excellent",
    7: "Marginal",
    4: "Defective",
    1: "Critical",
  };
  return labels[entryScore] ?? null;
}

/** The word for an entry score everywhere: the label the inspector tapped (staff-side §5); null is N/A. */
export function scoreChoiceLabel(entryScore: number | null): string {
  if (entryScore === null) return "N/A";
  return SCORE_CHOICES.find((c) => c.value === entryScore)?.label ?? String(entryScore);
}

/** Who reads a page or document: a homeowner (client) or a team member (staff). */
export type Reader = "client" | "staff";

/**
 * The overall score's label for a reader (docs/decisions.md#41): a homeowner reads the client labels ("Beyond the
 * Pale") everywhere, on My Home, the client report, the PDFs and e-mails; staff read the admin labels ("Very Poor").
 */
export function overallLabel(score: number, reader: Reader): string {
  return reader === "client" ? clientLabel(score) : adminLabel(score);
}
