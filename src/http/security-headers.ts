// The security headers of every response (helmet): a strict Content Security Policy, and HSTS where Haven is served
// over HTTPS.
import helmet from "helmet";
import type { Request, RequestHandler, Response } from "express";

/**
 * `formActions`: where forms may post besides the site (the card provider's hosted checkout). Every header here is
 * the same on every response, so helmet's fourteen middlewares run once, at start-up, and each request gets the
 * headers they set in one step: the same headers, a measurable share of a cached page's time (bench/ssr.ts).
 */
export function securityHeaders(options: { formActions: string[]; https: boolean }): RequestHandler {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      set.push([name, String(value)]);
    },
    removeHeader: (name: string) => {
      removed.push(name);
    },
  };
  let done = false;
  helmetHeaders(options)({} as Request, recorder as unknown as Response, () => {
    done = true;
  });
  // A helmet whose headers depended on the request (a nonce) would not finish here: refuse to start without them.
  if (!done || !set.length) throw new Error("security headers: helmet did not set its headers at start-up");
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

function helmetHeaders(options: { formActions: string[]; https: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", ...options.formActions],
        frameAncestors: ["'self'"],
      },
    },
    // The sample report opens in a popup that the opener may keep a handle on.
    crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    // With helmet's default 'no-referrer', Chrome sends `Origin: null` on same-origin form posts, which the
    // CSRF guard must refuse; 'same-origin' keeps referrers on the site and gives those posts their Origin.
    referrerPolicy: { policy: "same-origin" },
    // HSTS only where Haven is served over HTTPS; over plain HTTP in development it would pin localhost.
    strictTransportSecurity: options.https,
  });
}
