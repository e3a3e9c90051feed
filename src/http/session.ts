import type { NextFunction, Request, Response } from "express";
import { type IronSession, type SessionOptions, getIronSession } from "iron-session";
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

export function sessionMiddleware(options: SessionOptions) {
  return async (req: Request, res: Response, next: NextFunction) => {
    req.session = await getIronSession<SessionData>(req, res, options);
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
    await session.save();
    next();
  };
}
