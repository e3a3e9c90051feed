// The template, the weighted scoring and every score label and band: pure, zod-free and server-free, so the
// report snapshot (reports/report-data.ts) that islands import may use them without pulling in a service.
// index.ts re-exports all of it for the server side (docs/architecture.md "Modules and layers").
export * from "./template.js";
export * from "./bands.js";
// Both name a SCORE_CHOICES: the template's (every choice, N/A too) keeps the name; the bands' four scored choices,
// as the PDF legend lists them, are SCORED_CHOICES.
export { SCORE_CHOICES } from "./template.js";
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
