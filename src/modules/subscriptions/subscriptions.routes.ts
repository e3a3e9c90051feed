import type { Request, Response, Router } from "express";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { ConflictError } from "../../http/errors.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi, staffActor } from "../../http/guards.js";
import { body, params, parse, query } from "../../http/validate.js";
import { ChangePendingError } from "./change-runner.js";
import type { PlanDeliveryListener } from "./plan-delivery-listener.js";
import type { SubscriptionExport } from "./subscription-export.js";
import {
  cancelSchema,
  changePlanSchema,
  idempotencyKeyHeader,
  serviceRequestSchema,
  subscriptionListQuerySchema,
} from "./subscriptions.schemas.js";
import type { SubscriptionsService } from "./subscriptions.service.js";
import { createRouter } from "../../http/router.js";
import { totalCountValue } from "../../http/capped-count.js";

export interface SubscriptionsRoutesDeps {
  subscriptions: SubscriptionsService;
  /** Maintenance's PlanDeliveries: staff ask for an on-request plan service. */
  planDeliveries: Pick<PlanDeliveryListener, "requestService">;
  /** `?format=csv`: every row of the filter, streamed (subscription-export.ts). */
  exports: Pick<SubscriptionExport, "batches">;
}

export { staffActor };

/** The client's Idempotency-Key, when it sent one (docs/decisions.md#35). */
const requestKey = (req: Request) =>
  parse(idempotencyKeyHeader, { "idempotency-key": req.get("Idempotency-Key") })["idempotency-key"] ?? null;

/**
 * A change refused (409) answers with the subscription as it is now, beside the reason (docs/decisions.md#35); one
 * sent and not answered yet (202, pending) too, with what happens next (change-runner.ts).
 */
async function refusedWithState(
  res: Response,
  subscriptions: SubscriptionsService,
  id: number,
  work: () => Promise<unknown>,
): Promise<void> {
  try {
    res.json(await work());
  } catch (error) {
    if (error instanceof ChangePendingError)
      return void res
        .status(202)
        .json({ status: "pending", message: error.message, subscription: await subscriptions.get(id) });
    if (!(error instanceof ConflictError)) throw error;
    res.status(409).json({ message: error.message, subscription: await subscriptions.get(id) });
  }
}

/**
 * The staff JSON calls. The rules (minimum term, upgrade now / downgrade at period end, the
 * provider call before the local change) are SubscriptionsService's; these only validate and answer.
 */
export function subscriptionsApi({ subscriptions, planDeliveries, exports }: SubscriptionsRoutesDeps): Router {
  const router = createRouter();

  router.get("/subscriptions", requireStaffApi, async (req, res) => {
    const { limit, offset, q, status, plan } = query(req, subscriptionListQuerySchema);
    if (wantsCsv(req)) return sendCsv(res, { name: "subscriptions", batches: exports.batches({ q, status, plan }) });
    const { rows, ...count } = await subscriptions.list({ limit, offset, q, status, plan });
    res.setHeader("X-Total-Count", totalCountValue(count));
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
    const key = requestKey(req);
    await refusedWithState(res, subscriptions, id, () =>
      subscriptions.cancel(id, { when, reason: reason ?? null, actor: staffActor(req), requestKey: key }),
    );
  });

  router.post("/subscriptions/:id/resume", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const key = requestKey(req);
    await refusedWithState(res, subscriptions, id, () =>
      subscriptions.resume(id, { actor: staffActor(req), requestKey: key }),
    );
  });

  router.post("/subscriptions/:id/change-plan", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { planType } = body(req, changePlanSchema);
    const key = requestKey(req);
    await refusedWithState(res, subscriptions, id, () =>
      subscriptions.changePlan(id, { planType, actor: staffActor(req), requestKey: key }),
    );
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
