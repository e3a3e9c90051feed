// One short log line per request, with its id (x-request-id, kept from the proxy or made here).
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { redactLinkTokens } from "../shared/one-time-links.js";
import { OPS_PATHS } from "./ops.routes.js";

export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = (req.headers["x-request-id"] as string | undefined)?.slice(0, 100) || randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    autoLogging: {
      ignore: (req) => OPS_PATHS.has(req.url?.split("?")[0] ?? "") || (req.url?.startsWith("/assets/") ?? false),
    },
    // No headers (they hold session cookies).
    serializers: {
      // One-time link tokens never reach the logs (docs/decisions.md#7).
      req: (req) => ({ id: req.id, method: req.method, url: redactLinkTokens(req.url) }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
