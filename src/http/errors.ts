import type { ErrorRequestHandler, RequestHandler } from "express";
import { ZodError } from "zod";

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
  const e = error as { type?: string; status?: number; expose?: boolean; message?: string };
  // body-parser errors (bad JSON, too large) carry a status and are safe to expose.
  if (e && typeof e.status === "number" && e.status >= 400 && e.status < 500 && e.expose) {
    const message = e.type === "entity.parse.failed" ? "Request body is not valid JSON" : (e.message ?? "Bad request");
    return new HttpError(e.status, message);
  }
  return new HttpError(500, "Something went wrong on our side. Please try again.");
}

export const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");

/** JSON errors for /api; the HTML error page elsewhere. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const httpError = toHttpError(error);
  if (httpError.status >= 500) req.log?.error({ err: error }, "request failed");
  if (res.headersSent) return;
  if (isApiPath(req.path)) {
    res.status(httpError.status).json({
      message: httpError.message,
      ...(httpError.fields && { fields: httpError.fields }),
    });
    return;
  }
  res.status(httpError.status);
  // res.page exists once the page renderer has run; an earlier failure gets the bare view.
  const show = (view: string, locals: { title: string; [key: string]: unknown }) =>
    res.page ? res.page(view, { ...locals, noindex: true }) : res.render(view, locals);
  if (httpError.status === 404) return show("errors/404", { title: "404 Page Not Found" });
  show("errors/error", {
    title: httpError.status >= 500 ? "Something went wrong" : "Request refused",
    status: httpError.status,
    message: httpError.message,
  });
};

/** Every unknown path: the spec's 404 screen, or a JSON 404 under /api. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new NotFoundError(isApiPath(req.path) ? `No API route for ${req.method} ${req.path}` : "Page not found"));
};
