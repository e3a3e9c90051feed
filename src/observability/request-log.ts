// One short log line per request, with its id (x-request-id, kept from the proxy or made here): the line pino-http
// wrote ("request completed", or "request errored" from 500 on, with req, res and responseTime), made here because
// pino-http serialized each request whole (its headers too) and made a child logger for it even at a level that
// logs nothing, the largest cost of a cached page (docs/architecture.md, "Budgets": SSR). `req.log` is the
// request's child logger, made when a handler first logs.
import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { redactLinkTokens } from "../shared/one-time-links.js";
import { OPS_PATHS } from "./ops.routes.js";

declare module "http" {
  interface IncomingMessage {
    /** The request's id: its x-request-id. */
    id: string;
    /** The logger whose lines carry the request (its id, method and URL). */
    log: Logger;
  }
}

/** Probes, scrapes and static assets: answered often and of no interest line by line. */
const unlogged = (url: string) => OPS_PATHS.has(url.split("?")[0] ?? "") || url.startsWith("/assets/");

const LOG = Symbol("request log");
interface LogState {
  logger: Logger;
  id: string;
  method: string;
  url: string;
  child?: Logger;
}
type Logged = { [LOG]?: LogState };

// No headers (they hold session cookies); one-time link tokens never reach the logs (docs/decisions.md#7).
const described = (state: LogState) => ({ id: state.id, method: state.method, url: redactLinkTokens(state.url) });

/** Express's request prototypes whose `log` is the request's child logger, made when first read. */
const withLog = new WeakSet<object>();
function childLoggers(proto: object): void {
  if (withLog.has(proto)) return;
  withLog.add(proto);
  // Once per prototype rather than per request: a cached page's cost (bench/ssr.ts).
  Object.defineProperty(proto, "log", {
    configurable: true,
    enumerable: false,
    get(this: Logged) {
      const state = this[LOG];
      if (!state) return undefined;
      state.child ??= state.logger.child({ req: described(state) });
      return state.child;
    },
  });
}

export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const id = (req.headers["x-request-id"] as string | undefined)?.slice(0, 100) || randomUUID();
    req.id = id;
    res.setHeader("x-request-id", id);
    const url = req.url;
    const state: LogState = { logger, id, method: req.method, url };
    childLoggers(Object.getPrototypeOf(req) as object);
    (req as Logged)[LOG] = state;
    if (unlogged(url) || !logger.isLevelEnabled("info")) return next();
    const started = Date.now();
    const done = () => {
      res.off("finish", done);
      res.off("close", done);
      const line = { req: described(state), res: { statusCode: res.statusCode }, responseTime: Date.now() - started };
      if (res.statusCode >= 500)
        logger.info({ ...line, err: new Error(`failed with status code ${res.statusCode}`) }, "request errored");
      else logger.info(line, !req.readableAborted && res.writableEnded ? "request completed" : "request aborted");
    };
    res.on("finish", done);
    res.on("close", done);
    next();
  };
}
