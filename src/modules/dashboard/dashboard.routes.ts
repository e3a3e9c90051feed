import { type RequestHandler, Router } from "express";
import type { DashboardService } from "./dashboard.service.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { statusBadge, statusLabel } from "./dashboard.schemas.js";

/** What the dashboard routes use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface DashboardRoutesDeps {
  dashboard: DashboardService;
  /** The failed plan payments count for the red banner (the subscriptions module answers it). */
  subscriptions: { pastDueCount(): Promise<number> };
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
}

export function dashboardApi(deps: DashboardRoutesDeps): Router {
  const router = Router();
  router.get("/dashboard/stats", requireStaffApi, async (_req, res) => {
    res.json(await deps.dashboard.stats());
  });
  return router;
}

export function dashboardPages(deps: DashboardRoutesDeps): Router {
  const router = Router();
  router.get(["/admin", "/admin/dashboard"], ...deps.staffPage, async (req, res) => {
    // An inspector sees their own inspections and no revenue or subscription figures (docs/decisions.md#36).
    const inspectorId = inspectorScopeOf(req);
    const inspector = inspectorId !== undefined;
    // Failed plan payments show as a red banner above the spec's cards.
    const [stats, recent, pastDue] = await Promise.all([
      deps.dashboard.stats(undefined, inspectorId),
      deps.dashboard.recentInspections(undefined, inspectorId),
      inspector ? 0 : deps.subscriptions.pastDueCount(),
    ]);
    res.page("dashboard/dashboard", {
      title: "Dashboard",
      admin: "dashboard",
      noindex: true,
      stats,
      recent,
      pastDue,
      showRevenue: !inspector,
      statusBadge,
      statusLabel,
    });
  });
  return router;
}
