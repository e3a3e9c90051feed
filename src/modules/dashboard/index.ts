// The dashboard module's interface (docs/architecture.md "Modules and layers"): what the CLI and the seeds
// may use. Its routes and repository stay inside; src/container.ts and src/app.ts build them.
export { type DashboardSettings, DashboardService, monthWindow } from "./dashboard.service.js";
