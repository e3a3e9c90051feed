import { type Request, Router } from "express";
import type { Container } from "../../container.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params, query } from "../../http/validate.js";
import { cancelSchema, changePlanSchema, serviceRequestSchema, subscriptionListQuerySchema } from "./subscriptions.schemas.js";

/** Who did it, as the events log names staff (issue 19: `staff:<id>`). */
export const staffActor = (req: Request) => `staff:${req.session.staffUserId}`;

/**
 * Staff JSON calls of issue 19, item 10. The rules (minimum term, upgrade now / downgrade at period end, the
 * provider call before the local change) are container.subscriptions'; these only validate and answer.
 */
export function subscriptionsApi(container: Container): Router {
  const router = Router();

  router.get("/subscriptions", requireStaffApi, async (req, res) => {
    const { limit, offset, q, status, plan } = query(req, subscriptionListQuerySchema);
    const { rows, total } = await container.subscriptions.list({ limit, offset, q, status, plan });
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  // Before /subscriptions/:id, which would refuse "metrics" as an id.
  router.get("/subscriptions/metrics", requireStaffApi, async (_req, res) => {
    res.json(await container.subscriptions.metrics());
  });

  router.get("/subscriptions/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    // {subscription, invoices, events, services}: the shape `haven subscriptions show --json` prints too.
    res.json(await container.subscriptions.detail(id));
  });

  router.post("/subscriptions/:id/cancel", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { when, reason } = body(req, cancelSchema);
    res.json(await container.subscriptions.cancel(id, { when, reason: reason ?? null, actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/resume", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.json(await container.subscriptions.resume(id, { actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/change-plan", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { planType } = body(req, changePlanSchema);
    res.json(await container.subscriptions.changePlan(id, { planType, actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/service-requests", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const input = body(req, serviceRequestSchema);
    // 404 for an unknown subscription, 400 for a service the plan lacks or delivers on a schedule, 409 once it has ended.
    const task = await container.planServices.requestService({ subscriptionId: id, service: input.service, date: input.date, notes: input.notes ?? null, source: "staff" });
    res.status(201).json(task);
  });

  return router;
}
