// The client report's words (docs/decisions.md#64): the island's `report` messages and the `scoring` names it shows
// (band, priority, urgency and category names, one French name each: decision 41), shared by its parts through a
// context. `around` puts a React node where a message says one value (a bold count), the message keeping its order.
import { Fragment, type ReactNode, createContext, createElement, useContext } from "react";
import { type IslandMessages, type IslandT, islandTranslator } from "../ui/i18n";
import { islandFormatters } from "../ui/i18n-format";

/** Stands for the value a React node replaces; no message holds it. */
const SLOT = "\u0000";

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
    /** The message with `node` where it says `{name}`: t("report.answered", …) with the count in bold. */
    around(key: string, values: Record<string, string | number>, name: string, node: ReactNode): ReactNode {
      const parts = t(key, { ...values, [name]: SLOT }).split(SLOT);
      return parts.flatMap((part, i) => [
        createElement(Fragment, { key: `t${i}` }, part),
        i < parts.length - 1 ? createElement(Fragment, { key: `n${i}` }, node) : null,
      ]);
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
