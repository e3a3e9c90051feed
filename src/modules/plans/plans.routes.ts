import { Router } from "express";
import type { Container } from "../../container.js";

export function plansApi(container: Container): Router {
  const router = Router();
  router.get("/plans", async (_req, res) => {
    res.json(await container.plans.list());
  });
  return router;
}
