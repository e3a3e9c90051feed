// The bell's notifications as JSON and its "mark read" (README). The list page is /admin/notifications
// (quotes.routes.ts, with the client requests the bell has always shown). Owner and office (src/http/roles.ts).
import type { RequestHandler, Router } from "express";
import { requireStaffApi } from "../../http/guards.js";
import { body, query } from "../../http/validate.js";
import type { Notifications } from "./notifications.service.js";
import { markReadBody, notificationListQuery } from "./notifications.schemas.js";
import { createRouter } from "../../http/router.js";

export interface NotificationsRoutesDeps {
  notifications: Pick<Notifications, "list" | "markRead">;
  staffPage: RequestHandler[];
}

export function notificationsApi(deps: NotificationsRoutesDeps): Router {
  const router = createRouter();
  router.get("/notifications", requireStaffApi, async (req, res) => {
    const filter = query(req, notificationListQuery);
    res.json(await deps.notifications.list(req.session.staffUserId!, filter));
  });
  router.post("/notifications/read", requireStaffApi, async (req, res) => {
    const { ids, all } = body(req, markReadBody);
    const marked = await deps.notifications.markRead(req.session.staffUserId!, all ? "all" : ids!);
    res.json({ marked });
  });
  return router;
}

export function notificationsPages(deps: NotificationsRoutesDeps): Router {
  const router = createRouter();
  // The list's "Mark read" buttons; back to the list with its filters.
  router.post("/admin/notifications/read", ...deps.staffPage, async (req, res) => {
    const { ids, all, back } = body(req, markReadBody);
    await deps.notifications.markRead(req.session.staffUserId!, all ? "all" : ids!);
    res.redirect(303, `/admin/notifications${back ?? ""}`);
  });
  return router;
}
