// The security headers of every response (helmet): a strict Content Security Policy, and HSTS where Haven is served
// over HTTPS.
import helmet from "helmet";
import type { RequestHandler } from "express";

/** `formActions`: where forms may post besides the site (the card provider's hosted checkout). */
export function securityHeaders(options: { formActions: string[]; https: boolean }): RequestHandler {
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
