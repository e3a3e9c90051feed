import type { NextFunction, Request, Response } from "express";
import { isNavVisible } from "./layout.js";

export interface PageMeta {
  title: string;
  description?: string;
  /** Show the footer (the spec marks which pages have it). */
  footer?: boolean;
  /** Load the React island loader: only pages with islands do. */
  islands?: boolean;
  /**
   * Keep the rendered HTML this long for every visitor of the same URL and sign-in state. Only for
   * pages that hold nothing personal; marketing pages use it so they cost almost nothing to serve.
   */
  cacheTtlMs?: number;
  [key: string]: unknown;
}

declare global {
  namespace Express {
    interface Response {
      page(view: string, locals: PageMeta): void;
    }
  }
}

const MAX_CACHED_PAGES = 500;
const pageCache = new Map<string, { html: string; expires: number }>();

function remember(key: string, html: string, ttlMs: number) {
  if (pageCache.size >= MAX_CACHED_PAGES) pageCache.delete(pageCache.keys().next().value as string);
  pageCache.set(key, { html, expires: Date.now() + ttlMs });
}

/**
 * `res.page(view, locals)`: renders the view into the main layout; for an htmx request
 * (HX-Request header) the view alone is sent as a fragment.
 */
export function pageRenderer(req: Request, res: Response, next: NextFunction) {
  res.page = (view, locals) => {
    const signedIn = Boolean(req.session?.staffUserId);
    const fragment = req.get("hx-request") === "true";
    const cacheKey =
      locals.cacheTtlMs && req.method === "GET" && res.statusCode === 200 ? `${fragment}|${signedIn}|${view}|${req.originalUrl}` : null;
    const cached = cacheKey ? pageCache.get(cacheKey) : undefined;
    if (cached && cached.expires > Date.now()) {
      res.type("html").send(cached.html);
      return;
    }
    const all = { ...locals, path: req.path, navVisible: isNavVisible(req.path), signedIn };
    const send = (html: string) => {
      if (cacheKey) remember(cacheKey, html, locals.cacheTtlMs!);
      res.type("html").send(html);
    };
    res.render(view, all, (error: Error | null, body: string) => {
      if (error) return next(error);
      if (fragment) return send(body);
      res.render("layouts/main", { ...all, body }, (layoutError: Error | null, html: string) => {
        if (layoutError) return next(layoutError);
        send(html);
      });
    });
  };
  next();
}
