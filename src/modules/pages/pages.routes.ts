import { Router } from "express";
import type { Container } from "../../container.js";

export function pagesRouter(_container: Container): Router {
  const router = Router();
  router.get("/", (_req, res) => {
    res.page("pages/home", {
      title: "Haven — Your home's health, handled",
      description: "A 114-point home inspection, a Property Health Score and concierge care for your home.",
      footer: true,
    });
  });
  return router;
}
