import type { Request, RequestHandler, Response, Router } from "express";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { HttpError } from "../../http/errors.js";
import { requireStaffApi } from "../../http/guards.js";
import { inspectorScopeOf } from "../../http/roles.js";
import { params, query } from "../../http/validate.js";
import { adminLabel, barColour, historyLabel } from "../inspections/index.js";
import { scoreChartSvg, trendText } from "./history.js";
import { addressLine } from "../../shared/address.js";
import {
  REPORT_PAGE_SIZE,
  idParams,
  pdfQuery,
  propertyIdParams,
  reportListQuery,
  reportsPageQuery,
} from "./reports.schemas.js";
import { NO_INSPECTION_MESSAGE, NO_INSPECTION_TITLE, type ReportsService } from "./reports.service.js";
import type { CustomersService } from "../customers/index.js";
import { safeFileName } from "../../shared/file-name.js";
import { createRouter } from "../../http/router.js";

// Texts of staff-side §8 and §5.
export const GENERATED_MESSAGE = "Report generated successfully";
export const GENERATE_FAILED_MESSAGE = "Failed to generate report";
export const DELETED_MESSAGE = "Report deleted successfully";
export const DELETE_FAILED_MESSAGE = "Failed to delete report";
export const DELETE_CONFIRM = "Are you sure you want to delete this report? This action cannot be undone.";

interface Notice {
  variant: "success" | "error";
  title: string;
  description?: string;
}

/** What the report API uses; src/app.ts passes it (docs/architecture.md "Modules and layers"). */
export interface ReportsApiDeps {
  reports: ReportsService;
}

/** What the report admin pages use; src/app.ts passes them. */
export interface ReportsPagesDeps {
  reports: ReportsService;
  /** The property's current client e-mail, for the share dialog. */
  customers: Pick<CustomersService, "findPropertyFor">;
  /** The staff page guard and admin shell (src/http/admin.ts staffPage), built once by src/app.ts. */
  staffPage: RequestHandler[];
}

export function reportsApi(deps: ReportsApiDeps): Router {
  const router = createRouter();

  router.post("/inspections/:id/generate-report", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.status(201).json(await deps.reports.generate(id));
  });

  router.get("/reports", requireStaffApi, async (req, res) => {
    const filter = { ...query(req, reportListQuery), inspectorId: inspectorScopeOf(req) };
    if (wantsCsv(req)) return sendCsv(res, { name: "reports", batches: deps.reports.exportRows(filter) });
    const { rows, total } = await deps.reports.list(filter);
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  router.get("/reports/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.json(await deps.reports.get(id));
  });

  router.delete("/reports/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    await deps.reports.delete(id);
    res.status(204).end();
  });

  router.get("/reports/:id/pdf", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { format } = query(req, pdfQuery);
    const report = await deps.reports.get(id);
    const pdf = await deps.reports.pdfOf(report.reportData, format);
    const name = `haven-report-${report.id}-${safeFileName(report.reportData.property.address)}${format === "summary" ? "-summary" : ""}.pdf`;
    res.type("application/pdf").setHeader("Content-Disposition", `attachment; filename="${name}"`);
    res.setHeader("Cache-Control", "private, no-store");
    res.send(pdf);
  });

  router.get("/property-history/:propertyId", requireStaffApi, async (req, res) => {
    const { propertyId } = params(req, propertyIdParams);
    res.json(await deps.reports.history(propertyId));
  });
  return router;
}

export function reportsPages(deps: ReportsPagesDeps): Router {
  const router = createRouter();

  async function listLocals(page: number, q: string, inspectorId: number | undefined, notice?: Notice) {
    let loadError: string | null = null;
    let rows: Awaited<ReturnType<ReportsService["listItems"]>>["rows"] = [];
    let total = 0;
    let nextInspectionId: number | null = null;
    try {
      ({ rows, total } = await deps.reports.listItems({
        limit: REPORT_PAGE_SIZE,
        offset: (page - 1) * REPORT_PAGE_SIZE,
        q,
        inspectorId,
      }));
      const pages = Math.max(1, Math.ceil(total / REPORT_PAGE_SIZE));
      // Past the last page (after a delete, or a typed URL): show the last page instead of nothing.
      if (page > pages) {
        page = pages;
        ({ rows, total } = await deps.reports.listItems({
          limit: REPORT_PAGE_SIZE,
          offset: (page - 1) * REPORT_PAGE_SIZE,
          q,
          inspectorId,
        }));
      }
      nextInspectionId = await deps.reports.nextInspectionToReport();
    } catch (error) {
      loadError = (error as Error).message;
    }
    return {
      rows,
      total,
      page,
      pages: Math.max(1, Math.ceil(total / REPORT_PAGE_SIZE)),
      pageSize: REPORT_PAGE_SIZE,
      q,
      notice,
      loadError,
      nextInspectionId,
      deleteConfirm: DELETE_CONFIRM,
      adminLabel,
      historyLabel,
      barColour,
    };
  }

  const render = async (req: Request, res: Response, notice?: Notice, firstPage = false) => {
    const { page, q } = reportsPageQuery.parse(req.query);
    const locals = {
      title: "Reports",
      admin: "reports",
      noindex: true,
      ...(await listLocals(firstPage ? 1 : page, q, inspectorScopeOf(req), notice)),
    };
    if (req.get("hx-request") === "true") return res.page("reports/_results", locals);
    // No islands: the share dialog is plain script in the admin script, and notices are rendered here.
    res.page("reports/index", locals);
  };

  router.get("/admin/reports", ...deps.staffPage, async (req, res) => {
    const outcome = typeof req.query.outcome === "string" ? req.query.outcome : "";
    const notices: Record<string, Notice> = {
      generated: { variant: "success", title: GENERATED_MESSAGE },
      "generate-failed": { variant: "error", title: GENERATE_FAILED_MESSAGE },
      none: { variant: "error", title: NO_INSPECTION_TITLE, description: NO_INSPECTION_MESSAGE },
      deleted: { variant: "success", title: DELETED_MESSAGE },
      "delete-failed": { variant: "error", title: DELETE_FAILED_MESSAGE },
    };
    await render(req, res, notices[outcome]);
  });

  /** Generate Report on the list: the first completed inspection without a report (staff-side §5). */
  router.post("/admin/reports/generate", ...deps.staffPage, async (req, res) => {
    let notice: Notice;
    let outcome: string;
    const inspectionId = await deps.reports.nextInspectionToReport();
    if (inspectionId === null) {
      notice = { variant: "error", title: NO_INSPECTION_TITLE, description: NO_INSPECTION_MESSAGE };
      outcome = "none";
    } else {
      try {
        await deps.reports.generate(inspectionId);
        notice = { variant: "success", title: GENERATED_MESSAGE };
        outcome = "generated";
      } catch (error) {
        req.log?.warn({ err: error, inspectionId }, "report generation refused");
        notice = {
          variant: "error",
          title: GENERATE_FAILED_MESSAGE,
          description: error instanceof HttpError && error.status < 500 ? error.message : undefined,
        };
        outcome = "generate-failed";
      }
    }
    // The newest report is on page 1.
    if (req.get("hx-request") === "true") return render(req, res, notice, outcome === "generated");
    res.redirect(303, `/admin/reports?outcome=${outcome}`);
  });

  router.post("/admin/reports/:id/delete", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    let notice: Notice;
    try {
      await deps.reports.delete(id);
      notice = { variant: "success", title: DELETED_MESSAGE };
    } catch (error) {
      req.log?.warn({ err: error, reportId: id }, "report delete failed");
      notice = { variant: "error", title: DELETE_FAILED_MESSAGE };
    }
    if (req.get("hx-request") === "true") return render(req, res, notice);
    const { page, q } = reportsPageQuery.parse(req.query);
    const back = new URLSearchParams({
      ...(page > 1 ? { page: String(page) } : {}),
      ...(q ? { q } : {}),
      outcome: notice.variant === "success" ? "deleted" : "delete-failed",
    });
    res.redirect(303, `/admin/reports?${back}`);
  });

  /** The report viewer (an island); the list's data for it is passed along, fetched again when empty. */
  router.get("/admin/reports/:id", ...deps.staffPage, async (req, res) => {
    const { id } = params(req, idParams);
    const report = await deps.reports.get(id);
    const { page, q } = reportsPageQuery.parse(req.query);
    const back = `/admin/reports${page > 1 || q ? `?${new URLSearchParams({ ...(page > 1 ? { page: String(page) } : {}), ...(q ? { q } : {}) })}` : ""}`;
    res.page("reports/view", {
      title: `Report #${report.id} · ${report.reportData.property.address}`,
      admin: "reports",
      noindex: true,
      islands: true,
      report,
      // The share dialog starts with the client's e-mail on file now (the snapshot's may be older).
      clientEmail:
        (await deps.customers.findPropertyFor({ kind: "staff" }, report.propertyId))?.clientEmail ??
        report.reportData.property.clientEmail ??
        "",
      viewerProps: { reportId: report.id, backHref: back, initial: report },
    });
  });

  router.get("/admin/property-history/:propertyId", ...deps.staffPage, async (req, res) => {
    const { propertyId } = params(req, propertyIdParams);
    const history = await deps.reports.history(propertyId);
    res.page("property-history/index", {
      title: `History · ${history.property.address}`,
      admin: "properties",
      noindex: true,
      history,
      addressLine: addressLine(history.property),
      chartSvg: scoreChartSvg(history.points),
      trendText,
      historyLabel,
      barColour,
    });
  });
  return router;
}
