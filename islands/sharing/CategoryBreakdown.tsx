// The client report's category scores (ClientReport.island.tsx), each with its band and a bar.
import { type BarColour, barColour, categoryBand } from "../../src/modules/inspections/bands";
import type { ClientCategory } from "../../src/modules/sharing/sharing.schemas";
import { useWords } from "./report-words";

const BAND_TEXT: Record<BarColour, string> = {
  green: "text-band-green",
  yellow: "text-band-yellow",
  red: "text-band-red",
};
const BAR_FILL: Record<BarColour, string> = {
  green: "fill-band-green",
  yellow: "fill-band-yellow-fill",
  red: "fill-band-red",
};

function Bar({ score }: { score: number }) {
  const colour = barColour(score);
  return (
    <svg className="h-2.5 w-full" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" data-bar={colour}>
      <rect width="100" height="4" rx="2" className="fill-green-900/10" />
      <rect width={Math.max(0, Math.min(100, score))} height="4" rx="2" className={BAR_FILL[colour]} />
    </svg>
  );
}

/** The scored categories only; nothing at all when none has a score. */
export function CategoryBreakdown({ categories: all }: { categories: ClientCategory[] }) {
  const { t, label } = useWords();
  const categories = all.filter((c): c is ClientCategory & { score: number } => c.score !== null);
  if (!categories.length) return null;
  return (
    <section className="card mt-6" aria-labelledby="cat-title">
      <h2 id="cat-title" className="font-serif text-2xl font-bold text-green-900">
        {t("report.categories")}
      </h2>
      <ul className="mt-5 grid gap-x-10 gap-y-4 md:grid-cols-2" data-categories>
        {categories.map((c) => (
          <li key={c.categoryName} data-category={c.categoryName}>
            <div className="flex justify-between gap-3 text-sm">
              <span className="font-semibold">{label("scoring.category", c.categoryName)}</span>
              <span className={`flex-none font-semibold ${BAND_TEXT[barColour(c.score)]}`}>
                {c.score} · {label("scoring.categoryBand", categoryBand(c.score))}
              </span>
            </div>
            <div className="mt-1">
              <Bar score={c.score} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
