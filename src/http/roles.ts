import type { NextFunction, Request, RequestHandler, Response } from "express";
import { ForbiddenError } from "./errors.js";
import { isApiPath } from "./errors.js";
import { wantsCsv } from "./csv.js";
import { MAX_ID, parseId } from "./fields.js";
import {
  ANYONE,
  type OwnedKind,
  ROLE_RULES,
  type RoleRule,
  type StaffRole,
  prefixRuleOf,
  ruleOf,
} from "./role-table.js";

export { ANYONE, ROLE_RULES, ruleOf } from "./role-table.js";
export type { OwnedKind, StaffRole } from "./role-table.js";

interface CompiledRule {
  method: string;
  pattern: RegExp;
  keys: string[];
  rule: RoleRule;
}

const literal = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

/**
 * "/api/reports/:id" → a regular expression with one group per parameter (Express 5 paths of this app), by exact
 * case and without a trailing slash, as the routers route (src/http/router.ts).
 */
function compile(path: string): { pattern: RegExp; keys: string[] } {
  const keys: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return literal(segment);
      keys.push(segment.slice(1));
      return "([^/]+)";
    })
    .join("/");
  return { pattern: new RegExp(`^${source}$`), keys };
}

// Paths with fewer parameters first, as Express's order has them: "/api/subscriptions/metrics" before ":id".
const COMPILED: CompiledRule[] = Object.entries(ROLE_RULES)
  .map(([key, rule]) => {
    const [method, path] = key.split(" ") as [string, string];
    return { method, rule, ...compile(path) };
  })
  .sort((a, b) => a.keys.length - b.keys.length);

/** The rule of a request (its method and path), with the path's parameters. */
function ruleOfRequest(method: string, path: string): { rule: RoleRule; params: Record<string, string> } | undefined {
  // HEAD is answered by the GET route.
  const m = method === "HEAD" ? "GET" : method;
  // Exact paths before patterns: "/api/inspection-bookings/availability" is not ":id".
  const exact = ROLE_RULES[`${m} ${path}`];
  if (exact) return { rule: exact, params: {} };
  for (const c of COMPILED) {
    if (c.method !== m) continue;
    const found = c.pattern.exec(path);
    if (found) return { rule: c.rule, params: Object.fromEntries(c.keys.map((k, i) => [k, decoded(found[i + 1])])) };
  }
  const rule = prefixRuleOf(path);
  return rule && { rule, params: {} };
}

/** A parameter as the router hands it to the route: decoded once (the URL's escapes are valid: malformedUrlGuard). */
const decoded = (value: string | undefined) => decodeURIComponent(value ?? "");

/** Whether an inspector owns the inspection, report or task of this id (the container answers from Postgres). */
type OwnershipCheck = (kind: OwnedKind, id: number, staffUserId: number) => Promise<boolean>;

declare global {
  namespace Express {
    interface Request {
      /** Set for an inspector: lists, exports and the calendar show only this staff user's work. */
      inspectorScope?: number;
    }
  }
}

/** The staff user whose work an inspector's lists are limited to; undefined for the office and the owner. */
export const inspectorScopeOf = (req: Request): number | undefined => req.inspectorScope;

/** Whether this role may call this method and path (ownership aside): pages hide the links and buttons it may not. */
export function mayCall(role: string, method: string, path: string): boolean {
  const found = ruleOfRequest(method, path);
  if (!found) return role === "owner";
  return found.rule === ANYONE || found.rule.roles.includes(role as StaffRole);
}

/** Whether this role may open a page at this path: the sidebar and header hide the others. */
export const mayOpen = (role: string, path: string): boolean => mayCall(role, "GET", path);

/**
 * Whether this role sees revenue figures (Total Revenue, MRR) in any page or call: the roles of the revenue
 * call's rule, owner(REVENUE) (docs/decisions.md#36).
 */
export const maySeeRevenue = (role: string): boolean => mayCall(role, "GET", "/api/subscriptions/metrics");

const roleRefusal = (role: string, what: string) => `Your role (${role}) cannot ${what}.`;

/**
 * After the staff-session check: a staff request is looked up in ROLE_RULES and refused with a 403 (JSON for
 * /api, the error page otherwise) when the user's role is not listed, when an inspector asks for a CSV export,
 * or names someone else's inspection, report or task. A staff request for a path with no rule is refused for
 * every role but the owner (a new route stays closed until it has one).
 */
export function enforceRoles(owns: OwnershipCheck): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const user = req.staffUser;
    if (!user) return next();
    const role = user.role as StaffRole;
    if (role === "inspector") req.inspectorScope = user.id;
    const found = ruleOfRequest(req.method, req.path);
    if (!found) {
      if (role === "owner") return next();
      return refuse(req, res, next, roleRefusal(role, "open this page"));
    }
    const { rule, params } = found;
    if (rule === ANYONE) return next();
    if (!rule.roles.includes(role)) return refuse(req, res, next, roleRefusal(role, rule.what));
    if (role !== "inspector") return next();
    if (req.method === "GET" && wantsCsvSafe(req)) return refuse(req, res, next, roleRefusal(role, "export to CSV"));
    if (rule.own) {
      const raw = rule.ownFrom === "body" ? inspectionIdIn(req.body) : params.id;
      // An id that names no record, or names it in another spelling, is refused here rather than left to the
      // route: the check and the route must read the same id (docs/decisions.md#45).
      const id =
        typeof raw === "number" && Number.isSafeInteger(raw) ? (raw > 0 && raw <= MAX_ID ? raw : null) : parseId(raw);
      if (id === null) {
        if (rule.ownFrom === "body" && raw === undefined) return next();
        return refuse(req, res, next, roleRefusal(role, rule.what));
      }
      if (!(await owns(rule.own, id, user.id))) return refuse(req, res, next, roleRefusal(role, rule.what));
    }
    next();
  };
}

/** The inspection the form's entries name: one entry or the first of a list (the route refuses mixed ones). */
const inspectionIdIn = (body: unknown): unknown => {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first && typeof first === "object" ? (first as { inspectionId?: unknown }).inspectionId : undefined;
};

const wantsCsvSafe = (req: Request) => {
  try {
    return wantsCsv(req);
  } catch {
    return false;
  }
};

function refuse(req: Request, res: Response, next: NextFunction, message: string) {
  // htmx fragments and the API get the message as JSON; a page gets the error page with it.
  if (isApiPath(req.path) || req.get("hx-request") === "true") return void res.status(403).json({ message });
  next(new ForbiddenError(message));
}

/** Outside production the app refuses to start with a route that has no rule (docs/decisions.md#36). */
export function routesWithoutRule(routes: readonly { method: string; path: string }[]): string[] {
  return routes.filter((r) => ruleOf(r.method, r.path) === undefined).map((r) => `${r.method} ${r.path}`);
}
