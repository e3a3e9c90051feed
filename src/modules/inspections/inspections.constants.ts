// The template, the weighted scoring and every score label and band: pure, zod-free and server-free, so the
// report snapshot (reports/report-data.ts) that islands import may use them without pulling in a service.
// index.ts re-exports all of it for the server side (docs/architecture.md "Modules and layers").
export * from "./template.js";
export {
  type BarColour,
  MARKETING_BANDS,
  type MarketingBandLabel,
  NO_TIER,
  PRODUCT_NAME,
  type Priority,
  adminLabel,
  barColour,
  categoryBand,
  clientLabel,
  clientPriorityLabel,
  historyLabel,
  marketingBand,
  recommendationPriority,
  summaryLabel,
  tier,
  urgencyText,
} from "./bands.js";
/** The four scored choices (N/A left out) with their labels, as the PDF legend lists them. */
export { SCORE_CHOICES as SCORED_CHOICES } from "./bands.js";
export {
  type CategoryResult,
  type Entry,
  type Recommendation,
  type ScoredReport,
  type Weighted,
  categoryScore,
  overallScore,
  recommendations,
  scoreCategories,
  scoreInspection,
  toHundred,
  weightedAverage,
} from "./scoring.js";
