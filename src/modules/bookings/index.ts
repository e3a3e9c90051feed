// The bookings module's interface (docs/architecture.md "Modules and layers"): what other modules, the
// CLI and the seeds may use. Routes and the repository stay inside; src/container.ts builds them.
export {
  type BookingSettings,
  type BookingsDeps,
  BookingsService,
  SLOT_TAKEN_MESSAGE,
  SlotTakenError,
  splitAddress,
} from "./bookings.service.js";
/** The example calendar of the booking calls' OpenAPI documents, which onboarding's documents reuse. */
export { PLACEHOLDER_CALENDAR } from "./bookings.openapi.js";
