// GET /api/audit-events and /admin/audit: the audit trail, owners only (docs/decisions.md#36, #39).
import type { RequestHandler, Router } from "express";
import { requireStaffApi } from "../../http/guards.js";
import { ForbiddenError, ValidationError } from "../../http/errors.js";
import { sendCsv } from "../../http/csv.js";
import { query } from "../../http/validate.js";
import type { AuditLog } from "./audit.service.js";
import { type AuditEvent, type AuditQuery, RANGE_MESSAGE, auditQuerySchema, rangeProblem } from "./audit.schemas.js";
import { createRouter } from "../../http/router.js";
import { clockFormat } from "../../shared/business-time.js";

export interface AuditRoutesDeps {
  audit: Pick<AuditLog, "list" | "exportBatches" | "actors">;
  staffPage: RequestHandler[];
  timeZone: string;
}

const OWNERS_ONLY = "Only an owner may read the audit trail";

const ownerApi: RequestHandler = (req, _res, next) =>
  next(req.staffUser?.role === "owner" ? undefined : new ForbiddenError(OWNERS_ONLY));

const ownerPage: RequestHandler = (_req, res, next) => {
  if (res.locals.staffUser?.role === "owner") return next();
  res.status(403).page("admin/access-denied", { title: "Access Denied", noindex: true });
};

/** Each event's fields differ, so before and after are one JSON cell each (CSV columns come from the first row). */
async function* asCsvRows(batches: AsyncIterable<AuditEvent[]>): AsyncGenerator<object[]> {
  for await (const batch of batches)
    yield batch.map((e) => ({
      ...e,
      before: e.before === null ? null : JSON.stringify(e.before),
      after: e.after === null ? null : JSON.stringify(e.after),
    }));
}

const csvOrJson = async (deps: AuditRoutesDeps, q: AuditQuery, res: Parameters<RequestHandler>[1]) => {
  if (q.format === "csv") return sendCsv(res, { name: "audit", batches: asCsvRows(deps.audit.exportBatches(q)) });
  const page = await deps.audit.list(q);
  res.setHeader("X-Total-Count", String(page.total));
  if (page.next !== null) res.setHeader("X-Next-Before", String(page.next));
  res.json(page.rows);
};

export function auditApi(deps: AuditRoutesDeps): Router {
  const router = createRouter();
  router.get("/audit-events", requireStaffApi, ownerApi, async (req, res) => {
    const q = query(req, auditQuerySchema);
    const problem = rangeProblem(q);
    if (problem.from) throw new ValidationError(RANGE_MESSAGE, problem);
    await csvOrJson(deps, q, res);
  });
  return router;
}

export function auditPages(deps: AuditRoutesDeps): Router {
  const router = createRouter();
  router.get("/admin/audit", ...deps.staffPage, ownerPage, async (req, res) => {
    const parsed = auditQuerySchema.safeParse(req.query);
    const values = Object.fromEntries(
      ["actorId", "recordType", "recordId", "from", "to"].map((k) => [k, String(req.query[k] ?? "")]),
    );
    const errors: Record<string, string> = {};
    if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    else Object.assign(errors, rangeProblem(parsed.data));
    const ok = !Object.keys(errors).length;
    if (ok && parsed.data?.format === "csv") return csvOrJson(deps, parsed.data, res);
    const page =
      ok && parsed.data
        ? await deps.audit.list({ ...parsed.data, limit: 50, offset: 0 })
        : { rows: [], next: null, total: 0 };
    const filters = new URLSearchParams(Object.entries(values).filter(([, v]) => v));
    const when = clockFormat({
      timeZone: deps.timeZone,
      dateStyle: "medium",
      timeStyle: "short",
    });
    res.status(ok ? 200 : 400).page("admin/audit", {
      title: "Audit trail",
      admin: "audit",
      noindex: true,
      values,
      errors,
      actors: await deps.audit.actors(),
      events: page.rows,
      nextHref:
        page.next === null ? null : `/admin/audit?${filters.toString()}${filters.size ? "&" : ""}before=${page.next}`,
      csvHref: `/admin/audit?${filters.toString()}${filters.size ? "&" : ""}format=csv`,
      firstHref: ok && parsed.data?.before ? `/admin/audit?${filters.toString()}` : null,
      formatWhen: (iso: string) => when.format(new Date(iso)),
      timeZone: deps.timeZone,
    });
  });
  return router;
}
