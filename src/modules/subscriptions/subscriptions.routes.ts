import { type Request, Router } from "express";
import { idParams } from "../../http/fields.js";
import { requireStaffApi } from "../../http/guards.js";
import { body, params, query } from "../../http/validate.js";
import type { PlanDeliveryListener } from "./plan-delivery-listener.js";
import {
  cancelSchema,
  changePlanSchema,
  serviceRequestSchema,
  subscriptionListQuerySchema,
} from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";

export interface SubscriptionsRoutesDeps {
  subscriptions: SubscriptionsService;
  /** Maintenance's PlanDeliveries: staff ask for an on-request plan service. */
  planDeliveries: Pick<PlanDeliveryListener, "requestService">;
}

/** Who did it, as the events log names staff (`staff:<id>`). */
export const staffActor = (req: Request) => `staff:${req.session.staffUserId}`;

/**
 * The staff JSON calls. The rules (minimum term, upgrade now / downgrade at period end, the
 * provider call before the local change) are SubscriptionsService's; these only validate and answer.
 */
export function subscriptionsApi({ subscriptions, planDeliveries }: SubscriptionsRoutesDeps): Router {
  const router = Router();

  router.get("/subscriptions", requireStaffApi, async (req, res) => {
    const { limit, offset, q, status, plan } = query(req, subscriptionListQuerySchema);
    const { rows, total } = await subscriptions.list({ limit, offset, q, status, plan });
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  // Before /subscriptions/:id, which would refuse "metrics" as an id.
  router.get("/subscriptions/metrics", requireStaffApi, async (_req, res) => {
    res.json(await subscriptions.metrics());
  });

  router.get("/subscriptions/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    // {subscription, invoices, events, services}: the shape `haven subscriptions show --json` prints too.
    res.json(await subscriptions.detail(id));
  });

  router.post("/subscriptions/:id/cancel", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { when, reason } = body(req, cancelSchema);
    res.json(await subscriptions.cancel(id, { when, reason: reason ?? null, actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/resume", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.json(await subscriptions.resume(id, { actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/change-plan", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { planType } = body(req, changePlanSchema);
    res.json(await subscriptions.changePlan(id, { planType, actor: staffActor(req) }));
  });

  router.post("/subscriptions/:id/service-requests", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const input = body(req, serviceRequestSchema);
    // 404 for an unknown subscription, 400 for a service the plan lacks or delivers on a schedule, 409 once it has ended.
    const task = await planDeliveries.requestService({
      subscriptionId: id,
      service: input.service,
      date: input.date,
      notes: input.notes ?? null,
      source: "staff",
    });
    res.status(201).json(task);
  });

  return router;
}
