// /admin/tax: the GST/HST report for staff (docs/decisions.md#32–34), the same figures as `haven tax report` and
// GET /api/tax-report: collected, refunded and net by province and rate, for a range of business days.
import type { RequestHandler, Router } from "express";
import { z } from "zod";
import { isIsoDate, todayIn } from "../../shared/business-time.js";
import type { TaxReportService } from "./tax-report.js";
import { createRouter } from "../../http/router.js";

export interface TaxReportPagesDeps {
  taxReport: Pick<TaxReportService, "report">;
  staffPage: RequestHandler[];
  timeZone: string;
}

const day = z
  .string()
  .trim()
  .refine((v) => isIsoDate(v), "Enter a date as YYYY-MM-DD");

export function taxReportPages({ taxReport, staffPage, timeZone }: TaxReportPagesDeps): Router {
  const router = createRouter();
  router.get("/admin/tax", ...staffPage, async (req, res) => {
    // The current calendar quarter by default: GST/HST returns are commonly quarterly.
    const today = todayIn(timeZone);
    const quarter = Math.floor((Number(today.slice(5, 7)) - 1) / 3);
    const defaults = {
      from: `${today.slice(0, 4)}-${String(quarter * 3 + 1).padStart(2, "0")}-01`,
      to: today,
    };
    const typed = { from: String(req.query.from ?? defaults.from), to: String(req.query.to ?? defaults.to) };
    const errors: Record<string, string> = {};
    for (const key of ["from", "to"] as const) {
      const checked = day.safeParse(typed[key]);
      if (!checked.success) errors[key] = checked.error.issues[0]!.message;
    }
    if (!errors.from && !errors.to && typed.from > typed.to) errors.from = "From must be on or before To";
    const report = Object.keys(errors).length ? null : await taxReport.report(typed.from, typed.to);
    const money = (dollars: number) =>
      `$${dollars.toLocaleString("en-CA", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    res.status(report ? 200 : 400).page("subscriptions/tax", {
      title: "Sales tax | Subscriptions",
      admin: "subscriptions",
      noindex: true,
      values: typed,
      errors,
      report,
      money,
      timeZone,
    });
  });
  return router;
}
