import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { StaffUser } from "../modules/auth/auth.schemas.js";
import type { DashboardStats } from "../modules/dashboard/dashboard.schemas.js";
import { requireStaffPage } from "./guards.js";
import { inspectorScopeOf, mayCall, mayOpen } from "./roles.js";

/** The sidebar's sections (staff-side §2, admin shell); `admin` in a page's locals names the active one. */
export const ADMIN_SECTIONS = [
  { key: "dashboard", label: "Dashboard", href: "/admin", icon: "dashboard" },
  { key: "my-day", label: "My Day", href: "/admin/my-day", icon: "clock" },
  { key: "properties", label: "Properties", href: "/admin/properties", icon: "home" },
  { key: "inspections", label: "Inspections", href: "/admin/inspections", icon: "clipboard" },
  { key: "bookings", label: "Bookings", href: "/admin/bookings", icon: "calendar" },
  { key: "reports", label: "Reports", href: "/admin/reports", icon: "report" },
  { key: "quote-requests", label: "Quote Requests", href: "/admin/quote-requests", icon: "quote" },
  // The bell's list has its own entry (docs/decisions.md#55), shown to the roles that get the bell.
  { key: "notifications", label: "Notifications", href: "/admin/notifications", icon: "bell" },
  { key: "maintenance", label: "Maintenance", href: "/admin/maintenance-schedule", icon: "calendar" },
  { key: "subscriptions", label: "Subscriptions", href: "/admin/subscriptions", icon: "repeat" },
  { key: "staff", label: "Staff", href: "/admin/staff", icon: "user" },
  { key: "audit", label: "Audit Trail", href: "/admin/audit", icon: "history" },
] as const;

/** The sections a role may open (docs/decisions.md#36): the sidebar shows no link that would answer 403. */
const sectionsFor = (role: string) => ADMIN_SECTIONS.filter((s) => mayOpen(role, s.href));

declare global {
  namespace Express {
    interface Locals {
      staffUser?: StaffUser;
      /** The sidebar's sections for the signed-in user's role (sectionsFor). */
      adminSections?: readonly (typeof ADMIN_SECTIONS)[number][];
      /** Whether the header shows the bell (its list is the office's). */
      showBell?: boolean;
      /** Whether the signed-in user's role may call this method and path: views hide what it may not. */
      may?: (method: string, path: string) => boolean;
      /** The sidebar's live counts; null when they could not be read (the page still renders). */
      quickStats?: DashboardStats | null;
      /** The header bell's count of new client requests and answers; null when it could not be read. */
      bellCount?: number | null;
    }
  }
}

/**
 * An htmx request whose session is gone: a 401 (never the login page swapped into a fragment). The
 * admin script then shows 'Unauthorized' and goes to /api/login, as an island does (staff-side §4).
 */
const unauthorizedFragment = (res: Response) => void res.status(401).json({ message: "Authentication required" });

/**
 * Before the staff check: a browser that holds only a customer session sees the Access Denied card
 * (staff-side §2) instead of the login redirect; an htmx request without a session gets a 401.
 */
const accessDenied: RequestHandler = (req, res, next) => {
  if (req.session.staffUserId) return next();
  if (req.get("hx-request") === "true") return unauthorizedFragment(res);
  if (req.session.customerIds?.length) {
    return void res.status(403).page("admin/access-denied", { title: "Access Denied", noindex: true });
  }
  next();
};

/** What the admin shell reads for every page; src/app.ts passes the services (src/http sits below the modules). */
export interface StaffShellSources {
  users: { findById(id: number): Promise<StaffUser | null> };
  /** The sidebar's counts: an inspector's own with their id (docs/decisions.md#36). */
  dashboard: { quickStats(inspectorId?: number): Promise<DashboardStats> };
  quotes: { bellCount(staffUserId: number): Promise<number> };
}

/**
 * Every /admin page: a staff session (else /login?next=…), and the signed-in user in
 * `res.locals.staffUser` for the shell. Render with `res.page(view, { title, admin: "<section>" })`:
 * the main layout then wraps the view in the admin shell (views/admin/_shell.ejs).
 */
export function staffPage(sources: StaffShellSources): RequestHandler[] {
  const loadUser = async (req: Request, res: Response, next: NextFunction) => {
    const fragment = req.get("hx-request") === "true";
    const [user, quickStats, bellCount] = await Promise.all([
      // The session check has usually loaded the user already (req.staffUser); else read it here.
      req.staffUser ?? sources.users.findById(req.session.staffUserId!),
      // A fragment has no sidebar: skip the counts.
      fragment
        ? null
        : sources.dashboard.quickStats(inspectorScopeOf(req)).catch((error: unknown) => {
            req.log?.warn({ err: error }, "sidebar quick stats unavailable");
            return null;
          }),
      fragment || !mayOpen(req.staffUser?.role ?? "owner", "/admin/notifications")
        ? null
        : sources.quotes.bellCount(req.session.staffUserId!).catch((error: unknown) => {
            req.log?.warn({ err: error }, "bell count unavailable");
            return null;
          }),
    ]);
    if (!user) {
      req.session.destroy();
      if (fragment) return unauthorizedFragment(res);
      return res.redirect(`/login?next=${encodeURIComponent(req.originalUrl)}`);
    }
    res.locals.staffUser = user;
    res.locals.adminSections = sectionsFor(user.role);
    res.locals.showBell = mayOpen(user.role, "/admin/notifications");
    res.locals.may = (method, path) => mayCall(user.role, method, path);
    res.locals.quickStats = quickStats;
    res.locals.bellCount = bellCount;
    next();
  };
  return [accessDenied, requireStaffPage, loadUser];
}
