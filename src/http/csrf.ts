import type { RequestHandler } from "express";
import { ForbiddenError } from "./errors.js";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cookies are SameSite=Lax; on top of that an unsafe request must not come from another site.
 * Browsers send Origin (and Sec-Fetch-Site) on every unsafe request, so a cross-site one is refused.
 * The Stripe webhook has no cookie and proves itself by signature instead.
 */
export function csrfGuard(exempt: string[] = []): RequestHandler {
  return (req, _res, next) => {
    if (SAFE.has(req.method) || exempt.includes(req.path)) return next();
    const site = req.get("sec-fetch-site");
    if (site && site !== "same-origin" && site !== "none") return next(new ForbiddenError("Cross-site request refused"));
    const origin = req.get("origin");
    if (origin && origin !== "null") {
      const host = req.get("host");
      let originHost: string | null = null;
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = null;
      }
      if (originHost !== host) return next(new ForbiddenError("Cross-site request refused"));
    }
    next();
  };
}
