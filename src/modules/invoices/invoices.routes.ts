// The staff's invoice calls (docs/decisions.md#33, #34): the list (and its CSV for the accountant), one invoice,
// its PDF, a refund and its credit note's PDF, and the GST/HST report. The rules are InvoicesService's, RefundsService's and TaxReportService's.
import type { Router } from "express";
import { sendCsv, wantsCsv } from "../../http/csv.js";
import { idParams } from "../../http/fields.js";
import { requireStaffApi, staffActor } from "../../http/guards.js";
import { body, params, parse, query } from "../../http/validate.js";
import { addDays, startOfBusinessDay } from "../../shared/business-time.js";
import { invoiceListQuerySchema, refundSchema, resendKeySchema, taxReportQuerySchema } from "./invoices.schemas.js";
import type { InvoicesService } from "./invoices.service.js";
import { type TaxReportService, taxReportRows } from "./tax-report.js";
import { createRouter } from "../../http/router.js";

export interface InvoicesRoutesDeps {
  invoices: InvoicesService;
  taxReport: TaxReportService;
  timeZone: string;
}

export function invoicesApi({ invoices, taxReport, timeZone }: InvoicesRoutesDeps): Router {
  const router = createRouter();

  router.get("/invoices", requireStaffApi, async (req, res) => {
    const { limit, offset, q, subscriptionId, amount, from, to, status } = query(req, invoiceListQuerySchema);
    const filter = {
      q,
      subscriptionId,
      status,
      amountCents: amount,
      from: from ? startOfBusinessDay(from, timeZone) : undefined,
      to: to ? startOfBusinessDay(addDays(to, 1), timeZone) : undefined,
    };
    if (wantsCsv(req)) return sendCsv(res, { name: "invoices", batches: invoices.batches(filter) });
    const { rows, total } = await invoices.list({ ...filter, limit, offset });
    res.setHeader("X-Total-Count", String(total));
    res.json(rows);
  });

  router.get("/invoices/:id", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    res.json(await invoices.get(id));
  });

  router.get("/invoices/:id/pdf", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { filename, body: pdf } = await invoices.pdf(id);
    res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="${filename}"`).send(pdf);
  });

  router.post("/invoices/:id/refund", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const input = body(req, refundSchema);
    const key = req.get("Idempotency-Key")?.slice(0, 200) || null;
    const { refund, invoice, repeated } = await invoices.refund(id, { ...input, key, actor: staffActor(req) });
    // Sent to Stripe and not confirmed: 202, the refund `pending`; the job or a repeat finishes it (decisions.md#52).
    res.status(refund.status === "pending" ? 202 : repeated ? 200 : 201).json({ refund, invoice });
  });

  // A refund's credit note (docs/decisions.md#52).
  router.get("/refunds/:id/pdf", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { filename, body: pdf } = await invoices.refundPdf(id);
    res.type("application/pdf").setHeader("Content-Disposition", `inline; filename="${filename}"`).send(pdf);
  });

  // One e-mail per click: the client's Idempotency-Key (or the body's `key`) seen again within a minute answers the
  // first resend with 200 and sends nothing (invoices.md, "Resending a receipt").
  router.post("/invoices/:id/resend-receipt", requireStaffApi, async (req, res) => {
    const { id } = params(req, idParams);
    const { key } = parse(resendKeySchema, { key: req.get("Idempotency-Key") ?? (req.body as { key?: unknown })?.key });
    const { resend, invoice, repeated } = await invoices.resendReceipt(id, {
      key: key ?? null,
      actor: staffActor(req),
    });
    res.status(repeated ? 200 : 201).json({ resend, invoice, repeated });
  });

  router.get("/tax-report", requireStaffApi, async (req, res) => {
    const { from, to } = query(req, taxReportQuerySchema);
    const csv = wantsCsv(req);
    const report = await taxReport.report(from, to);
    if (!csv) return res.json(report);
    const rows = taxReportRows(report);
    return sendCsv(res, {
      name: `tax-report-${from}-to-${to}`,
      batches: (async function* () {
        yield rows;
      })(),
    });
  });

  return router;
}
