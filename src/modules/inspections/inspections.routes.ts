import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { HttpError } from "../../http/errors.js";
import { monthSpan, slotLabel } from "../../shared/business-time.js";
import { body, params, query } from "../../http/validate.js";
import { NO_TIER, tier } from "./bands.js";
import {
  INSPECTION_STATUSES,
  type Inspection,
  type InspectionEntry,
  STATUS_LABELS,
  displayStatus,
  inspectionCreateSchema,
  inspectionIdParams,
  inspectionListQuery,
  inspectionStatusSchema,
} from "./inspections.schemas.js";
import type { InspectionsService } from "./inspections.service.js";
import { SCORE_CHOICES, isDescriptionOnly } from "./template.js";
import { createRouter } from "../../http/router.js";
import { pageCount, totalCountValue } from "../../http/capped-count.js";

/** What the inspection API uses; src/app.ts passes it (docs/architecture.md "Modules and layers"). */
export interface InspectionsApiDeps {
  inspections: InspectionsService;
}

/**
 * What the inspection admin pages use; src/app.ts passes them. Reports sit a layer above, so the
 * "Generate report" button reaches them through `generateReport` (ReportsService.generate).
 */
export interface InspectionsPagesDeps {
  inspections: InspectionsService;
  generateReport: (inspectionId: number) => Promise<unknown>;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
  /** The bookings Pending Inspections counts beside open inspections (the dashboard's, docs/decisions.md#55). */
  bookedNotStarted: (inspectorId?: number) => Promise<BookedVisit[]>;
  /** BUSINESS_TZ: what a `month` of completed inspections spans. */
  timeZone: string;
}

/** A scheduled booking no inspection has taken up yet, as the pending list shows it. */
export interface BookedVisit {
  bookingId: number;
  scheduledDate: string;
  timeSlot: string;
  address: string;
  city: string;
  clientName: string;
  inspectorName: string | null;
}

/** The spec's inspection calls (staff-side §7), all behind a staff session. */
export function inspectionsApi(deps: InspectionsApiDeps): Router {
  const router = createRouter();

  router.get("/inspections", requireStaffApi, async (req, res) => {
    const filter = { ...query(req, inspectionListQuery), inspectorId: inspectorScopeOf(req) };
    if (wantsCsv(req)) return sendCsv(res, { name: "inspections", batches: deps.inspections.exportRows(filter) });
    const { rows, ...count } = await deps.inspections.list(filter);
    res.setHeader("X-Total-Count", totalCountValue(count));
    res.json(rows);
  });

  router.get("/inspections/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, inspectionIdParams);
    res.json(await deps.inspections.getForForm(id));
  });

  router.post("/inspections", requireStaffApi, async (req, res) => {
    const input = body(req, inspectionCreateSchema);
    res.status(201).json(await deps.inspections.create(input, req.session.staffUserId ?? null));
  });

  router.patch("/inspections/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, inspectionIdParams);
    const { status } = body(req, inspectionStatusSchema);
    res.json(await deps.inspections.setStatus(id, status));
  });

  return router;
}

export const INSPECTIONS_PAGE_SIZE = 20;

/** The toasts of staff-side §8 for Generate Report. */
export const GENERATE_REPORT_OK = "Report generated successfully";
export const GENERATE_REPORT_FAILED = "Failed to generate report";

type Notice = { variant: "success" | "error"; title: string; description?: string };

const listQuery = z.object({
  // Search by client (name, e-mail, phone) or address, as the API's q.
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .catch(undefined)
    .transform((q) => q || undefined),
  // "pending" is the dashboard's Pending Inspections: open inspections and the bookings none has taken up yet;
  // `month` (YYYY-MM, with completed) its Completed This Month (docs/decisions.md#55).
  status: z
    .enum([...INSPECTION_STATUSES, "pending"])
    .optional()
    .catch(undefined),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  report: z.enum(["ok", "failed"]).optional().catch(undefined),
});

/**
 * The inspection list (staff-side §2) and a read-only view of one inspection. Filter and pages are
 * on the server; htmx swaps only #inspections-results, and every control also works without script.
 */
export function inspectionsPages(deps: InspectionsPagesDeps): Router {
  const router = createRouter();
  const monthName = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", month: "long", year: "numeric" });

  const listLocals = async (filter: z.infer<typeof listQuery>, inspectorId: number | undefined, notice?: Notice) => {
    const { status, page, q } = filter;
    const pending = status === "pending";
    const month = status === "completed" ? filter.month : undefined;
    const [{ rows, total, capped }, booked] = await Promise.all([
      deps.inspections.list({
        status: pending ? undefined : status,
        open: pending,
        completedIn: month ? monthSpan(month, deps.timeZone) : undefined,
        q,
        inspectorId,
        limit: INSPECTIONS_PAGE_SIZE,
        offset: (page - 1) * INSPECTIONS_PAGE_SIZE,
      }),
      // Bookings are counted whole and not searched (the dashboard's count), and listed on the first page.
      pending && !q ? deps.bookedNotStarted(inspectorId) : [],
    ]);
    const reports = await deps.inspections.reportIds(rows.map((i) => i.id));
    return {
      title: "Inspections",
      admin: "inspections",
      noindex: true,
      inspections: rows.map((i) => ({ ...i, ...shown(i), reportId: reports.get(i.id) ?? null })),
      total,
      capped,
      page,
      pages: pageCount({ total, capped }, { page, size: INSPECTIONS_PAGE_SIZE, shown: rows.length }),
      pageSize: INSPECTIONS_PAGE_SIZE,
      status: status ?? "",
      month: month ?? "",
      monthLabel: month ? monthName.format(new Date(`${month}-15T12:00:00Z`)) : "",
      booked: page === 1 ? booked.map((b) => ({ ...b, timeSlot: slotLabel(b.timeSlot) })) : [],
      bookedCount: booked.length,
      q: q ?? "",
      statuses: [
        { value: "pending", label: "Pending (not completed, or booked)" },
        ...INSPECTION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
      ],
      notice,
    };
  };

  router.get("/admin/inspections", ...deps.staffPage, async (req, res) => {
    const filter = listQuery.parse(req.query);
    // After a Generate Report without script (redirect), the page shows the toast's text.
    const notice: Notice | undefined =
      filter.report === "ok"
        ? { variant: "success", title: GENERATE_REPORT_OK }
        : filter.report === "failed"
          ? { variant: "error", title: GENERATE_REPORT_FAILED }
          : undefined;
    const locals = await listLocals(filter, inspectorScopeOf(req), notice);
    if (req.get("hx-target") === "inspections-results") return res.page("inspections/_results", locals);
    res.page("inspections/list", locals);
  });

  /**
   * Generate Report from the list: htmx swaps the results with the toast in them; without script the
   * form posts here and is redirected back to the same page with the outcome.
   */
  router.post("/admin/inspections/:id/generate-report", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, inspectionIdParams);
    const filter = listQuery.parse(req.query);
    let notice: Notice;
    try {
      await deps.generateReport(id);
      notice = { variant: "success", title: GENERATE_REPORT_OK };
    } catch (error) {
      req.log?.warn({ err: error, inspectionId: id }, "report generation refused");
      notice = {
        variant: "error",
        title: GENERATE_REPORT_FAILED,
        description: error instanceof HttpError && error.status < 500 ? error.message : undefined,
      };
    }
    if (req.get("hx-request") === "true")
      return res.page("inspections/_results", await listLocals(filter, inspectorScopeOf(req), notice));
    const back = new URLSearchParams({
      ...(filter.q ? { q: filter.q } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.month ? { month: filter.month } : {}),
      ...(filter.page > 1 ? { page: String(filter.page) } : {}),
      report: notice.variant === "success" ? "ok" : "failed",
    });
    res.redirect(303, `/admin/inspections?${back}`);
  });

  router.get("/admin/inspections/view/:id", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, inspectionIdParams);
    const inspection = await deps.inspections.get(id);
    const choices = new Map(SCORE_CHOICES.map((c) => [c.value, c.label]));
    res.page("inspections/view", {
      title: `Inspection #${id}`,
      admin: "inspections",
      noindex: true,
      inspection,
      ...shown(inspection),
      scoreLabel: (e: InspectionEntry) =>
        isDescriptionOnly(e.categoryName, e.subcategoryName)
          ? "Description"
          : e.score === null
            ? "N/A"
            : `${e.score} · ${choices.get(e.score)}`,
    });
  });

  return router;
}

/** How the list shows status and score: unknown statuses as draft, the tier or a dash. */
function shown(i: Inspection) {
  const shownStatus = displayStatus(i.status);
  const t = tier(i.overallScore);
  return { shownStatus, statusLabel: STATUS_LABELS[shownStatus], tier: t ?? NO_TIER, hasTier: t !== null };
}
