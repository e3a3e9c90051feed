import { createHash, timingSafeEqual } from "node:crypto";
import express, { type Express, type Router, type RequestHandler } from "express";
import type { Container } from "../container.js";
import { isDatabaseUp } from "../db/knex.js";
import { type Lifecycle, readiness } from "./health.js";
import { type MetricsSources, metricsScrape } from "./metrics.js";
import { createRouter } from "../http/router.js";

/** The paths machines poll: request logs skip them (one line per probe would drown the rest). */
export const OPS_PATHS = new Set(["/livez", "/readyz", "/healthz", "/metrics"]);

export interface OpsOptions {
  lifecycle: Lifecycle;
  /** A web process serves pages: it is ready only with its built assets. */
  checkAssets: boolean;
  workerPool?: MetricsSources["workerPool"];
}

/** /livez, /readyz, /healthz and /metrics, for the web app and for a worker-only process alike. */
export function opsRouter(container: Pick<Container, "db" | "env" | "log">, options: OpsOptions): Router {
  const router = createRouter();
  const scrape = metricsScrape({
    db: container.db,
    workerPool: options.workerPool,
    onError: (error) => container.log.debug({ err: error }, "metrics: job counts unavailable"),
  });
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  };

  // The process answers: nothing else is checked, so a busy database never gets a live process restarted.
  router.get("/livez", noStore, (_req, res) => {
    res.json({ status: "ok" });
  });

  router.get("/readyz", noStore, async (_req, res) => {
    const { ready, checks } = await readiness(container.db, options.lifecycle, { assets: options.checkAssets });
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "not ready", ...checks });
  });

  // The original check (the database answers), kept for probes already pointed at it.
  router.get("/healthz", noStore, async (_req, res) => {
    const database = await isDatabaseUp(container.db);
    res.status(database ? 200 : 503).json({ status: database ? "ok" : "degraded", database: database ? "up" : "down" });
  });

  router.get("/metrics", noStore, metricsAccess(container.env.METRICS_TOKEN), async (_req, res) => {
    const { contentType, body } = await scrape();
    res.type(contentType).send(body);
  });
  return router;
}

/**
 * The probes for the web app, entered only on their own paths: a router walked and left costs every other request
 * a turn of the loop (bench/ssr.ts). Its routes stay listed, with the router's exact-spelling flags
 * (src/http/routes.ts walks a handler's stack; src/http/router.ts): role rules and access tests see them.
 */
export function opsOnTheirPaths(router: Router): RequestHandler {
  const gate: RequestHandler = (req, res, next) => (OPS_PATHS.has(req.path) ? router(req, res, next) : next());
  const { caseSensitive, strict } = router as unknown as { caseSensitive: boolean; strict: boolean };
  return Object.assign(gate, { stack: router.stack, caseSensitive, strict });
}

/** The whole HTTP app of a worker-only process (WORKER_PORT): the probes and the metrics, nothing else. */
export function createOpsApp(container: Pick<Container, "db" | "env" | "log">, options: OpsOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", container.env.TRUST_PROXY);
  app.use(opsRouter(container, options));
  app.use((_req, res) => void res.status(404).json({ message: "Not found" }));
  return app;
}

/** Whether an address is the machine itself (IPv4 127/8, IPv6 ::1, or 127/8 mapped into IPv6). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * With METRICS_TOKEN, a scrape must carry `Authorization: Bearer <token>` (401 otherwise). Without one,
 * only the machine itself may scrape (403 otherwise): the connection must come from a loopback address.
 * X-Forwarded-For can only refuse, never admit: with TRUST_PROXY a client may write it itself when it
 * reaches a replica directly, and a proxy on this machine passes requests from outside.
 */
export function metricsAccess(token: string | undefined): RequestHandler {
  const expected = token ? digest(token) : null;
  return (req, res, next) => {
    if (expected) {
      const match = /^Bearer\s+(.+)$/i.exec(req.get("authorization") ?? "");
      // Compared as digests: equal lengths, in constant time.
      if (match && timingSafeEqual(digest(match[1]!.trim()), expected)) return next();
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).json({ message: "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>" });
      return;
    }
    if (isLoopback(req.socket.remoteAddress) && isLoopback(req.ip)) return next();
    res
      .status(403)
      .json({ message: "GET /metrics answers only this machine; set METRICS_TOKEN to scrape it from elsewhere" });
  };
}
