// A property's history (staff-side §2, §9): pure functions over its inspections. The score-over-time
// chart is an SVG drawn here on the server: recharts alone is ~92 KB gzip, over the page budget.
import { barColour, historyLabel } from "../inspections/index.js";
import { type SourceInspection, buildReportData } from "./report-data.js";
import type { HistoryInspection } from "./reports.repository.js";
import { INSPECTION_WEIGHTS } from "../inspections/index.js";

export interface HistoryProperty {
  id: number;
  address: string;
  city: string | null;
  province: string | null;
  postalCode: string | null;
  clientName: string | null;
  clientEmail: string | null;
}

export interface CategoryChange {
  categoryName: string;
  previous: number | null;
  latest: number | null;
  /** latest − previous, when both exist. */
  change: number | null;
}

export interface ItemChange {
  categoryName: string;
  subcategoryName: string;
  /** The inspector's scores (10, 7, 4, 1; null is N/A or not inspected). */
  previous: number | null;
  latest: number | null;
  notes: string;
}

export interface PropertyHistory {
  property: HistoryProperty;
  /** Newest first, with their history label. */
  inspections: (HistoryInspection & { label: string | null })[];
  currentScore: number | null;
  currentLabel: string | null;
  averageScore: number | null;
  averageLabel: string | null;
  /** Latest score minus the previous one; null with fewer than two scored inspections. */
  trend: number | null;
  /** Scored inspections, oldest first: the chart's points. */
  points: { date: string; score: number }[];
  /** Between the latest two scored inspections; null with fewer than two. */
  changes: { previousDate: string; latestDate: string; categories: CategoryChange[]; items: ItemChange[] } | null;
}

function whatChanged(previous: SourceInspection, latest: SourceInspection): NonNullable<PropertyHistory["changes"]> {
  const options = { reportId: 0, generatedAt: "", inspectorName: null };
  const then = buildReportData(previous, options);
  const now = buildReportData(latest, options);
  const names = [...new Set([...then.allCategories, ...now.allCategories].map((c) => c.categoryName))];
  names.sort(
    (a, b) => INSPECTION_WEIGHTS.findIndex((c) => c.name === a) - INSPECTION_WEIGHTS.findIndex((c) => c.name === b),
  );
  const categories = names.map((name) => {
    const a = then.allCategories.find((c) => c.categoryName === name)?.score ?? null;
    const b = now.allCategories.find((c) => c.categoryName === name)?.score ?? null;
    return { categoryName: name, previous: a, latest: b, change: a !== null && b !== null ? b - a : null };
  });
  const items: ItemChange[] = [];
  for (const name of names) {
    const before = new Map(
      (then.allCategories.find((c) => c.categoryName === name)?.subcategories ?? []).map((s) => [s.subcategoryName, s]),
    );
    const after = new Map(
      (now.allCategories.find((c) => c.categoryName === name)?.subcategories ?? []).map((s) => [s.subcategoryName, s]),
    );
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      const a = before.get(key)?.score ?? null;
      const b = after.get(key)?.score ?? null;
      if (a !== b)
        items.push({
          categoryName: name,
          subcategoryName: key,
          previous: a,
          latest: b,
          notes: after.get(key)?.notes ?? "",
        });
    }
  }
  // The items that moved most first: they explain the change in the score.
  items.sort((x, y) => Math.abs((y.latest ?? 0) - (y.previous ?? 0)) - Math.abs((x.latest ?? 0) - (x.previous ?? 0)));
  return { previousDate: previous.inspectionDate, latestDate: latest.inspectionDate, categories, items };
}

export function buildHistory(
  property: HistoryProperty,
  inspections: HistoryInspection[],
  latest: SourceInspection | null,
  previous: SourceInspection | null,
): PropertyHistory {
  const scored = inspections.filter((i) => i.status === "completed" && i.overallScore !== null);
  const points = scored.map((i) => ({ date: i.inspectionDate, score: i.overallScore! }));
  const current = points.at(-1)?.score ?? null;
  const average = points.length ? Math.round(points.reduce((sum, p) => sum + p.score, 0) / points.length) : null;
  const trend = points.length >= 2 ? points.at(-1)!.score - points.at(-2)!.score : null;
  return {
    property,
    inspections: [...inspections]
      .reverse()
      .map((i) => ({ ...i, label: i.overallScore === null ? null : historyLabel(i.overallScore) })),
    currentScore: current,
    currentLabel: current === null ? null : historyLabel(current),
    averageScore: average,
    averageLabel: average === null ? null : historyLabel(average),
    trend,
    points,
    changes: latest && previous ? whatChanged(previous, latest) : null,
  };
}

/** '+5', '−3' or '0': a trend as staff read it. */
export const trendText = (trend: number) => (trend > 0 ? `+${trend}` : trend < 0 ? `−${Math.abs(trend)}` : "0");

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/**
 * A small score-over-time line chart as inline SVG (0–100 scale), labelled for screen readers: `label` words the
 * points' summary in the page's language (My Home's French page, docs/decisions.md#65).
 */
export function scoreChartSvg(
  points: { date: string; score: number }[],
  width = 560,
  height = 180,
  label = (summary: string) => `Score over time: ${summary || "no scored inspection yet"}`,
): string {
  const pad = { left: 34, right: 14, top: 12, bottom: 28 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const x = (i: number) => pad.left + (points.length <= 1 ? w / 2 : (i * w) / (points.length - 1));
  const y = (score: number) => pad.top + h - (score / 100) * h;
  const summary = points.map((p) => `${p.date}: ${p.score}`).join(", ");
  const grid = [0, 50, 100]
    .map(
      (v) =>
        `<line x1="${pad.left}" x2="${pad.left + w}" y1="${y(v)}" y2="${y(v)}" stroke="#dfe5e1"/><text x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#4b5a52">${v}</text>`,
    )
    .join("");
  const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.score).toFixed(1)}`).join(" ");
  const colours = { green: "#15803d", yellow: "#a16207", red: "#b91c1c" };
  const dots = points
    .map(
      (p, i) =>
        `<circle cx="${x(i).toFixed(1)}" cy="${y(p.score).toFixed(1)}" r="4.5" fill="${colours[barColour(p.score)]}" stroke="white" stroke-width="1.5"><title>${esc(p.date)}: ${p.score}</title></circle>`,
    )
    .join("");
  const labels = points
    .map((p, i) =>
      points.length <= 6 || i === 0 || i === points.length - 1
        ? `<text x="${x(i).toFixed(1)}" y="${height - 8}" text-anchor="${points.length > 1 && i === 0 ? "start" : points.length > 1 && i === points.length - 1 ? "end" : "middle"}" font-size="11" fill="#4b5a52">${esc(p.date)}</text>`
        : "",
    )
    .join("");
  return `<svg class="score-chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label(summary))}" preserveAspectRatio="xMidYMid meet">${grid}${points.length > 1 ? `<path d="${line}" fill="none" stroke="#174034" stroke-width="2.5"/>` : ""}${dots}${labels}</svg>`;
}
