// The report's words in a language (docs/decisions.md#64): the PDFs' own `report-pdf` messages, and the band,
// priority, urgency, score and category names of the `scoring` namespace, one French name each (#41). The client
// report's answers use its point names and descriptions too (sharing's clientReportData, docs/decisions.md#78).
// The snapshot stores a few sentences in English (a recommendation's description, a category's count); in another
// language they are said again from the snapshot's own figures. The inspection points' names are Haven's template's
// (`inspection-items`); what an inspector typed stays as typed.
import { formatters, labelKey, translator } from "../../i18n/index.js";
import { messageOf } from "../../i18n/catalogue.js";
import { DEFAULT_LOCALE, type RenderLocale } from "../../i18n/locales.js";
import { categoryBand, overallLabel, scoreChoiceLabel } from "../inspections/index.js";
import type { ReportCategory, ReportRecommendation } from "./report-data.js";

/** A recommendation's level: its priority and urgency names are keyed by it (inspections/bands.ts). */
const level = (priority: string) => (priority === "high" || priority === "medium" ? priority : "low");

/** The category count the snapshot stores (report-data.ts buildCategory), read back for another language. */
const ATTENTION = /^(\d+) of (\d+) scored items need attention\.$/;
const NONE_SCORED = "No item was scored.";
/** A repeated room's item: 'Sinks (Bathroom 2)' (inspections/template.ts roomSubcategoryName). */
const ROOM = /^(.*) \((Kitchen|Bathroom|Laundry) (\d+)\)$/;

export function pdfWords(locale: RenderLocale) {
  const t = translator(locale);
  const f = formatters(locale);
  const english = locale === DEFAULT_LOCALE;
  /** A name the code knows in English, from the catalogue; an old snapshot's name the catalogue lacks stays as it is. */
  const label = (prefix: string, name: string) => {
    const key = labelKey(prefix, name);
    return messageOf(DEFAULT_LOCALE, key) === undefined ? name : t(key);
  };
  /** An inspection point by its name in Haven's template, in the language; a name the template lacks stays as typed. */
  const item = (name: string) => {
    if (english) return name;
    const room = ROOM.exec(name);
    if (!room) return label("inspection-items.item", name);
    const [, base, kind, n] = room;
    const roomName = t(`inspection-items.room.${kind!.toLowerCase()}`);
    return t("inspection-items.room", { item: label("inspection-items.item", base!), room: roomName, n: Number(n) });
  };
  const choice = (score: number | null) =>
    score === null ? t("report-pdf.notApplicable") : label("scoring.choice", scoreChoiceLabel(score));
  return {
    t,
    /** "December 2, 2026" / "2 décembre 2026": a date, or an instant's UTC date as the PDF always printed it. */
    date(iso: string | null | undefined) {
      if (!iso) return "—";
      if (Number.isNaN(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso).getTime())) return iso;
      return f.dateTime(iso, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    },
    /** 'Critical · Urgent' / 'Critique · Urgent' (docs/decisions.md#41). */
    priority: (priority: string) =>
      t("report-pdf.priority", {
        priority: t(`scoring.priority.${level(priority)}`),
        urgency: t(`scoring.urgency.${level(priority)}`),
      }),
    urgentFlag: () => t("scoring.urgency.high"),
    /** The homeowner's band of the overall score (client labels, docs/decisions.md#41). */
    band: (score: number) => label("scoring.band", overallLabel(score, "client")),
    categoryBand: (score: number | null) =>
      score === null ? t("report-pdf.notApplicable") : label("scoring.categoryBand", categoryBand(score)),
    category: (name: string) => label("scoring.category", name),
    item,
    /** An entry score as the form names it: 'Good', 'N/A'. */
    choice,
    /** 'Needs Attention (4)' in the summary's boxes. */
    choiceWithScore: (score: number) => t("report-pdf.choice", { label: choice(score), score }),
    description(r: Pick<ReportRecommendation, "subcategory" | "category" | "score" | "description">): string {
      if (english) return r.description;
      const state = r.score === null ? "urgent" : r.score <= 10 ? "immediate" : "attention";
      return t("report-pdf.rec.description", {
        item: item(r.subcategory),
        category: label("scoring.category", r.category),
        state,
        score: r.score ?? 0,
      });
    },
    categoryNotes(c: ReportCategory): string {
      if (english) return c.notes;
      if (c.notes === NONE_SCORED) return t("report-pdf.category.noneScored");
      const counted = ATTENTION.exec(c.notes);
      if (!counted) return c.notes;
      return t("report-pdf.category.attention", { attention: Number(counted[1]), scored: Number(counted[2]) });
    },
  };
}

export type PdfWords = ReturnType<typeof pdfWords>;
