import type { Request, RequestHandler } from "express";
import { UnauthorizedError } from "./errors.js";

/** Staff pages redirect to /login?next=…; staff APIs answer 401. */
export const requireStaffPage: RequestHandler = (req, res, next) => {
  if (req.session.staffUserId) return next();
  res.redirect(`/login?next=${encodeURIComponent(req.originalUrl)}`);
};

export const requireStaffApi: RequestHandler = (req, _res, next) => {
  if (req.session.staffUserId) return next();
  next(new UnauthorizedError());
};

/** Who did it, as the events log names staff (`staff:<id>`). */
export const staffActor = (req: Request) => `staff:${req.session.staffUserId}`;
