// The client report's words (docs/decisions.md#64): the island's `report` messages and the `scoring` names it shows
// (band, priority, urgency and category names, one French name each: decision 41), shared by its parts through a
// context. `around` puts a React node where a message says one value (a bold count), the message keeping its order.
import { Fragment, type ReactNode, createContext, createElement, useContext } from "react";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { intlLocale } from "../../src/i18n/locales";
import type { ClientRecommendation } from "../../src/modules/sharing/sharing.schemas";

/** Stands for the value a React node replaces; no message holds it. */
const SLOT = "\u0000";

/** A label the code knows by its English text, as the catalogue keys it (src/i18n/catalogue.ts labelKey). */
const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A recommendation's level: its priority and urgency texts are keyed by it (inspections/bands.ts). */
const level = (p: string) => (p === "high" || p === "medium" ? p : "low");

export function reportWords(bundle: IslandMessages) {
  const t: IslandT = islandTranslator(bundle);
  /** A name from the catalogue (`scoring.category`, `scoring.band`), or the English name when it has none. */
  const label = (prefix: string, english: string) => {
    const key = `${prefix}.${slug(english)}`;
    return bundle.messages[key] ? t(key) : english;
  };
  return {
    t,
    /** The browser's Intl in the page's language (the report's one date): no formatter module for one date. */
    lang: intlLocale(bundle.locale),
    /**
     * A homeowner page's address in the page's language (docs/decisions.md#65): every page this island links to has
     * a French twin, so it is src/i18n/routing.ts localePath's answer without its list of pages.
     */
    to: (path: string) => (bundle.locale === "fr-CA" ? `/fr${path}` : path),
    label,
    priority: (p: string) => t(`scoring.priority.${level(p)}`),
    /** The urgency the report data says in English is its priority's (urgencyText at generation). */
    urgency: (p: string) => t(`scoring.urgency.${level(p)}`),
    /** The point's name as the server said it in the page's language (docs/decisions.md#78), else as stored. */
    item: (r: ClientRecommendation) => r.said?.subcategory ?? r.subcategory,
    /** The message with `node` where it says `{name}` (once): t("report.answered", …) with the count in bold. */
    around(key: string, values: Record<string, string | number>, name: string, node: ReactNode): ReactNode {
      const [before, after] = t(key, { ...values, [name]: SLOT }).split(SLOT);
      return createElement(Fragment, null, before, node, after);
    },
  };
}

export type ReportWords = ReturnType<typeof reportWords>;

export const WordsContext = createContext<ReportWords | null>(null);

/** The report's words, in the page's language. */
export function useWords(): ReportWords {
  // Always inside ClientReport's provider.
  return useContext(WordsContext)!;
}
