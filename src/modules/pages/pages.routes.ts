import type { Response, Router } from "express";
import type { Translator } from "../../i18n/index.js";
import { sampleReport } from "../../../seeds/sample-report.js";
import { MARKETING_BANDS, barColour, categoryBand, marketingBand } from "../inspections/index.js";
import { HOME_POSTAL_CODE_PATTERN } from "../payments/index.js";
import type { PlansService } from "../plans/index.js";
import * as content from "./pages.content.js";
import { createRouter } from "../../http/router.js";
import { localePath } from "../../i18n/routing.js";

/** Pages listed in sitemap.xml: the public, indexable marketing pages. */
export const SITEMAP_PATHS = [
  "/",
  "/pricing",
  "/haven-health-report",
  "/health-report-explainer",
  "/sample-report",
  "/contact",
  "/maintenance-hub",
];

/** The page's translator (src/i18n/middleware.ts): its titles and descriptions come from the catalogue too. */
const tOf = (res: Response) => res.locals.t as Translator;

// Fixed-content pages are rendered once a minute at most (they hold nothing personal).
const STATIC_PAGE_CACHE_MS = 60_000;

// Helpers every marketing view may use to colour a score the way §9 says.
const scoring = { barColour, marketingBand, categoryBand, MARKETING_BANDS };

/** What the public pages use; src/app.ts passes them (docs/architecture.md "Modules and layers"). */
export interface PagesRoutesDeps {
  plans: Pick<PlansService, "list">;
  /** PUBLIC_URL without its trailing slash (src/http/origin.ts publicOrigin), for robots.txt and the sitemap. */
  publicUrl: string;
}

export function pagesRouter(deps: PagesRoutesDeps): Router {
  const router = createRouter();

  router.get("/", (_req, res) => {
    const t = tOf(res);
    res.page("pages/home", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("home.meta.title"),
      description: t("home.meta.description"),
      footer: true,
      content,
    });
  });

  // Not cached: POST /checkout/start comes back here with ?checkout_error=1 when a session fails.
  router.get("/pricing", async (req, res) => {
    const plans = await deps.plans.list();
    const t = tOf(res);
    res.page("pages/pricing", {
      title: t("pricing.meta.title"),
      description: t("pricing.meta.description"),
      footer: true,
      plans,
      content,
      scoring,
      checkoutError: req.query.checkout_error === "1",
      postalPattern: HOME_POSTAL_CODE_PATTERN,
    });
  });

  router.get("/haven-health-report", (_req, res) => {
    const t = tOf(res);
    res.page("pages/health-report", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.hr.meta.title"),
      description: t("marketing.hr.meta.description"),
      footer: true,
      content,
      scoring,
    });
  });

  router.get("/health-report-explainer", (_req, res) => {
    const t = tOf(res);
    res.page("pages/explainer", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.explainer.meta.title"),
      description: t("marketing.explainer.meta.description"),
      footer: true,
      content,
      scoring,
    });
  });

  router.get("/sample-report", (_req, res) => {
    const t = tOf(res);
    res.page("pages/sample-report", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.sample.meta.title"),
      description: t("marketing.sample.meta.description"),
      footer: true,
      report: sampleReport(),
      scoring,
    });
  });

  router.get("/contact", (_req, res) => {
    const t = tOf(res);
    res.page("pages/contact", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.contact.meta.title"),
      description: t("marketing.contact.meta.description"),
      footer: true,
    });
  });

  router.get("/maintenance-hub", (_req, res) => {
    const t = tOf(res);
    res.page("pages/maintenance-hub", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.hub.meta.title"),
      description: t("marketing.hub.meta.description"),
      footer: true,
      content,
    });
  });

  router.get("/free-report", (_req, res) => {
    const t = tOf(res);
    res.page("pages/free-report", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.free.meta.title"),
      description: t("marketing.free.meta.description"),
      report: content.FREE_REPORT,
      noindex: true,
    });
  });

  router.get("/report-expired", (_req, res) => {
    const t = tOf(res);
    res.page("pages/report-expired", {
      cacheTtlMs: STATIC_PAGE_CACHE_MS,
      title: t("marketing.expired.meta.title"),
      description: t("marketing.expired.meta.description"),
      noindex: true,
    });
  });

  router.get("/robots.txt", (_req, res) => {
    const base = deps.publicUrl;
    res
      .type("text/plain")
      .send(
        [
          "User-agent: *",
          "Disallow: /admin",
          "Disallow: /api/",
          "Disallow: /client-report/",
          "Disallow: /report-expired",
          "",
          `Sitemap: ${base}/sitemap.xml`,
          "",
        ].join("\n"),
      );
  });

  // Every page in both languages, each naming its twin (docs/decisions.md#65).
  router.get("/sitemap.xml", (_req, res) => {
    const base = deps.publicUrl;
    const urls = SITEMAP_PATHS.flatMap((p) => {
      const english = `${base}${p}`;
      const french = `${base}${localePath(p, "fr-CA")}`;
      const twins = [
        `<xhtml:link rel="alternate" hreflang="en-CA" href="${english}"/>`,
        `<xhtml:link rel="alternate" hreflang="fr-CA" href="${french}"/>`,
        `<xhtml:link rel="alternate" hreflang="x-default" href="${english}"/>`,
      ].join("");
      return [english, french].map((loc) => `  <url><loc>${loc}</loc>${twins}</url>`);
    }).join("\n");
    res
      .type("application/xml")
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls}\n</urlset>\n`,
      );
  });

  return router;
}
