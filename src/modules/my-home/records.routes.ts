// My Home's records: the Home, Reports and Quotes pages and their JSON calls under
// /api/my-home/. Routes are thin: RecordsService holds the rules and asks HomeAccess before anything.
import type { Request, Response, Router } from "express";
import { HttpError } from "../../http/errors.js";
import type { PageMeta } from "../../http/render.js";
import { body, params, query } from "../../http/validate.js";
import { QUOTE_STATUSES, formatCents } from "../quotes/quotes.constants.js";
import { NO_FIGURE_TEXT, QuoteExpiredError } from "../quotes/index.js";
import { bandKey, bandMeaning, barColour, clientPriorityLabel } from "../inspections/index.js";
import { scoreChartSvg, trendText } from "../reports/index.js";
import { pdfQuery, propertyIdParams } from "../reports/reports.schemas.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import { PHOTO_PARAMS, askQuoteSchema, homeIdParams, quoteDecisionFormSchema } from "./my-home.schemas.js";
import { NOT_QUOTABLE_MESSAGE, QUOTE_ANSWERED_MESSAGE, type RecordsService } from "./records.service.js";
import { createRouter } from "../../http/router.js";

export type HomeTab = "home" | "reports" | "quotes" | "visits" | "plan" | "account";

/** What the Home, Reports and Quotes pages and calls use. */
export interface RecordsRoutesDeps {
  records: RecordsService;
}

/**
 * Renders a records page, `views/my-home/<view>.ejs`, which starts with `include('_layout')`: the portal's
 * header (tabs with `tab` current, 'Sign out') under the site's own header, and the footer.
 */
function homePage(res: Response, view: string, tab: HomeTab, locals: PageMeta): void {
  // Personal data: never kept by a browser or a shared cache.
  res.setHeader("Cache-Control", "no-store");
  res.page(`my-home/${view}`, { noindex: true, footer: true, ...locals, tab });
}

const FLASH: Record<string, string> = {
  accepted: "Quote accepted. Our office books the work with you within 2 business days.",
  declined: "Quote declined. Nothing will be done about this item unless you ask again.",
  asked: "Quote requested. Haven will prepare it and let you know.",
  "asked-again": "Your note was added to the open quote request for this item.",
};

/** What went wrong with a page form, by code (a link can never put its own words on the page). */
const PROBLEMS: Record<string, string> = {
  answered: QUOTE_ANSWERED_MESSAGE,
  expired: "This quote has expired; ask us for a new one.",
  "not-quotable": NOT_QUOTABLE_MESSAGE,
  invalid: "Please check your note: it must be at most 2000 characters, as plain text.",
};

/** The flash and problem a page form's redirect names, by code. */
const notices = (q: Request["query"]) => ({
  flash: typeof q.done === "string" ? (FLASH[q.done] ?? null) : null,
  problem: typeof q.problem === "string" ? (PROBLEMS[q.problem] ?? null) : null,
});

/** Where a page form goes back to: a My Home path only (never another site). */
const backTo = (value: unknown, fallback: string) =>
  typeof value === "string" && /^\/my-home(\/[\w\-/]*)?$/.test(value) ? value : fallback;

const withParam = (path: string, key: string, value: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${key}=${encodeURIComponent(value)}`;

const dateText = (iso: string | null) =>
  iso
    ? new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso).toLocaleDateString("en-CA", {
        timeZone: "UTC",
        year: "numeric",
        month: "short",
        day: "numeric",
      })
    : "";

/** The view helpers of the records pages. */
const viewHelpers = {
  barColour,
  bandMeaning,
  bandKey,
  trendText,
  dateText,
  formatCents,
  clientPriorityLabel,
  quoteStatuses: QUOTE_STATUSES,
  // A quote without a single dollar figure (docs/decisions.md#42).
  noFigureText: NO_FIGURE_TEXT,
};

export function myHomeRecordsApi(deps: RecordsRoutesDeps): Router {
  const router = createRouter();
  const { records } = deps;

  router.get("/my-home/properties", requireHomeApi, async (_req, res) => {
    res.json(await records.properties(homeViewer(res).email));
  });

  router.get("/my-home/properties/:propertyId/history", requireHomeApi, async (req, res) => {
    const { propertyId } = params(req, propertyIdParams);
    res.json(await records.history(homeViewer(res).email, propertyId));
  });

  router.get("/my-home/reports", requireHomeApi, async (_req, res) => {
    res.json(await records.reports(homeViewer(res).email));
  });

  router.get("/my-home/reports/:id", requireHomeApi, async (req, res) => {
    const { id } = params(req, homeIdParams);
    res.json(await records.report(homeViewer(res).email, id));
  });

  router.get("/my-home/reports/:id/photos/:photoId", requireHomeApi, async (req, res) => {
    const { id, photoId } = params(req, PHOTO_PARAMS);
    const photo = await records.photo(homeViewer(res).email, id, photoId);
    res.setHeader("Cache-Control", "private, no-store");
    res.type(photo.mimeType).send(photo.bytes);
  });

  router.get("/my-home/quotes", requireHomeApi, async (_req, res) => {
    res.json(await records.quotes(homeViewer(res).email));
  });

  for (const decision of ["accept", "decline"] as const) {
    router.post(`/my-home/quotes/:id/${decision}`, requireHomeApi, async (req, res) => {
      const { id } = params(req, homeIdParams);
      res.json(await records.decide(homeViewer(res).email, id, decision));
    });
  }

  router.post("/my-home/quote-requests", requireHomeApi, async (req, res) => {
    const input = body(req, askQuoteSchema);
    const { quote, created } = await records.askQuote(homeViewer(res).email, input);
    res.status(created ? 201 : 200).json(quote);
  });

  return router;
}

export function myHomeRecordsPages(deps: RecordsRoutesDeps): Router {
  const router = createRouter();
  const { records } = deps;

  router.get("/my-home", requireHomePage, async (_req, res) => {
    const email = homeViewer(res).email;
    const [properties, quotes, reports] = await Promise.all([
      records.properties(email),
      records.quotes(email),
      records.reports(email),
    ]);
    homePage(res, "home", "home", {
      title: "My Home",
      description: "Your home's health, reports, quotes, visits and plan in one place.",
      properties,
      awaiting: quotes.filter((q) => q.status === "quoted"),
      sharedReports: reports.filter((r) => r.shared),
      ...viewHelpers,
    });
  });

  router.get("/my-home/reports", requireHomePage, async (_req, res) => {
    const email = homeViewer(res).email;
    const [reports, properties] = await Promise.all([records.reports(email), records.properties(email)]);
    homePage(res, "reports", "reports", { title: "Reports · My Home", reports, properties, ...viewHelpers });
  });

  router.get("/my-home/reports/:id", requireHomePage, async (req, res) => {
    const { id } = params(req, homeIdParams);
    const email = homeViewer(res).email;
    const payload = await records.report(email, id);
    const history = payload.shared ? null : await records.history(email, payload.property.id);
    homePage(res, "report", "reports", {
      title: `Report of ${dateText(payload.report.createdAt)} · My Home`,
      ...notices(req.query),
      islands: true,
      payload,
      history,
      chartSvg: history?.points.length ? scoreChartSvg(history.points) : null,
      ...viewHelpers,
    });
  });

  // Both PDFs, built from the snapshot like the staff download, for a homeowner who may read the report.
  router.get("/my-home/reports/:id/pdf", requireHomePage, async (req, res) => {
    const { id } = params(req, homeIdParams);
    const { format } = query(req, pdfQuery);
    const pdf = await records.pdf(homeViewer(res).email, id, format);
    res.type("application/pdf").setHeader("Content-Disposition", `attachment; filename="${pdf.name}"`);
    res.setHeader("Cache-Control", "private, no-store");
    res.send(pdf.bytes);
  });

  router.get("/my-home/quotes", requireHomePage, async (req, res) => {
    const email = homeViewer(res).email;
    const [quotes, open, properties] = await Promise.all([
      records.quotes(email),
      records.openRecommendations(email),
      records.properties(email),
    ]);
    homePage(res, "quotes", "quotes", {
      title: "Quotes · My Home",
      quotes,
      // 'Ask for a quote': open recommendations with no open request yet.
      askable: open.filter((r) => !r.quote),
      addresses: Object.fromEntries(properties.map((p) => [p.id, p.addressLine])),
      manyProperties: properties.length > 1,
      ...notices(req.query),
      ...viewHelpers,
    });
  });

  // The Quotes page's one-click Accept and Decline: plain form posts (no script needed), then back to the list.
  router.post("/my-home/quotes/:id/decision", requireHomePage, async (req, res) => {
    const { id } = params(req, homeIdParams);
    const back = backTo(req.body?.back, "/my-home/quotes");
    try {
      const { decision } = body(req, quoteDecisionFormSchema);
      await records.decide(homeViewer(res).email, id, decision);
      res.redirect(303, withParam(back, "done", decision === "accept" ? "accepted" : "declined"));
    } catch (error) {
      if (error instanceof QuoteExpiredError) return res.redirect(303, withParam(back, "problem", "expired"));
      if (error instanceof HttpError && error.status === 409)
        return res.redirect(303, withParam(back, "problem", "answered"));
      throw error;
    }
  });

  router.post("/my-home/quote-requests", requireHomePage, async (req, res) => {
    const back = backTo(req.body?.back, "/my-home/quotes");
    try {
      const input = body(req, askQuoteSchema);
      const { created } = await records.askQuote(homeViewer(res).email, input);
      res.redirect(303, withParam(back, "done", created ? "asked" : "asked-again"));
    } catch (error) {
      if (error instanceof HttpError && (error.status === 400 || error.status === 409))
        return res.redirect(303, withParam(back, "problem", error.status === 409 ? "not-quotable" : "invalid"));
      throw error;
    }
  });

  return router;
}
