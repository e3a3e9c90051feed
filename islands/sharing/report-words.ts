// The client report's words (docs/decisions.md#64): the island's `report` messages and the `scoring` names it shows
// (band, priority, urgency and category names, one French name each: decision 41), shared by its parts through a
// context. `rich` formats a message whose tags wrap React nodes (a bold count, a screen-reader-only tail).
import { IntlMessageFormat } from "intl-messageformat";
import { Fragment, type ReactNode, createContext, createElement, useContext } from "react";
import { intlLocale } from "../../src/i18n/locales";
import { type IslandMessages, type IslandT, islandFormatters, islandTranslator } from "../ui/i18n";

type Values = Record<string, string | number>;
type Tags = Record<string, (chunks: ReactNode[]) => ReactNode>;

/** A label the code knows by its English text, as the catalogue keys it (src/i18n/catalogue.ts labelKey). */
const slug = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** The urgency texts the report data carries (inspections/bands.ts urgencyText), by priority. */
const URGENCY_PRIORITY: Record<string, string> = { Urgent: "high", "30 Days": "medium", "60 Days": "low" };

export function reportWords(bundle: IslandMessages) {
  const t: IslandT = islandTranslator(bundle);
  const lang = intlLocale(bundle.locale);
  /** A name from the catalogue (`scoring.category`, `scoring.band`), or the English name when it has none. */
  const label = (prefix: string, english: string) => {
    const key = `${prefix}.${slug(english)}`;
    return bundle.messages[key] ? t(key) : english;
  };
  return {
    t,
    f: islandFormatters(bundle),
    label,
    priority: (p: string) => t(`scoring.priority.${p === "high" || p === "medium" ? p : "low"}`),
    urgency: (text: string) => (URGENCY_PRIORITY[text] ? t(`scoring.urgency.${URGENCY_PRIORITY[text]}`) : text),
    rich(key: string, values: Values, tags: Tags): ReactNode {
      const ast = bundle.messages[key];
      if (!ast) throw new Error(`No message "${key}" in this island's messages`);
      const out = new IntlMessageFormat(ast, lang).format<ReactNode>({ ...values, ...tags });
      // Each part keyed, as React asks of a list.
      return Array.isArray(out) ? out.map((part, i) => createElement(Fragment, { key: i }, part)) : (out as ReactNode);
    },
  };
}

export type ReportWords = ReturnType<typeof reportWords>;

export const WordsContext = createContext<ReportWords | null>(null);

/** The report's words, in the page's language. */
export function useWords(): ReportWords {
  const words = useContext(WordsContext);
  if (!words) throw new Error("The client report's parts need its WordsContext");
  return words;
}
