// Language by address (docs/decisions.md#65): a homeowner page at /x is in English and at /fr/x in French, the same
// path. Staff pages, /api, files and feeds have no French address. Pure: the middleware, the sitemap, the bench and
// the tests share it.
import { DEFAULT_LOCALE, LOCALE_PREFIX, type Locale } from "./locales.js";

/**
 * The homeowner pages that have a French address: each path and everything under it ("/my-home" is also
 * "/my-home/plan"). A page added here is served at /fr too; its view then takes its texts from the catalogue.
 */
export const FRENCH_PAGES: readonly string[] = [
  "/",
  // The marketing pages (src/modules/pages).
  "/pricing",
  "/haven-health-report",
  "/health-report-explainer",
  "/sample-report",
  "/contact",
  "/maintenance-hub",
  "/free-report",
  "/report-expired",
  // Buying, intake, booking and onboarding.
  "/checkout",
  "/demo-checkout",
  "/payment-success",
  "/property-intake",
  "/book-inspection",
  "/schedule-inspection",
  "/booking-confirmation",
  "/onboarding",
  "/onboarding-flow",
  // What a homeowner reads and answers: reports, quotes, billing links, My Home.
  "/client-report",
  "/quote-report",
  "/quote-pay",
  "/billing",
  "/my-home",
];

/** True when this (canonical, English) path is a homeowner page with a French twin. */
export function hasFrench(path: string): boolean {
  if (path === "/") return true;
  return FRENCH_PAGES.some((page) => page !== "/" && (path === page || path.startsWith(`${page}/`)));
}

const FRENCH_PREFIX = LOCALE_PREFIX["fr-CA"];

/** The language an address names and the English path it stands for: "/fr/pricing" → fr-CA, "/pricing". */
export function splitLocale(path: string): { locale: Locale; path: string } {
  if (path === FRENCH_PREFIX) return { locale: "fr-CA", path: "/" };
  if (path.startsWith(`${FRENCH_PREFIX}/`)) return { locale: "fr-CA", path: path.slice(FRENCH_PREFIX.length) };
  return { locale: DEFAULT_LOCALE, path };
}

/** A page's address in a language: ("/pricing", fr-CA) → "/fr/pricing", ("/", fr-CA) → "/fr". Keeps a query. */
export function localePath(url: string, locale: Locale): string {
  const prefix = LOCALE_PREFIX[locale];
  if (!prefix || !url.startsWith("/") || url.startsWith("//")) return url;
  const queryAt = url.search(/[?#]/);
  const path = queryAt >= 0 ? url.slice(0, queryAt) : url;
  if (!hasFrench(path)) return url;
  return `${prefix}${path === "/" ? "" : path}${queryAt >= 0 ? url.slice(queryAt) : ""}`;
}
