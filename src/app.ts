import path from "node:path";
import compression from "compression";
import express, { type Express } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { randomUUID } from "node:crypto";
import type { Container } from "./container.js";
import { isDatabaseUp } from "./db/knex.js";
import { PUBLIC_BUILD_DIR, ROOT_DIR } from "./http/assets.js";
import { ADMIN_SECTIONS } from "./http/admin.js";
import { csrfGuard } from "./http/csrf.js";
import { errorHandler, notFoundHandler } from "./http/errors.js";
import { pageRendering } from "./http/render.js";
import { sessionMiddleware, sessionOptions } from "./http/session.js";
import { authApi, authPages } from "./modules/auth/auth.routes.js";
import { pagesRouter } from "./modules/pages/pages.routes.js";
import { plansApi } from "./modules/plans/plans.routes.js";
import { checkoutApi, checkoutFormActions, checkoutPages } from "./modules/plans/checkout.routes.js";
import { customersApi, customersPages } from "./modules/customers/customers.routes.js";
import { bookingsApi, bookingsPages } from "./modules/bookings/bookings.routes.js";
import { onboardingApi, onboardingPages } from "./modules/onboarding/onboarding.routes.js";

/** The Express app, without listen(): server.ts serves it and the tests drive it with supertest. */
export function createApp(container: Container): Express {
  const { env } = container;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.NODE_ENV === "production" ? 1 : false);
  app.set("view engine", "ejs");
  app.set("views", path.join(ROOT_DIR, "views"));
  if (env.NODE_ENV === "production") app.set("view cache", true);

  app.locals.config = {
    contactPhone: env.CONTACT_PHONE,
    contactEmail: env.CONTACT_EMAIL,
    supportEmail: env.SUPPORT_EMAIL,
    // Open Graph wants absolute URLs; never the request's Host, which would end up in the page cache.
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
  };
  app.locals.assets = () => container.assets();
  app.locals.adminSections = ADMIN_SECTIONS;

  app.use(
    pinoHttp({
      logger: container.log,
      genReqId: (req, res) => {
        const id = (req.headers["x-request-id"] as string | undefined)?.slice(0, 100) || randomUUID();
        res.setHeader("x-request-id", id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" || (req.url?.startsWith("/assets/") ?? false) },
      // One short line per request: no headers (they hold session cookies).
      serializers: {
        req: (req) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(
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
          formAction: ["'self'", ...checkoutFormActions(env)],
          frameAncestors: ["'self'"],
        },
      },
      // The sample report opens in a popup that the opener may keep a handle on.
      crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
    }),
  );
  const pages = pageRendering();
  app.use(pages.serveCached);
  app.use(compression());

  // Hashed build output never changes under its name: cache it for a year.
  app.use("/assets", express.static(path.join(PUBLIC_BUILD_DIR, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }));
  // Other public files (favicon, robots…) all have an extension: pages skip the disk look-up.
  const publicFiles = express.static(PUBLIC_BUILD_DIR, { index: false, maxAge: "1h" });
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  app.get("/healthz", async (_req, res) => {
    const database = await isDatabaseUp(container.db);
    res.status(database ? 200 : 503).json({ status: database ? "ok" : "degraded", database: database ? "up" : "down" });
  });

  // Before the body parsers, so even a malformed body gets a full error page.
  app.use(pages.renderer);
  // Stripe signs the exact bytes it sent: keep the webhook's body raw (express.json then skips it).
  app.use("/api/stripe/webhook", express.raw({ type: "*/*", limit: "1mb" }));
  app.use(express.json({ limit: "1mb" }));
  app.use(express.urlencoded({ extended: false, limit: "1mb" }));
  app.use(sessionMiddleware(sessionOptions(env.SESSION_SECRET, env.NODE_ENV === "production")));
  app.use(csrfGuard(["/api/stripe/webhook"]));

  const api = express.Router();
  api.use(authApi(container));
  api.use(plansApi(container));
  api.use(checkoutApi(container));
  api.use(customersApi(container));
  api.use(bookingsApi(container));
  api.use(onboardingApi(container));
  app.use("/api", api);

  app.use(authPages(container));
  app.use(pagesRouter(container));
  app.use(checkoutPages(container));
  app.use(customersPages(container));
  app.use(bookingsPages(container));
  app.use(onboardingPages(container));

  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
