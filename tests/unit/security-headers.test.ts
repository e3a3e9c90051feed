// The security headers, taken from helmet once at start-up (src/http/security-headers.ts): every response carries
// all of helmet's headers with helmet's values, X-Powered-By is gone, and HSTS only over HTTPS.
import express from "express";
import helmet from "helmet";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { securityHeaders } from "../../src/http/security-headers.js";

const HELMET_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

const appWith = (middleware: express.RequestHandler) => {
  const app = express();
  app.use(middleware);
  app.get("/", (_req, res) => {
    res.send("ok");
  });
  return app;
};

describe("security headers", () => {
  it("are helmet's, on every response, with X-Powered-By removed; HSTS over HTTPS only", async () => {
    const formActions = ["https://checkout.stripe.com"];
    for (const https of [false, true]) {
      const ours = await request(appWith(securityHeaders({ formActions, https })))
        .get("/")
        .expect(200);
      // Helmet itself, per request, with the settings security-headers.ts gives it (its defaults for the rest).
      const theirs = await request(
        appWith(
          helmet({
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
                formAction: ["'self'", ...formActions],
                frameAncestors: ["'self'"],
              },
            },
            crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
            referrerPolicy: { policy: "same-origin" },
            strictTransportSecurity: https,
          }),
        ),
      )
        .get("/")
        .expect(200);
      for (const name of [...HELMET_HEADERS, ...(https ? ["strict-transport-security"] : [])]) {
        expect(ours.headers[name], name).toBeDefined();
        expect(ours.headers[name], name).toBe(theirs.headers[name]);
      }
      expect(ours.headers["strict-transport-security"] !== undefined).toBe(https);
      expect(ours.headers["x-powered-by"]).toBeUndefined();
      expect(ours.headers["content-security-policy"]).toContain("form-action 'self' https://checkout.stripe.com");
    }
  });
});
