import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Container } from "../container.js";
import type { StaffUser } from "../modules/auth/auth.schemas.js";
import { requireStaffPage } from "./guards.js";

/** The sidebar's sections (staff-side §2, admin shell); `admin` in a page's locals names the active one. */
export const ADMIN_SECTIONS = [
  { key: "dashboard", label: "Dashboard", href: "/admin" },
  { key: "properties", label: "Properties", href: "/admin/properties" },
  { key: "inspections", label: "Inspections", href: "/admin/inspections" },
  { key: "reports", label: "Reports", href: "/admin/reports" },
  { key: "quote-requests", label: "Quote Requests", href: "/admin/quote-requests" },
  { key: "maintenance", label: "Maintenance", href: "/admin/maintenance-schedule" },
] as const;

export type AdminSection = (typeof ADMIN_SECTIONS)[number]["key"];

declare global {
  namespace Express {
    interface Locals {
      staffUser?: StaffUser;
    }
  }
}

/**
 * Every /admin page: a staff session (else /login?next=…), and the signed-in user in
 * `res.locals.staffUser` for the shell. Render with `res.page(view, { title, admin: "<section>" })`:
 * the main layout then wraps the view in the admin shell (views/admin/_shell.ejs).
 */
export function staffPage(container: Container): RequestHandler[] {
  const loadUser = async (req: Request, res: Response, next: NextFunction) => {
    const user = await container.users.findById(req.session.staffUserId!);
    if (!user) {
      req.session.destroy();
      return res.redirect(`/login?next=${encodeURIComponent(req.originalUrl)}`);
    }
    res.locals.staffUser = user;
    next();
  };
  return [requireStaffPage, loadUser];
}
