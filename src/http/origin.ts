import type { Request, RequestHandler } from "express";
import type { Env } from "../config/env.js";
import { HttpError } from "./errors.js";

/**
 * The site's own origin for every link that leaves the page (e-mails, payment returns, sitemap): PUBLIC_URL,
 * which loadEnv defaults to http://localhost:$PORT outside production. Never the request's Host header, which
 * the client chooses (a shared report e-mailed with `Host: evil.example` would point there).
 */
export const publicOrigin = (env: Pick<Env, "PUBLIC_URL">): string => env.PUBLIC_URL.replace(/\/+$/, "");

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host name of a Host header value ("example.com:8080" → "example.com", "[::1]:3000" → "[::1]"), lower case. */
export function hostnameOf(host: string): string {
  const name = host.trim().toLowerCase();
  if (name.startsWith("[")) return name.slice(0, name.indexOf("]") + 1);
  const colon = name.lastIndexOf(":");
  return colon === -1 ? name : name.slice(0, colon);
}

/** Whether a Host header names this machine (health checks, a local browser), on any port. */
export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(hostnameOf(host));

export const UNKNOWN_HOST_MESSAGE = "Unknown host: this site answers only at its public address";

/**
 * Production only: a request must name PUBLIC_URL's host, or a loopback name on any port (health checks).
 * Anything else is refused with 400 before a page, link or cache entry could be built from it.
 * Behind a trusted proxy (TRUST_PROXY), Express's `req.host` is the forwarded host.
 */
export function publicHostGuard(publicUrl: string): RequestHandler {
  const allowed = new URL(publicUrl).host.toLowerCase();
  return (req: Request, _res, next) => {
    const host = (req.host ?? "").toLowerCase();
    if (host === allowed || isLoopbackHost(host)) return next();
    next(new HttpError(400, UNKNOWN_HOST_MESSAGE));
  };
}
