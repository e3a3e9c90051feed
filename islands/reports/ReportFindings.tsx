// The report viewer's findings (ReportViewer.island.tsx): the priority recommendations, then every category
// with its items, each collapsible.
import { useState } from "react";
import {
  URGENT_FLAG,
  barColour,
  categoryBand,
  priorityText,
  scoreChoiceLabel,
} from "../../src/modules/inspections/bands";
import type { ReportCategory, ReportRecommendation } from "../../src/modules/reports/report-data";
import { MakeRecurring } from "../maintenance/MakeRecurring";
import { type OpenPhotos, Photos } from "./ReportPhotos";

function Recommendation({
  r,
  onOpen,
  canSchedule,
}: {
  r: ReportRecommendation;
  onOpen: OpenPhotos;
  canSchedule: boolean;
}) {
  return (
    <li className="viewer-rec" data-priority={r.priority} data-testid="report-recommendation">
      <div className="viewer-rec-head">
        <span className={`viewer-pill viewer-pill-${r.priority}`}>{priorityText(r.priority)}</span>
        <strong>{r.subcategory}</strong>
        <span className="viewer-muted">
          {r.category}
          {r.score === null ? "" : ` · ${r.score}/100`}
        </span>
      </div>
      <p>{r.notes || r.description}</p>
      <Photos urls={r.photos} label={r.subcategory} onOpen={onOpen} />
      {/* A 'Monitor' finding (low priority) becomes a recurring check in one step. */}
      {/* Not for an inspector, who may not create schedules (docs/decisions.md#36). */}
      {canSchedule && r.priority === "low" && <MakeRecurring taskId={r.id} label={r.subcategory} />}
    </li>
  );
}

export function Recommendations({
  recommendations,
  onOpen,
  canSchedule = true,
}: {
  recommendations: ReportRecommendation[];
  onOpen: OpenPhotos;
  canSchedule?: boolean;
}) {
  return (
    <section className="card" aria-labelledby="recommendations-title">
      <h2 id="recommendations-title" className="admin-card-title">
        Priority recommendations
      </h2>
      {recommendations.length ? (
        <ul className="viewer-recs">
          {recommendations.map((r) => (
            <Recommendation key={r.id} r={r} onOpen={onOpen} canSchedule={canSchedule} />
          ))}
        </ul>
      ) : (
        <p className="empty-note">No item needs work: every scored item is above 40 and none is marked urgent.</p>
      )}
    </section>
  );
}

function Category({ category, onOpen }: { category: ReportCategory; onOpen: OpenPhotos }) {
  const [open, setOpen] = useState(false);
  const id = `category-${category.categoryName.replace(/\W+/g, "-").toLowerCase()}`;
  const colour = category.score === null ? "none" : barColour(category.score);
  return (
    <li className="viewer-category" data-testid="report-category">
      <h3>
        <button
          type="button"
          className="viewer-category-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          <span className="viewer-category-name">{category.categoryName}</span>
          <span className="viewer-bar" aria-hidden="true">
            <span data-band={colour} style={{ width: `${category.score ?? 0}%` }} />
          </span>
          <span className="viewer-category-score">
            <strong>{category.score ?? "—"}</strong>
            <span>{category.score === null ? "N/A" : categoryBand(category.score)}</span>
          </span>
          <span className="viewer-chevron" aria-hidden="true">
            ▾
          </span>
        </button>
      </h3>
      <div id={id} hidden={!open} className="viewer-category-body">
        <p className="viewer-muted">
          {category.subcategoryCount} items · weight {category.weight}% · {category.notes}
        </p>
        <ul className="viewer-items">
          {category.subcategories.map((s) => (
            <li key={s.subcategoryName} data-testid="report-item">
              <div className="viewer-item-head">
                <span className="font-semibold">{s.subcategoryName}</span>
                <span className="viewer-item-score" data-band={s.score === null ? "none" : barColour(s.score * 10)}>
                  {scoreChoiceLabel(s.score)}
                  {s.score === null ? "" : ` (${s.score})`}
                </span>
                {s.urgent && <span className="viewer-pill viewer-pill-high">{URGENT_FLAG}</span>}
              </div>
              {s.notes && <p className="viewer-notes">{s.notes}</p>}
              <Photos urls={s.photos} label={s.subcategoryName} onOpen={onOpen} />
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

export function Categories({ categories, onOpen }: { categories: ReportCategory[]; onOpen: OpenPhotos }) {
  return (
    <section className="card" aria-labelledby="categories-title">
      <h2 id="categories-title" className="admin-card-title">
        Categories
      </h2>
      <ul className="viewer-categories">
        {categories.map((c) => (
          <Category key={c.categoryName} category={c} onOpen={onOpen} />
        ))}
      </ul>
    </section>
  );
}
