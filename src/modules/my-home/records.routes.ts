// My Home's records: the Home, Reports and Quotes pages and their JSON calls under
// /api/my-home/. Routes are thin: RecordsService holds the rules and asks HomeAccess before anything.
import type { Request, Response, Router } from "express";
import { HttpError } from "../../http/errors.js";
import type { PageMeta } from "../../http/render.js";
import { body, params, query } from "../../http/validate.js";
import { QUOTE_STATUSES } from "../quotes/quotes.constants.js";
import { QuoteExpiredError } from "../quotes/index.js";
import { bandKey, barColour, marketingBand } from "../inspections/index.js";
import { scoreChartSvg, trendText } from "../reports/index.js";
import { pdfQuery, propertyIdParams } from "../reports/reports.schemas.js";
import { homeViewer, requireHomeApi, requireHomePage } from "./home-session.js";
import { PHOTO_PARAMS, askQuoteSchema, homeIdParams, quoteDecisionFormSchema } from "./my-home.schemas.js";
import type { RecordsService } from "./records.service.js";
import { createRouter } from "../../http/router.js";
import { apiLocale } from "../../i18n/api-locale.js";
import {
  DEFAULT_LOCALE,
  type Formatters,
  type Translator,
  catalogueKeys,
  islandMessages,
  labelKey,
} from "../../i18n/index.js";

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

/** What a page form did, by code: the catalogue's myhome.flash.<code>. */
const FLASHES = new Set(["accepted", "declined", "asked", "asked-again"]);

/**
 * What went wrong with a page form, by code (a link can never put its own words on the page): the catalogue's
 * myhome.problem.<code> (answered and not-quotable say the service's QUOTE_ANSWERED_MESSAGE and NOT_QUOTABLE_MESSAGE).
 */
const PROBLEMS = new Set(["answered", "expired", "not-quotable", "invalid"]);

/** The flash and problem a page form's redirect names, by code, in the page's language. */
const notices = (q: Request["query"], res: Response) => {
  const t = res.locals.t as Translator;
  return {
    flash: typeof q.done === "string" && FLASHES.has(q.done) ? t(`myhome.flash.${q.done}`) : null,
    problem: typeof q.problem === "string" && PROBLEMS.has(q.problem) ? t(`myhome.problem.${q.problem}`) : null,
  };
};

/** Where a page form goes back to: a My Home path only (never another site). */
const backTo = (value: unknown, fallback: string) =>
  typeof value === "string" && /^\/my-home(\/[\w\-/]*)?$/.test(value) ? value : fallback;

const withParam = (path: string, key: string, value: string) =>
  `${path}${path.includes("?") ? "&" : "?"}${key}=${encodeURIComponent(value)}`;

/** A report's date as the list shows it ("Nov 25, 2026", "25 nov. 2026"): the day in UTC, in the page's language. */
const dateTextIn = (intl: Formatters) => (iso: string | null) =>
  iso ? intl.dateTime(iso, { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" }) : "";

/** The view helpers of the records pages, in the page's language (res.locals' t and intl). */
const viewHelpers = (res: Response) => {
  const intl = res.locals.intl as Formatters;
  const t = res.locals.t as Translator;
  return {
    barColour,
    marketingBand,
    bandKey,
    trendText,
    dateText: dateTextIn(intl),
    /** formatCents' twin: cents shown only when there are some ("$1,200", "$1,200.50"). */
    moneyCents: (cents: number) => intl.money(cents / 100, { whole: cents % 100 === 0 }),
    categoryText: categoryTextIn(t),
    quoteStatuses: QUOTE_STATUSES,
    // A quote without a single dollar figure (docs/decisions.md#42).
    noFigureText: t("quotes.noFigure"),
  };
};

const KNOWN_KEYS = new Set(catalogueKeys(DEFAULT_LOCALE));
/** A category's name in the page's language (scoring.category.*, decision 41); a name the catalogue lacks stays. */
export const categoryTextIn = (t: Translator) => (name: string) => {
  const key = labelKey("scoring.category", name);
  return KNOWN_KEYS.has(key) ? t(key) : name;
};

/** A page title in the page's language. */
const titleOf = (res: Response, key: string, values?: Record<string, string>) =>
  (res.locals.t as Translator)(key, values);

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
    res.json(await records.report(homeViewer(res).email, id, apiLocale(req)));
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
      title: titleOf(res, "myhome.name"),
      description: titleOf(res, "myhome.home.description"),
      properties,
      awaiting: quotes.filter((q) => q.status === "quoted"),
      sharedReports: reports.filter((r) => r.shared),
      ...viewHelpers(res),
    });
  });

  router.get("/my-home/reports", requireHomePage, async (_req, res) => {
    const email = homeViewer(res).email;
    const [reports, properties] = await Promise.all([records.reports(email), records.properties(email)]);
    homePage(res, "reports", "reports", {
      title: titleOf(res, "myhome.reports.title"),
      reports,
      properties,
      ...viewHelpers(res),
    });
  });

  router.get("/my-home/reports/:id", requireHomePage, async (req, res) => {
    const { id } = params(req, homeIdParams);
    const email = homeViewer(res).email;
    const payload = await records.report(email, id);
    const history = payload.shared ? null : await records.history(email, payload.property.id);
    const helpers = viewHelpers(res);
    homePage(res, "report", "reports", {
      title: titleOf(res, "myhome.report.title", { date: helpers.dateText(payload.report.createdAt) }),
      ...notices(req.query, res),
      islands: true,
      // The client report island's own messages and the scoring names it shows (docs/decisions.md#64).
      reportMessages: islandMessages(res.locals.locale, "report", "scoring"),
      payload,
      history,
      chartSvg: history?.points.length
        ? scoreChartSvg(history.points, undefined, undefined, (summary) =>
            titleOf(res, "myhome.report.chart", { summary }),
          )
        : null,
      ...helpers,
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
      title: titleOf(res, "myhome.quotes.title"),
      quotes,
      // 'Ask for a quote': open recommendations with no open request yet.
      askable: open.filter((r) => !r.quote),
      addresses: Object.fromEntries(properties.map((p) => [p.id, p.addressLine])),
      manyProperties: properties.length > 1,
      ...notices(req.query, res),
      ...viewHelpers(res),
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
