import type { NextFunction, Request, Response } from "express";
import { type IronSession, type SessionOptions, getIronSession } from "iron-session";

/** What the sealed cookie holds. Customers have no login: the cookie names their own records. */
export interface SessionData {
  staffUserId?: number;
  customerIds?: number[];
}

export type Session = IronSession<SessionData>;

declare global {
  namespace Express {
    interface Request {
      session: Session;
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
