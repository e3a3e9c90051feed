import { Router } from "express";
import type { PlansService } from "./plans.service.js";

export interface PlansRoutesDeps {
  plans: Pick<PlansService, "list">;
}

export function plansApi({ plans }: PlansRoutesDeps): Router {
  const router = Router();
  router.get("/plans", async (_req, res) => {
    res.json(await plans.list());
  });
  return router;
}
