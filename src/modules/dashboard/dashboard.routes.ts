import { Router } from "express";
import type { Container } from "../../container.js";
import { staffPage } from "../../http/admin.js";
import { requireStaffApi } from "../../http/guards.js";
import { statusBadge, statusLabel } from "./dashboard.schemas.js";

export function dashboardApi(container: Container): Router {
  const router = Router();
  router.get("/dashboard/stats", requireStaffApi, async (_req, res) => {
    res.json(await container.dashboard.stats());
  });
  return router;
}

export function dashboardPages(container: Container): Router {
  const router = Router();
  router.get(["/admin", "/admin/dashboard"], ...staffPage(container), async (_req, res) => {
    // Failed plan payments show as a red banner above the spec's cards (issue 19, item 6).
    const [stats, recent, pastDue] = await Promise.all([container.dashboard.stats(), container.dashboard.recentInspections(), container.subscriptions.pastDueCount()]);
    res.page("dashboard/dashboard", { title: "Dashboard", admin: "dashboard", noindex: true, stats, recent, pastDue, statusBadge, statusLabel });
  });
  return router;
}
