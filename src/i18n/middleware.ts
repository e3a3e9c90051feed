// Language by address (docs/decisions.md#65), as middleware: right after canonicalPath (docs/decisions.md#45), a
// request to /fr/<page> is routed as /<page> in French, so every guard and router after it reads the one English
// path and opens exactly what that path opens. /fr before anything without a French twin (staff pages, /api, files)
// is a 404. The page cache keys on the original URL (src/http/render.ts), so each language keeps its own copy.
import type { RequestHandler, Response } from "express";
import { type Translator, labelKey, translator } from "./catalogue.js";
import { type Formatters, formatters, phoneText } from "./format.js";
import { DEFAULT_LOCALE, type Locale, PSEUDO_LOCALE, type RenderLocale } from "./locales.js";
import { hasFrench, localePath, splitLocale } from "./routing.js";

declare global {
  namespace Express {
    interface Request {
      /** The language the address names (en-CA unless under /fr). */
      locale: Locale;
    }
  }
}

/** What every view gets in its locals (docs/decisions.md#64). */
export interface LocaleLocals {
  /** The language the page is rendered in: <html lang>, Intl. */
  locale: RenderLocale;
  t: Translator;
  /** The page's other language (French on an English page): the language switch and the suggestion line use it. */
  otherLocale: Locale;
  tOther: Translator;
  /** Money, numbers, dates and times in the page's language. */
  intl: Formatters;
  /** A phone number as the page's language writes it: "(613) 555-0142" / "613-555-0142" (format.ts phoneText). */
  phoneText(number: string): string;
  /** A homeowner page's address in the page's language: href('/pricing') is '/fr/pricing' on a French page. */
  href(url: string): string;
  /** labelKey("scoring.band", "Well Appointed") → "scoring.band.well-appointed" (src/i18n/catalogue.ts). */
  labelKey: typeof labelKey;
  /** The page's own address (path and query) in each language, when it has a French twin; else null. */
  alternates: Record<Locale, string> | null;
}

const translators = new Map<RenderLocale, Translator>();
const translatorOf = (locale: RenderLocale) => {
  let t = translators.get(locale);
  if (!t) {
    t = translator(locale);
    translators.set(locale, t);
  }
  return t;
};

/** The locals of a page in a language (also used by e-mails and PDFs that render EJS outside a request). */
export function localeLocals(locale: RenderLocale, timeZone: string, url = "/"): LocaleLocals {
  const addressLocale: Locale = locale === PSEUDO_LOCALE ? DEFAULT_LOCALE : locale;
  const otherLocale: Locale = addressLocale === "fr-CA" ? "en-CA" : "fr-CA";
  return {
    locale,
    t: translatorOf(locale),
    otherLocale,
    tOther: translatorOf(otherLocale),
    intl: formatters(locale, timeZone),
    phoneText: (number) => phoneText(locale, number),
    href: (target) => localePath(target, addressLocale),
    labelKey,
    alternates: alternatesOf(url),
  };
}

/** A page's own address (path and query) in each language, when it has a French twin. */
function alternatesOf(url: string): LocaleLocals["alternates"] {
  const queryAt = url.search(/[?#]/);
  const path = queryAt >= 0 ? url.slice(0, queryAt) : url;
  return hasFrench(path) ? { "en-CA": url, "fr-CA": localePath(url, "fr-CA") } : null;
}

/** A redirect from a French page to another homeowner page stays in French. */
function keepFrenchInRedirects(res: Response) {
  const redirect = res.redirect.bind(res) as (status: number, url: string) => void;
  res.redirect = ((first: number | string, second?: string | number) => {
    const [status, url] = typeof first === "number" ? [first, String(second)] : [302, String(first)];
    redirect(status, localePath(url, "fr-CA"));
  }) as Response["redirect"];
}

export interface LocaleOptions {
  timeZone: string;
  /** Tests only: English pages render in the pseudo locale (tests/support/pseudo-locale.ts). */
  pseudo?: boolean;
}

export function localeFromAddress(options: LocaleOptions): RequestHandler {
  // All but the page's alternates is the same for every request in a language: made once per language.
  const shared = new Map<RenderLocale, LocaleLocals>();
  return (req, res, next) => {
    const { locale, path } = splitLocale(req.path);
    req.locale = locale;
    if (locale !== DEFAULT_LOCALE) {
      // A 404 as a library raises one (src/http/errors.ts toHttpError), so the error pages may use this file's locals.
      if (!hasFrench(path)) return next(Object.assign(new Error("Not found"), { status: 404, expose: true }));
      // The rest of the stack routes the English path; req.originalUrl keeps the address as sent.
      req.url = `${path}${req.url.slice(req.path.length)}`;
      keepFrenchInRedirects(res);
    }
    const englishUrl = req.url;
    const rendered: RenderLocale = locale === DEFAULT_LOCALE && options.pseudo ? PSEUDO_LOCALE : locale;
    let locals = shared.get(rendered);
    if (!locals) {
      locals = localeLocals(rendered, options.timeZone);
      shared.set(rendered, locals);
    }
    Object.assign(res.locals, locals);
    res.locals.alternates = alternatesOf(englishUrl);
    next();
  };
}
