import type { NextFunction, Request, Response } from "express";
import { type IronSession, type SessionOptions, getIronSession, unsealData } from "iron-session";
import type { StaffUser } from "../modules/auth/auth.schemas.js";

/** What the sealed cookie holds. Customers have no login: the cookie names their own records. */
export interface SessionData {
  /** Set only while `staffSessionToken` names a live session row (checked on every request). */
  staffUserId?: number;
  /** The random id of the staff session; Postgres holds its hash, so logout and disabling revoke it. */
  staffSessionToken?: string;
  customerIds?: number[];
}

export type Session = IronSession<SessionData>;

declare global {
  namespace Express {
    interface Request {
      session: Session;
      /** The signed-in staff user, when the session is live. */
      staffUser?: StaffUser;
    }
  }
}

export const SESSION_COOKIE = "haven_session";

export function sessionOptions(secret: string, secure: boolean): SessionOptions {
  return {
    password: secret,
    cookieName: SESSION_COOKIE,
    ttl: 60 * 60 * 24 * 30,
    cookieOptions: { httpOnly: true, sameSite: "lax", secure, path: "/" },
  };
}

/** The value of the session cookie in a Cookie header (the first one, as iron-session reads it), or undefined. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value) || undefined;
    } catch {
      return value;
    }
  }
  return undefined;
}

/** iron-session reads no cookie from this: the middleware opens the cookie itself and fills the session in. */
const WITHOUT_COOKIES = { headers: {} } as unknown as Request;

type Opened = { data: SessionData; secretIndex: number } | { data: null; reason: string };

/**
 * Opens a sealed cookie with the current secret, then each previous one. iron-session keys its password map by
 * the id written in the seal, so each secret is tried under that id: rotation then works whatever ids or
 * order the secrets had. A seal that opens to nothing (a wrong secret, an expired or empty seal) is no session.
 */
async function openSeal(sealed: string, secrets: readonly string[], ttl: number | undefined): Promise<Opened> {
  const id = sealed.split("*")[1] || "default";
  for (const [secretIndex, secret] of secrets.entries()) {
    try {
      const data = await unsealData<SessionData>(sealed, { password: { [id]: secret }, ttl });
      if (Object.keys(data).length > 0) return { data, secretIndex };
    } catch (error) {
      // A malformed seal ("Wrong mac prefix", bad base64, bad JSON) fails the same way with every secret.
      return { data: null, reason: error instanceof Error ? error.message : String(error) };
    }
  }
  return { data: null, reason: "not sealed by SESSION_SECRET or SESSION_SECRETS_PREVIOUS, or expired" };
}

/**
 * The session of every request. `options.password` (SESSION_SECRET) seals; `previousSecrets`
 * (SESSION_SECRETS_PREVIOUS) still open older cookies, which are sealed again with the current secret.
 * A cookie that cannot be opened is no session: it is cleared, with one warning in the log (no stack).
 */
export function sessionMiddleware(options: SessionOptions, previousSecrets: readonly string[] = []) {
  const secrets = [options.password as string, ...previousSecrets];
  return async (req: Request, res: Response, next: NextFunction) => {
    req.session = await getIronSession<SessionData>(WITHOUT_COOKIES, res, options);
    const sealed = sessionCookieOf(req.headers.cookie);
    if (!sealed) return next();
    const opened = await openSeal(sealed, secrets, options.ttl);
    if (opened.data) {
      Object.assign(req.session, opened.data);
      if (opened.secretIndex > 0) await req.session.save();
    } else {
      req.log?.warn({ reason: opened.reason }, "session cookie could not be unsealed; cleared");
      req.session.destroy();
    }
    next();
  };
}

/**
 * A sealed cookie alone is not trusted for staff: its session token must name a live session row whose
 * user is still active. Otherwise the staff part of the session is dropped (a customer's part stays),
 * so a cookie copied before logout, or kept by a deleted or disabled user, reads nothing.
 */
export function staffSessionCheck(resolve: (token: string) => Promise<StaffUser | null>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const { session } = req;
    if (!session.staffUserId && !session.staffSessionToken) return next();
    const user = session.staffSessionToken ? await resolve(session.staffSessionToken) : null;
    if (user && user.id === session.staffUserId) {
      req.staffUser = user;
      return next();
    }
    delete session.staffUserId;
    delete session.staffSessionToken;
    // An empty session is no cookie at all (a seal that opens to nothing reads as a bad one).
    if (Object.keys(session).length === 0) session.destroy();
    else await session.save();
    next();
  };
}
