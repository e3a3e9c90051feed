import type { Request, RequestHandler } from "express";
import { ForbiddenError } from "./errors.js";
import { SESSION_COOKIE } from "./session.js";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_SITE_MESSAGE = "Cross-site request refused";

const hasSessionCookie = (req: Request) => req.headers.cookie?.includes(`${SESSION_COOKIE}=`) ?? false;

/**
 * Unsafe requests must come from this site. Cookies are SameSite=Lax; on top of that:
 * - an Origin, when given, must match this site exactly, scheme and host (PUBLIC_URL's, or the request's own);
 * - without one, `Sec-Fetch-Site: same-origin` (every current browser sends it) is enough;
 * - a missing Origin or `Origin: null` is refused when the request carries a session cookie, since only a
 *   browser (sandboxed frame, privacy redirect) sends those, and its cookie would authenticate the call.
 * A request without a cookie authenticates nothing (curl, server-to-server) and may omit Origin.
 * The Stripe webhook has no cookie and proves itself by signature instead.
 */
export function csrfGuard(options: { exempt?: string[]; publicOrigin?: string } = {}): RequestHandler {
  const exempt = options.exempt ?? [];
  const publicOrigin = options.publicOrigin ? new URL(options.publicOrigin).origin : null;
  return (req, _res, next) => {
    if (SAFE.has(req.method) || exempt.includes(req.path)) return next();
    const origin = req.get("origin");
    if (origin && origin !== "null") {
      let given: string | null = null;
      try {
        given = new URL(origin).origin;
      } catch {
        given = null;
      }
      const own = `${req.protocol}://${req.get("host")}`;
      return given && (given === own || given === publicOrigin) ? next() : next(new ForbiddenError(CROSS_SITE_MESSAGE));
    }
    // 'null' comes from sandboxed frames and privacy redirects: never trusted with a session.
    if (origin === "null" && hasSessionCookie(req)) return next(new ForbiddenError(CROSS_SITE_MESSAGE));
    const site = req.get("sec-fetch-site");
    if (site === "same-origin") return next();
    if (site && site !== "none") return next(new ForbiddenError(CROSS_SITE_MESSAGE));
    // No Origin, or 'null': fine for a request that authenticates nothing, refused with a session cookie.
    if (hasSessionCookie(req)) return next(new ForbiddenError(CROSS_SITE_MESSAGE));
    next();
  };
}
