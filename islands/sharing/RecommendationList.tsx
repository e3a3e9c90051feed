// The client report's recommendations (ClientReport.island.tsx): each item with its photos, and below it a
// control that depends on where the report is read (a one-time answer, or where the item stands in My Home).
import { type ReactNode, useState } from "react";
import type { ClientRecommendation } from "../../src/modules/sharing/sharing.schemas";
import { useWords } from "./report-words";

const PHOTOS_SHOWN = 3;
const CHIP: Record<string, string> = {
  high: "bg-band-red text-white",
  medium: "bg-gold-300 text-green-950",
  low: "bg-green-900 text-cream",
};

function Photos({ rec }: { rec: ClientRecommendation }) {
  const { t, item } = useWords();
  const [all, setAll] = useState(false);
  if (!rec.photos.length) return null;
  const shown = all ? rec.photos : rec.photos.slice(0, PHOTOS_SHOWN);
  const more = rec.photos.length - PHOTOS_SHOWN;
  return (
    <ul className="client-photos" aria-label={t("report.photos.label", { item: item(rec) })}>
      {shown.map((src, i) => (
        <li key={src}>
          <img
            src={src}
            alt={t("report.photos.alt", { item: item(rec), n: i + 1, count: rec.photos.length })}
            loading="lazy"
          />
        </li>
      ))}
      {!all && more > 0 && (
        <li>
          <button
            type="button"
            className="client-photos-more"
            onClick={() => setAll(true)}
            aria-label={t("report.photos.showMore", { more, item: item(rec) })}
          >
            {t("report.photos.more", { more })}
          </button>
        </li>
      )}
    </ul>
  );
}

interface RecommendationListProps {
  recommendations: ClientRecommendation[];
  /** What follows each item: its one-time answer, or where it stands in My Home. */
  control: (rec: ClientRecommendation) => ReactNode;
}

export function RecommendationList({ recommendations, control }: RecommendationListProps) {
  const { t, label, priority, urgency, item } = useWords();
  if (recommendations.length === 0) return <p className="mt-4 text-ink/80">{t("report.nothing")}</p>;
  return (
    <ul className="mt-4 divide-y divide-green-900/10" data-recommendations>
      {recommendations.map((r) => (
        <li key={r.id} className="py-5" data-recommendation={r.id}>
          <div className="flex flex-wrap items-center gap-2 text-xs font-bold tracking-wide">
            <span className={`rounded-full px-2.5 py-1 ${CHIP[r.priority]}`}>{priority(r.priority)}</span>
            {r.urgency && (
              <span className="rounded-full border border-green-900/25 px-2.5 py-1 text-green-900">
                {urgency(r.priority)}
              </span>
            )}
          </div>
          <h3 className="mt-2 font-semibold text-green-900">
            {label("scoring.category", r.category)} · {item(r)}
          </h3>
          {r.description && r.description !== r.notes && (
            <p className="mt-1 text-ink/90">{r.said?.description ?? r.description}</p>
          )}
          {r.notes && <p className="mt-1 text-ink/80">{r.notes}</p>}
          <Photos rec={r} />
          {control(r)}
        </li>
      ))}
    </ul>
  );
}
