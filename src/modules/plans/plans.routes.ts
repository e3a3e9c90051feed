import type { Router } from "express";
import type { PlansService } from "./plans.service.js";
import { createRouter } from "../../http/router.js";

export interface PlansRoutesDeps {
  plans: Pick<PlansService, "list">;
}

export function plansApi({ plans }: PlansRoutesDeps): Router {
  const router = createRouter();
  router.get("/plans", async (_req, res) => {
    res.json(await plans.list());
  });
  return router;
}
