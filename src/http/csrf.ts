import type { Request, RequestHandler } from "express";
import { ForbiddenError } from "./errors.js";
import { isLoopbackHost } from "./origin.js";
import { SESSION_COOKIE } from "./session.js";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
export const CROSS_SITE_MESSAGE = "Cross-site request refused";

// The staff session (haven_session) and the homeowner's (haven_home, My Home) both authenticate a request.
const hasSessionCookie = (req: Request) =>
  [SESSION_COOKIE, "haven_home"].some((name) => req.headers.cookie?.includes(`${name}=`) ?? false);

/**
 * Unsafe requests must come from this site. Cookies are SameSite=Lax; on top of that:
 * - an Origin, when given, must be PUBLIC_URL's origin exactly, scheme and host. Outside production, a browser
 *   on a loopback name (localhost, 127.0.0.1, [::1], any port) may also post to the address it is on; never
 *   another name, since a request's Host is the client's choice (DNS rebinding);
 * - without one, `Sec-Fetch-Site: same-origin` (every current browser sends it) is enough;
 * - a missing Origin or `Origin: null` is refused when the request carries a session cookie, since only a
 *   browser (sandboxed frame, privacy redirect) sends those, and its cookie would authenticate the call.
 * A request without a cookie authenticates nothing (curl, server-to-server) and may omit Origin.
 * The Stripe webhook has no cookie and proves itself by signature instead.
 */
export function csrfGuard(options: {
  publicOrigin: string;
  exempt?: string[];
  allowLoopback?: boolean;
}): RequestHandler {
  const exempt = options.exempt ?? [];
  const publicOrigin = new URL(options.publicOrigin).origin;
  const sameLoopbackOrigin = (req: Request, given: string) => {
    const host = req.get("host") ?? "";
    if (!options.allowLoopback || !isLoopbackHost(host)) return false;
    try {
      return new URL(`${req.protocol}://${host}`).origin === given;
    } catch {
      return false;
    }
  };
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
      return given && (given === publicOrigin || sameLoopbackOrigin(req, given))
        ? next()
        : next(new ForbiddenError(CROSS_SITE_MESSAGE));
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
