import type { RequestHandler } from "express";
import { NotFoundError } from "./errors.js";

// One spelling per path (docs/decisions.md#45). Guards read the path as text while Express routes it after
// decoding its parameters, so a second spelling of the same route (`/api/inspections/%37`, `/api//inspections/7`,
// `/api/inspections/7;x`) would let a guard see one path and the router serve another. Every request is brought
// to its canonical path before any guard reads it: the other spellings of a page are redirected there, and an API
// call spelled another way is a 404. Letter case is the routers' own: they route by exact case (src/http/router.ts).

/** RFC 3986's unreserved characters: their percent-escapes name the same path as the characters themselves. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/**
 * The canonical form of a URL path: escapes of unreserved characters decoded (other escapes kept, their hex in
 * capitals), `;` parameters dropped, empty and dot segments removed, no trailing slash but the root's.
 */
export function canonicalPathOf(path: string): string {
  const decoded = path.replace(ESCAPE, (sequence, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : sequence.toUpperCase();
  });
  const segments: string[] = [];
  for (const raw of decoded.split("/")) {
    const segment = raw.split(";")[0] ?? "";
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** A path under /api, in any letter case: its answers are JSON. */
const isApiSpelling = (path: string) => /^\/+api(?:[/;]|$)/i.test(path);

/**
 * First of all middleware: a request whose path is not canonical is redirected (a page read with GET or HEAD, 308
 * to keep the method's meaning) or refused with a 404 (the API, and any other method), before sessions, roles or
 * the two-step gate see it.
 */
export const canonicalPath: RequestHandler = (req, res, next) => {
  const path = req.path;
  const canonical = canonicalPathOf(path);
  if (canonical === path) return next();
  if (isApiSpelling(path)) return next(new NotFoundError(`No API route for ${req.method} ${path}`));
  if (req.method !== "GET" && req.method !== "HEAD") return next(new NotFoundError());
  const queryAt = req.url.indexOf("?");
  res.redirect(308, `${canonical}${queryAt >= 0 ? req.url.slice(queryAt) : ""}`);
};
