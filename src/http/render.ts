import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { isNavVisible } from "./layout.js";
import { SESSION_COOKIE } from "./session.js";

export interface PageMeta {
  title: string;
  description?: string;
  /** Show the footer (the spec marks which pages have it). */
  footer?: boolean;
  /** Load the React island loader: only pages with islands do. */
  islands?: boolean;
  /**
   * Keep the rendered HTML this long for visitors without a session. Only for pages that hold
   * nothing personal: marketing pages use it so that they cost almost nothing to serve.
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

interface CachedPage {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  expires: number;
}

const MAX_CACHED_PAGES = 500;

const hasSessionCookie = (req: Request) => req.headers.cookie?.includes(`${SESSION_COOKIE}=`) ?? false;
const cacheKeyOf = (req: Request) => `${req.get("hx-request") === "true"}|${req.originalUrl}`;

function remember(pageCache: Map<string, CachedPage>, key: string, html: string, ttlMs: number): CachedPage {
  if (pageCache.size >= MAX_CACHED_PAGES) pageCache.delete(pageCache.keys().next().value as string);
  // Keep the bytes, their gzip and their ETag: a hit then costs no rendering, hashing or compressing.
  const body = Buffer.from(html);
  const page = {
    body,
    gzipped: gzipSync(body),
    etag: `W/"${createHash("sha1").update(body).digest("base64url").slice(0, 27)}"`,
    expires: Date.now() + ttlMs,
  };
  pageCache.set(key, page);
  return page;
}

/** Whether an Accept-Encoding takes gzip, by its header: browsers send a handful of spellings, each parsed once. */
const gzipAccepted = new Map<string, boolean>();
const MAX_ENCODING_SPELLINGS = 100;
function wantsGzip(req: Request): boolean {
  const header = req.headers["accept-encoding"] ?? "";
  let gzip = gzipAccepted.get(header);
  if (gzip === undefined) {
    gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
    // The header is the client's to write: the memo stays small whatever it sends.
    if (gzipAccepted.size >= MAX_ENCODING_SPELLINGS) gzipAccepted.clear();
    gzipAccepted.set(header, gzip);
  }
  return gzip;
}

/**
 * The stored bytes with their headers, written straight to Node's response: res.send would work out again what
 * is known (type, length, ETag). A conditional request goes through res.send, which answers 304 when it matches.
 */
function sendCached(req: Request, res: Response, page: CachedPage) {
  const gzip = wantsGzip(req);
  const body = gzip ? page.gzipped : page.body;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("ETag", page.etag);
  if (res.hasHeader("Vary")) res.vary("Accept-Encoding");
  else res.setHeader("Vary", "Accept-Encoding");
  if (gzip) res.setHeader("Content-Encoding", "gzip");
  if (req.headers["if-none-match"] !== undefined || req.headers["if-modified-since"] !== undefined)
    return res.send(body);
  res.setHeader("Content-Length", body.length);
  // Node sends no body for a HEAD request, with this length.
  res.end(body);
}

/**
 * Page rendering for one app: `serveCached` answers a visitor without a session from the page
 * cache before the rest of the stack runs (body parsers, session, compression, routers), like a
 * CDN would; `renderer` adds `res.page`. Each app has its own cache.
 */
export function pageRendering(): { serveCached: RequestHandler; renderer: RequestHandler } {
  const pageCache = new Map<string, CachedPage>();

  const serveCached: RequestHandler = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || hasSessionCookie(req)) return next();
    const page = pageCache.get(cacheKeyOf(req));
    if (!page || page.expires <= Date.now()) return next();
    sendCached(req, res, page);
  };

  /**
   * `res.page(view, locals)`: renders the view into the main layout; for an htmx request
   * (HX-Request header) the view alone is sent as a fragment.
   */
  const renderer = (req: Request, res: Response, next: NextFunction) => {
    res.page = (view, locals) => {
      const signedIn = Boolean(req.session?.staffUserId);
      const fragment = req.get("hx-request") === "true";
      // Only what an anonymous visitor would see is cached, and only a plain 200.
      const cacheable =
        Boolean(locals.cacheTtlMs) && req.method === "GET" && res.statusCode === 200 && !hasSessionCookie(req);
      const all = { ...locals, path: req.path, navVisible: isNavVisible(req.path), signedIn };
      const send = (html: string) => {
        if (cacheable) return sendCached(req, res, remember(pageCache, cacheKeyOf(req), html, locals.cacheTtlMs!));
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
  };

  return { serveCached, renderer };
}
