import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";
import { apiLocale } from "../i18n/api-locale.js";
import { type Translator, translator } from "../i18n/catalogue.js";
import { localeLocals } from "../i18n/middleware.js";
import { splitLocale } from "../i18n/routing.js";
import { knownServerMessage, serverFields, serverMessage } from "../i18n/server-messages.js";

/** An error that maps to an HTTP status and a message safe to show. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A refusal its route has already said in the language the request asked for (src/i18n/api-locale.ts): sent as is. */
export class SaidRefusal extends HttpError {}

export class ValidationError extends HttpError {
  constructor(message: string, fields?: Record<string, string>) {
    super(400, message, fields);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = "Authentication required") {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = "Forbidden") {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = "Not found") {
    super(404, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string, fields?: Record<string, string>) {
    super(409, message, fields);
  }
}
/** The database is unreachable or still starting: the client should retry shortly. */
export class UnavailableError extends HttpError {
  constructor(message = UNAVAILABLE_MESSAGE) {
    super(503, message);
  }
}
export const UNAVAILABLE_MESSAGE = "Haven is briefly unavailable. Please try again in a few seconds.";
/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

// Connection failures (Node and pg) and Postgres' connection-exception (08) and
// operator-intervention (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now) classes.
const OUTAGE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
const OUTAGE_MESSAGES = [
  /Connection terminated/i,
  /Connection ended unexpectedly/i,
  /unexpected postmaster exit/i,
  /socket has been ended/i,
  /Timeout acquiring a connection/i,
  /connection is insecure|Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/** Whether an error means the database is down or restarting, not that the request was wrong. */
export function isDatabaseOutage(error: unknown): boolean {
  const e = error as { code?: string; name?: string; message?: string; errors?: unknown[] } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && (OUTAGE_CODES.has(e.code) || e.code.startsWith("08"))) return true;
  if (e.name === "KnexTimeoutError") return true;
  // AggregateError from net (IPv4 and IPv6 both refused).
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseOutage)) return true;
  return typeof e.message === "string" && OUTAGE_MESSAGES.some((m) => m.test(e.message!));
}

export const CONSTRAINT_RACE_MESSAGE = "Someone else changed this at the same moment: reload and try again";

export const BUSY_MESSAGE = "Haven is busy right now. Please try again in a few seconds.";
// The limits of the app's connections (docs/decisions.md#46): lock_not_available (lock_timeout), query_canceled
// (statement_timeout) and idle_in_transaction_session_timeout. The transaction rolled back: nothing was written.
const SESSION_LIMIT_CODES = new Set(["55P03", "57014", "25P03"]);
const isSessionLimit = (error: unknown) => SESSION_LIMIT_CODES.has(String((error as { code?: unknown } | null)?.code));

/** Postgres' unique_violation and exclusion_violation. */
function isConstraintRace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "23P01";
}

export class GoneError extends HttpError {
  constructor(message = "This link has already been used") {
    super(410, message);
  }
}

/** Turns zod issues into `{ field: message }`, one message per field (the first). */
export function fieldsFromZod(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return new ValidationError("Invalid input", fieldsFromZod(error));
  if (isDatabaseOutage(error)) return new UnavailableError();
  if (isSessionLimit(error)) return new UnavailableError(BUSY_MESSAGE);
  // A race the code's own checks did not see, caught by a unique or exclusion constraint: the loser's transaction
  // rolled back, so it is a conflict to retry, not a fault.
  if (isConstraintRace(error)) return new ConflictError(CONSTRAINT_RACE_MESSAGE);
  const e = error as { type?: string; status?: number; statusCode?: number; expose?: boolean; message?: string };
  // A 4xx raised by a library (body-parser, the router's URIError, send) stays a 4xx; its message is
  // shown only when the library marks it safe.
  const status = e && (typeof e.status === "number" ? e.status : e.statusCode);
  if (typeof status === "number" && status >= 400 && status < 500) {
    if (e.type === "entity.parse.failed") return new HttpError(status, "Request body is not valid JSON");
    if (error instanceof URIError) return new HttpError(400, MALFORMED_URL_MESSAGE);
    return new HttpError(status, e.expose && e.message ? e.message : (STATUS_MESSAGES[status] ?? "Bad request"));
  }
  if (error instanceof URIError) return new HttpError(400, MALFORMED_URL_MESSAGE);
  return new HttpError(500, "Something went wrong on our side. Please try again.");
}

/** The zone of an error page's locals when the language middleware did not run (it shows no date or time). */
const ERROR_PAGE_ZONE = "America/Toronto";

export const MALFORMED_URL_MESSAGE = "The address holds a malformed percent-escape";
const STATUS_MESSAGES: Record<number, string> = {
  400: "Bad request",
  404: "Not found",
  405: "Method not allowed",
  413: "Request body is too large",
  415: "Unsupported content type",
  416: "Range not satisfiable",
};

/** A path under /api; in any letter case, so a call spelled `/API/…` is still answered in JSON. */
export const isApiPath = (path: string) => /^\/api(?:\/|$)/i.test(path);

/**
 * JSON errors for /api and for htmx requests (whose toast shows the message: islands/site/refusal.ts, as the role
 * guard in roles.ts answers them); the HTML error page elsewhere.
 */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const httpError = toHttpError(error);
  if (httpError.status === 503)
    req.log?.warn(
      { err: { code: (error as { code?: string }).code, message: (error as Error).message } },
      "database unavailable",
    );
  else if (httpError.status >= 500) req.log?.error({ err: error }, "request failed");
  if (res.headersSent) return;
  if (httpError.status === 503) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  if (isApiPath(req.path) || req.get("hx-request") === "true") {
    // In the language the homeowner's island asked for (src/i18n/api-locale.ts); staff calls never ask: English.
    const said = translator(apiLocale(req));
    res.status(httpError.status).json({
      message: httpError instanceof SaidRefusal ? httpError.message : serverMessage(said, httpError.message),
      ...(httpError.fields && { fields: serverFields(said, httpError.fields) }),
    });
    return;
  }
  res.status(httpError.status);
  // In the address's language (docs/decisions.md#65): a request refused before the language middleware (/fr/admin)
  // gets its locals here. Error pages show no date, so the zone is the formatters' default.
  if (!res.locals.t) Object.assign(res.locals, localeLocals(splitLocale(req.path).locale, ERROR_PAGE_ZONE, req.url));
  const t = res.locals.t as Translator;
  // res.page exists once the page renderer has run; an earlier failure gets the bare view.
  const show = (view: string, locals: { title: string; [key: string]: unknown }) =>
    res.page ? res.page(view, { ...locals, noindex: true }) : res.render(view, locals);
  if (httpError.status === 404) return show("errors/404", { title: t("errors.notFound.title") });
  if (httpError.status === 503) return show("errors/unavailable", { title: t("errors.unavailable.title") });
  show("errors/error", {
    title: httpError.status >= 500 ? t("errors.failed.title") : t("errors.refused.title"),
    status: httpError.status,
    // A French page says the message when the catalogue has it, else the general sentence (views/errors/error.ejs).
    message: httpError instanceof SaidRefusal ? httpError.message : knownServerMessage(t, httpError.message),
  });
};

/**
 * Refuses a URL whose path or query holds a malformed percent-escape (`/%ff`, `/%`, `?q=%E0%A4%A`)
 * with a 400 before any router, static handler or cache decodes it.
 */
export const malformedUrlGuard: RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.url.replace(/\+/g, " "));
    next();
  } catch {
    next(new HttpError(400, MALFORMED_URL_MESSAGE));
  }
};

/** Every unknown path: the spec's 404 screen, or a JSON 404 under /api. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(isApiPath(req.path) ? `No API route for ${req.method} ${req.path}` : "Page not found"));
};
