// The reports module's interface (docs/architecture.md "Modules and layers"): what other modules, the CLI
// and the seeds may use. Routes and the repository stay inside; src/container.ts builds them.
export {
  ALREADY_REPORTED_MESSAGE,
  NOT_COMPLETED_MESSAGE,
  NO_INSPECTION_MESSAGE,
  NO_INSPECTION_TITLE,
  type ReportsDeps,
  ReportsService,
  taskCategoryOf,
} from "./reports.service.js";
/** A property's score history, for My Home's records page. */
export {
  type CategoryChange,
  type HistoryProperty,
  type ItemChange,
  type PropertyHistory,
  buildHistory,
  scoreChartSvg,
  trendText,
} from "./history.js";
/** The lazily loaded PDF libraries, which the quote PDF shares. */
export { loadPdfLibraries } from "./pdf-assets.js";
/** The report's words in a language: the PDFs' and the client report's point names and descriptions. */
export { pdfWords } from "./pdf-words.js";
