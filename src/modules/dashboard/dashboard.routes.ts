import type { Request, RequestHandler, Router } from "express";
import { type DashboardService, type StatsReader, monthWindow } from "./dashboard.service.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf, maySeeRevenue } from "../../http/roles.js";
import { statusBadge, statusLabel } from "./dashboard.schemas.js";
import { createRouter } from "../../http/router.js";

/** What the dashboard routes use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface DashboardRoutesDeps {
  dashboard: DashboardService;
  /** The failed plan payments count for the red banner (the subscriptions module answers it). */
  subscriptions: { pastDueCount(): Promise<number> };
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
  /** BUSINESS_TZ: the month Completed This Month counts. */
  timeZone: string;
}

/** The figures this staff user reads (docs/decisions.md#36): an inspector their own; revenue by the role table. */
const readerOf = (req: Request): StatsReader => ({
  inspectorId: inspectorScopeOf(req),
  revenue: maySeeRevenue(req.staffUser?.role ?? ""),
});

export function dashboardApi(deps: DashboardRoutesDeps): Router {
  const router = createRouter();
  router.get("/dashboard/stats", requireStaffApi, async (req, res) => {
    res.json(await deps.dashboard.stats(new Date(), readerOf(req)));
  });
  return router;
}

export function dashboardPages(deps: DashboardRoutesDeps): Router {
  const router = createRouter();
  router.get(["/admin", "/admin/dashboard"], ...deps.staffPage, async (req, res) => {
    // An inspector sees their own inspections and no revenue or subscription figures; the office no revenue
    // (docs/decisions.md#36).
    const reader = readerOf(req);
    const inspectorId = reader.inspectorId;
    const inspector = inspectorId !== undefined;
    // Failed plan payments show as a red banner above the spec's cards.
    const [stats, recent, pastDue] = await Promise.all([
      deps.dashboard.stats(new Date(), reader),
      deps.dashboard.recentInspections(undefined, inspectorId),
      inspector ? 0 : deps.subscriptions.pastDueCount(),
    ]);
    res.page("dashboard/dashboard", {
      title: "Dashboard",
      admin: "dashboard",
      noindex: true,
      stats,
      // The month Completed This Month counts, for its link (docs/decisions.md#55).
      month: monthWindow(deps.timeZone).month,
      recent,
      pastDue,
      showRevenue: stats.totalRevenue !== null,
      statusBadge,
      statusLabel,
    });
  });
  return router;
}
