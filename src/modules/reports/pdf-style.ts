// The report PDF's look (reports/pdf.ts draws the pages): the Haven palette, the page geometry, the
// text form of a score, and the score ring (its words and dates are pdf-words.ts's).
import { type BarColour, barColour } from "../inspections/index.js";

export const C = {
  green950: "#08201a",
  green900: "#0f2e24",
  green700: "#1f5444",
  gold300: "#e9c965",
  gold500: "#c99a1e",
  cream: "#fbf8f0",
  ink: "#1b2520",
  muted: "#56635c",
  line: "#dfe5e1",
  track: "#edf0ee",
};
export const BAND: Record<BarColour, string> = { green: "#15803d", yellow: "#ca8a04", red: "#b91c1c" };
export const PRIORITY: Record<string, string> = { high: "#b91c1c", medium: "#c2410c", low: "#a16207" };

export const PAGE = { width: 612, height: 792, margin: 48 };
export const CONTENT = PAGE.width - PAGE.margin * 2;
export const BOTTOM = PAGE.height - PAGE.margin - 18;

export const scoreText = (score: number | null) => (score === null ? "—" : String(score));
/** The score ring as SVG (svg-to-pdfkit draws it as vectors): the band's colour over a grey track. */
export function ringSvg(score: number | null, size: number): string {
  const stroke = size * 0.075;
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const fraction = score === null ? 0 : Math.max(0, Math.min(100, score)) / 100;
  const colour = score === null ? C.line : BAND[barColour(score)];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
    <circle cx="${size / 2}" cy="${size / 2}" r="${r}" fill="none" stroke="${C.track}" stroke-width="${stroke}"/>
    <circle cx="${size / 2}" cy="${size / 2}" r="${r}" fill="none" stroke="${colour}" stroke-width="${stroke}" stroke-linecap="round"
      stroke-dasharray="${(c * fraction).toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 ${size / 2} ${size / 2})"/>
  </svg>`;
}
