// My Home: the PDF of each of the homeowner's invoices (docs/decisions.md#33), as a page link (the receipt e-mail's)
// and as a JSON-area call. Anyone else's invoice is a 404, as an unknown one is (HomePlanPage.invoicePdf).
import { type Response, Router } from "express";
import { params } from "../../http/validate.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import type { HomePlanPage } from "./plan.service.js";
import { invoiceParams } from "./visits.schemas.js";

export interface HomeInvoicesRoutesDeps {
  planPage: Pick<HomePlanPage, "invoicePdf">;
}

export function homeInvoicesRoutes({ planPage }: HomeInvoicesRoutesDeps): { api: Router; pages: Router } {
  const send = async (res: Response, id: number) => {
    const { filename, body } = await planPage.invoicePdf(homeViewer(res).email, id);
    res
      .setHeader("Cache-Control", "no-store")
      .type("application/pdf")
      .setHeader("Content-Disposition", `inline; filename="${filename}"`)
      .send(body);
  };
  const api = Router();
  api.get("/my-home/invoices/:id/pdf", requireHomeApi, async (req, res) => send(res, params(req, invoiceParams).id));
  const pages = Router();
  pages.get("/my-home/plan/invoices/:id/pdf", requireHomePage, async (req, res) =>
    send(res, params(req, invoiceParams).id),
  );
  return { api, pages };
}
