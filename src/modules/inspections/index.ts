// The inspections module's interface (docs/architecture.md "Modules and layers"): what other modules, the
// CLI and the seeds may use. The template, the scoring and the score bands are pure functions that the
// reports, the sample report and the client pages share (docs/decisions.md#2); routes and repositories stay inside.
export { type BulkInspection, COMPLETED_MESSAGE, InspectionsService, STATUS_MOVES } from "./inspections.service.js";
export { PhotoTooLargeError, PhotosService, type StoredPhoto } from "./photos.service.js";
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
