// How My Home's Plan pages, the receipt and the billing link's pages say amounts, dates, plan names, statuses and a card's refusal in the page's
// language (docs/decisions.md#70). The plan service words its charges in English ("$370.00 CAD ($327.43 + HST
// $42.57)", subscriptions' chargeWords, as e-mails and the API say them); English pages show them as they are and
// French ones say them again: amounts through Intl ("370,00 $"), taxes by their French names (TPS, TVH, TVQ).
import type { RequestHandler, Response } from "express";
import { type Formatters, type Translator, catalogueKeys } from "../../i18n/index.js";
import { DEFAULT_LOCALE } from "../../i18n/locales.js";
import { cardRefusal } from "./card-declines.js";
import { billingAmount, billingDate } from "./subscriptions.mail.js";

const KNOWN = new Set(catalogueKeys(DEFAULT_LOCALE));
/** The taxes' French names (the glossary): GST/HST/QST → TPS/TVH/TVQ. */
const FRENCH_TAX: Record<string, string> = { GST: "TPS", HST: "TVH", QST: "TVQ" };

/** The plan pages' words, from the request's t and intl, in the business zone. */
export function billingWords(res: Response, timeZone: string) {
  const t = res.locals.t as Translator;
  const intl = res.locals.intl as Formatters;
  const french = t.locale === "fr-CA";
  const known = (key: string) => KNOWN.has(key);
  /** 'HST 13%' → 'TVH 13 %' on a French page. */
  const tax = (label: string) =>
    french ? label.replace(/\b(GST|HST|QST)\b/g, (kind) => FRENCH_TAX[kind]!).replace(/(\d)%/g, "$1\u00a0%") : label;
  return {
    /** '$370.00 CAD' / '370,00 $ CA' */
    amount: (dollars: number) =>
      french ? t("mail.billing.money", { amount: intl.money(dollars) }) : billingAmount(dollars),
    /** 'April 30, 2026' / '30 avril 2026' */
    date: (iso: string) =>
      french
        ? billingDate(iso, timeZone, t.locale)
        : intl.dateTime(new Date(iso), { timeZone, year: "numeric", month: "long", day: "numeric" }),
    /** A charge the service worded in English, said again in French. */
    charge: (words: string) =>
      french
        ? tax(words)
            .replace(/\$([\d,]+(?:\.\d+)?)/g, (_, n: string) => intl.money(Number(n.replace(/,/g, ""))))
            .replace(/ CAD\b/g, " CA")
        : words,
    tax,
    /** A plan's name by its type (plans.<type>.name, decision 41); a name the catalogue lacks stays. */
    plan: (type: string | null | undefined, name: string) =>
      type && known(`plans.${type}.name`) ? t(`plans.${type}.name`) : name,
    status: (status: string, label: string) =>
      known(`my-home-plan.status.${status}`) ? t(`my-home-plan.status.${status}`) : label,
    /** Why the last payment failed: the card's refusal in the page's language, by its code when stored, else by its message. */
    refusal: (message: string, code?: string | null) => cardRefusal(t, message, code),
  };
}

/** The page's translator (res.locals.t: the address's language). */
export const pageT = (res: Response) => res.locals.t as Translator;

/** A plan page's `words`, for every page under a router's path. */
export const billingWordsLocals =
  (timeZone: string): RequestHandler =>
  (_req, res, next) => {
    res.locals.words = billingWords(res, timeZone);
    next();
  };

/** What a plan page's form did, by its code among `codes`: My Home's sentence for it (my-home-plan.flash.<code>). */
export const planFlash = (res: Response, done: unknown, codes: readonly string[]) =>
  typeof done === "string" && codes.includes(done) ? pageT(res)(`my-home-plan.flash.${done}`) : null;
