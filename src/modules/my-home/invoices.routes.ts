// My Home: the homeowner's invoices (docs/decisions.md#33): the list and one invoice as JSON, and each one's PDF as a
// page link (the receipt e-mail's) and as a call. Anyone else's invoice is a 404, as an unknown one is.
import type { Response, Router } from "express";
import { params } from "../../http/validate.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import type { HomePlanPage } from "./plan.service.js";
import { invoiceParams } from "./visits.schemas.js";
import { createRouter } from "../../http/router.js";

export interface HomeInvoicesRoutesDeps {
  planPage: Pick<HomePlanPage, "invoicePdf" | "plans" | "receipt">;
}

/** An invoice as the homeowner's calls answer it: its figures, its plan and home, and its PDF's address. */
const withPlan = (
  plan: { subscription: { id: number; planName: string; propertyAddress: string | null } },
  invoice: { id: number },
) => ({
  ...invoice,
  subscriptionId: plan.subscription.id,
  planName: plan.subscription.planName,
  propertyAddress: plan.subscription.propertyAddress,
  pdfUrl: `/api/my-home/invoices/${invoice.id}/pdf`,
});

export function homeInvoicesRoutes({ planPage }: HomeInvoicesRoutesDeps): { api: Router; pages: Router } {
  const send = async (res: Response, id: number) => {
    const { filename, body } = await planPage.invoicePdf(homeViewer(res).email, id);
    res
      .setHeader("Cache-Control", "no-store")
      .type("application/pdf")
      .setHeader("Content-Disposition", `inline; filename="${filename}"`)
      .send(body);
  };
  const api = createRouter();
  // Every invoice of the homeowner's plans, newest first within each home.
  api.get("/my-home/invoices", requireHomeApi, async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const plans = await planPage.plans(homeViewer(res).email);
    res.json({ invoices: plans.flatMap((plan) => plan.invoices.map((invoice) => withPlan(plan, invoice))) });
  });
  api.get("/my-home/invoices/:id", requireHomeApi, async (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const { plan, invoice } = await planPage.receipt(homeViewer(res).email, params(req, invoiceParams).id);
    res.json(withPlan(plan, invoice));
  });
  api.get("/my-home/invoices/:id/pdf", requireHomeApi, async (req, res) => send(res, params(req, invoiceParams).id));
  const pages = createRouter();
  pages.get("/my-home/plan/invoices/:id/pdf", requireHomePage, async (req, res) =>
    send(res, params(req, invoiceParams).id),
  );
  return { api, pages };
}
