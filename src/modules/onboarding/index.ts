// The onboarding module's interface (docs/architecture.md "Modules and layers"): what other modules, the
// CLI and the seeds may use. Its routes stay inside; src/app.ts mounts them.
export { type OnboardingDeps, OnboardingService, SAVED_MESSAGE, SCHEDULED_MESSAGE } from "./onboarding.service.js";
