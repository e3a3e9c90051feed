// The homeowner's session (docs/decisions.md#28): a cookie of its own, `haven_home`, holding a random id whose
// SHA-256 names a row of home_sessions. It never reads or grants the staff session (`haven_session`), nor the reverse.
import type { CookieOptions, Request, RequestHandler, Response } from "express";
import { UnauthorizedError } from "../../http/errors.js";
import { HOME_SESSION_TTL_MS, type HomeAuthService } from "./home-auth.service.js";

export const HOME_COOKIE = "haven_home";

export interface HomeViewer {
  /** Lower case. */
  email: string;
  sessionId: number;
}

/** The value of the `haven_home` cookie, or undefined (there is no cookie parser in the stack). */
export function homeCookieOf(req: Request): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== HOME_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    if (/^[A-Za-z0-9_-]{43}$/.test(value)) return value;
  }
  return undefined;
}

const cookieOptions = (secure: boolean): CookieOptions => ({ httpOnly: true, sameSite: "lax", secure, path: "/" });

export function setHomeCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(HOME_COOKIE, token, { ...cookieOptions(secure), maxAge: HOME_SESSION_TTL_MS });
}

export function clearHomeCookie(res: Response, secure: boolean): void {
  res.clearCookie(HOME_COOKIE, cookieOptions(secure));
}

/** App-level: sets res.locals.home (HomeViewer | null) from the cookie, renewing a session in use. */
export function homeSession(deps: {
  homeAuth: Pick<HomeAuthService, "resolveSession">;
  settings: { secure: boolean };
}): RequestHandler {
  const { homeAuth } = deps;
  const secure = deps.settings.secure;
  return async (req, res, next) => {
    res.locals.home = null;
    const token = homeCookieOf(req);
    if (!token) {
      // A malformed cookie reads as none, and is dropped.
      if (req.headers.cookie?.includes(`${HOME_COOKIE}=`)) clearHomeCookie(res, secure);
      return next();
    }
    const session = await homeAuth.resolveSession(token);
    if (!session) {
      clearHomeCookie(res, secure);
      return next();
    }
    res.locals.home = { email: session.email, sessionId: session.sessionId } satisfies HomeViewer;
    if (session.renewed) setHomeCookie(res, token, secure);
    next();
  };
}

/** Portal pages: no session → 303 to the sign-in page, coming back here afterwards. */
export const requireHomePage: RequestHandler = (req, res, next) => {
  if (res.locals.home) return next();
  res.redirect(303, `/my-home/sign-in?next=${encodeURIComponent(req.originalUrl)}`);
};

/** Portal APIs: no session → 401 JSON. */
export const requireHomeApi: RequestHandler = (_req, res, next) => {
  if (res.locals.home) return next();
  next(new UnauthorizedError("Sign in to My Home first"));
};

/** The signed-in homeowner, after requireHomePage or requireHomeApi. */
export const homeViewer = (res: Response): HomeViewer => {
  const viewer = res.locals.home as HomeViewer | null | undefined;
  if (!viewer) throw new UnauthorizedError("Sign in to My Home first");
  return viewer;
};
