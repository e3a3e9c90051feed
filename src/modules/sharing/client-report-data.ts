// The report as its client reads it (sharing's link and My Home's report page): a whitelist of the stored snapshot,
// with the photos under the reader's own route, and the points said in the reader's language (docs/decisions.md#78).
import { DEFAULT_LOCALE } from "../../i18n/index.js";
import type { RenderLocale } from "../../i18n/locales.js";
import type { QuotePriority } from "../quotes/quotes.constants.js";
import { pdfWords } from "../reports/index.js";
import type { ClientCategory, ClientRecommendation, ClientReportPayload, StoredReport } from "./sharing.schemas.js";

const PHOTO_URL = /^\/api\/photos\/(\d+)(?:\/thumbnail)?$/;

const asArray = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
const str = (value: unknown): string => (typeof value === "string" ? value : "");

const dataOf = (report: StoredReport) => report.reportData as Record<string, unknown>;

/** The report's recommendations (also called issues) as stored in the snapshot. */
export const recommendationsOf = (report: StoredReport) =>
  asArray(dataOf(report).recommendations ?? dataOf(report).issues);

/** Photo ids a report's recommendations show: the only photos its link may serve. */
export const photoIdsOf = (report: StoredReport): Set<number> => {
  const ids = new Set<number>();
  for (const rec of recommendationsOf(report)) {
    for (const url of Array.isArray(rec.photos) ? rec.photos : []) {
      const match = typeof url === "string" ? url.match(PHOTO_URL) : null;
      if (match) ids.add(Number(match[1]));
    }
  }
  return ids;
};

/** Quote priority of a recommendation: 'immediate' for an Immediate Action Required finding (score 10 of 100). */
export function quotePriority(rec: Record<string, unknown> | undefined): QuotePriority {
  const score = num(rec?.score);
  const priority = rec?.priority;
  if (score !== null && score <= 10) return "immediate";
  return priority === "high" || priority === "low" ? priority : "medium";
}

/**
 * The snapshot as the client may see it: a whitelist, so staff notes never leak; photos under `photoBase`
 * (the link's `/api/client-report/{token}/photos`, or My Home's own photo route). In another language than English
 * each recommendation also carries its point's name and description said in it, as the PDFs say them
 * (docs/decisions.md#74, #78): the island shows them and carries no translations of its own.
 */
export function clientReportData(
  report: StoredReport,
  photoBase: string,
  locale: RenderLocale = DEFAULT_LOCALE,
): ClientReportPayload["report"]["reportData"] {
  const data = dataOf(report);
  const words = locale === DEFAULT_LOCALE ? null : pdfWords(locale);
  const recommendations: ClientRecommendation[] = recommendationsOf(report).map((rec) => {
    const shown = {
      category: str(rec.category),
      subcategory: str(rec.subcategory),
      description: str(rec.description),
      score: num(rec.score),
    };
    return {
      id: Number(rec.id),
      ...shown,
      notes: str(rec.notes),
      priority: rec.priority === "high" || rec.priority === "low" ? rec.priority : "medium",
      urgency: str(rec.urgency),
      photos: (Array.isArray(rec.photos) ? rec.photos : []).flatMap((url) => {
        const match = typeof url === "string" ? url.match(PHOTO_URL) : null;
        if (match) return [`${photoBase}/${match[1]}`];
        return typeof url === "string" && url.startsWith("data:image/") ? [url] : [];
      }),
      ...(words && {
        said: { subcategory: words.item(shown.subcategory), description: words.description(shown) },
      }),
    };
  });
  const categories: ClientCategory[] = asArray(data.allCategories ?? data.categories).map((c) => ({
    categoryName: str(c.categoryName),
    score: num(c.score ?? c.averageScore),
    subcategoryCount: num(c.subcategoryCount) ?? asArray(c.subcategories).length,
  }));
  const summary = (data.summary ?? {}) as Record<string, unknown>;
  const count = (p: string) => recommendations.filter((r) => r.priority === p).length;
  const overallScore = report.overallScore ?? num(data.overallScore);
  return {
    overallScore,
    summary: {
      highPriority: num(summary.highPriority) ?? count("high"),
      mediumPriority: num(summary.mediumPriority) ?? count("medium"),
      lowPriority: num(summary.lowPriority) ?? count("low"),
      totalIssues: num(summary.totalIssues) ?? recommendations.length,
      overallScore,
    },
    allCategories: categories,
    categories,
    recommendations,
    issues: recommendations,
  };
}
