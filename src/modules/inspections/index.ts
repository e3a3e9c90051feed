// The inspections module's interface (docs/architecture.md "Modules and layers"): what other modules, the
// CLI and the seeds may use. The template, the scoring and the score bands are pure functions that the
// reports, the sample report and the client pages share (docs/decisions.md#2); routes and repositories stay inside.
export {
  type BulkInspection,
  COMPLETED_MESSAGE,
  type InspectionsDeps,
  InspectionsService,
  STATUS_MOVES,
} from "./inspections.service.js";
export { type PhotosDeps, PhotoTooLargeError, PhotosService, type StoredPhoto } from "./photos.service.js";
// The template, scoring and bands (docs/decisions.md#2), island-safe in inspections.constants.ts.
export * from "./inspections.constants.js";
