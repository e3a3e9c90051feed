import { useEffect, useRef, useState } from "react";
import { SCORE_CHOICES, adminLabel, barColour, categoryBand } from "../../src/modules/reports/bands";
import { type ReportCategory, type ReportData, type ReportRecommendation, SUMMARY_ITEM_SCORES, SUMMARY_SENTENCE, addressLine } from "../../src/modules/reports/report-data";
import { apiRequest } from "../ui/api";
import { MakeRecurring } from "../maintenance/MakeRecurring";

interface Report {
  id: number;
  propertyId: number;
  inspectionId: number;
  createdAt: string;
  overallScore: number | null;
  reportData: ReportData | Record<string, never> | string | null;
}

interface Props {
  reportId: number;
  /** The list page the viewer was opened from. */
  backHref: string;
  /** The list's data for this report; fetched again when its reportData is empty (staff-side §2). */
  initial?: Report | null;
}

const hasData = (report: Report | null | undefined): report is Report & { reportData: ReportData } => {
  if (!report?.reportData) return false;
  const data = typeof report.reportData === "string" ? (JSON.parse(report.reportData) as ReportData) : report.reportData;
  if (!("allCategories" in data) && !("categories" in data)) return false;
  report.reportData = data;
  return true;
};

const choiceLabel = (score: number | null) => (score === null ? "N/A" : (SCORE_CHOICES.find((c) => c.value === score)?.label ?? String(score)));
const longDate = (iso: string | null | undefined) =>
  iso ? new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso).toLocaleDateString("en-CA", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : "—";
const thumb = (url: string) => `${url}/thumbnail`;

function ScoreRing({ score, size = 148 }: { score: number | null; size?: number }) {
  const r = (size - 14) / 2;
  const c = 2 * Math.PI * r;
  const fraction = score === null ? 0 : Math.max(0, Math.min(100, score)) / 100;
  return (
    <div className="score-ring score-ring-lg" data-testid="score-ring">
      <svg viewBox={`0 0 ${size} ${size}`} width={size} height={size} aria-hidden="true">
        <circle cx={size / 2} cy={size / 2} r={r} fill="none" stroke="#e7ebe8" strokeWidth="12" />
        <circle
          className={`ring-${score === null ? "none" : barColour(score)}`}
          cx={size / 2}
          cy={size / 2}
          r={r}
          fill="none"
          strokeWidth="12"
          strokeLinecap="round"
          strokeDasharray={`${(c * fraction).toFixed(1)} ${c.toFixed(1)}`}
          transform={`rotate(-90 ${size / 2} ${size / 2})`}
        />
      </svg>
      <span className="score-ring-value">
        {score ?? "—"}
        <span className="score-ring-unit">/100</span>
      </span>
    </div>
  );
}

function Photos({ urls, label, onOpen }: { urls: string[]; label: string; onOpen: (urls: string[], index: number, label: string) => void }) {
  if (!urls.length) return null;
  return (
    <ul className="viewer-photos">
      {urls.map((url, i) => (
        <li key={url}>
          <button type="button" className="viewer-photo" onClick={() => onOpen(urls, i, label)} aria-label={`Open photo ${i + 1} of ${urls.length}: ${label}`}>
            <img src={thumb(url)} alt="" loading="lazy" width={96} height={72} />
          </button>
        </li>
      ))}
    </ul>
  );
}

function PhotoViewer({ photos, onClose }: { photos: { urls: string[]; index: number; label: string } | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (photos) {
      setIndex(photos.index);
      if (!dialog.current?.open) dialog.current?.showModal();
    } else dialog.current?.close();
  }, [photos]);
  const urls = photos?.urls ?? [];
  return (
    <dialog ref={dialog} className="photo-viewer" aria-label={photos ? `Photos: ${photos.label}` : "Photos"} onClose={onClose}>
      {photos && (
        <div className="photo-viewer-body">
          <div className="photo-viewer-head">
            <p className="font-semibold">
              {photos.label} · {index + 1} of {urls.length}
            </p>
            <button type="button" className="btn btn-outline btn-sm" onClick={onClose}>
              Close
            </button>
          </div>
          <img src={urls[index]} alt={`${photos.label}, ${index + 1} of ${urls.length}`} />
          {urls.length > 1 && (
            <div className="photo-viewer-nav">
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setIndex((index - 1 + urls.length) % urls.length)}>
                Previous photo
              </button>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setIndex((index + 1) % urls.length)}>
                Next photo
              </button>
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}

function Category({ category, onOpen }: { category: ReportCategory; onOpen: (urls: string[], index: number, label: string) => void }) {
  const [open, setOpen] = useState(false);
  const id = `category-${category.categoryName.replace(/\W+/g, "-").toLowerCase()}`;
  const colour = category.score === null ? "none" : barColour(category.score);
  return (
    <li className="viewer-category" data-testid="report-category">
      <h3>
        <button type="button" className="viewer-category-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
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
                  {choiceLabel(s.score)}
                  {s.score === null ? "" : ` (${s.score})`}
                </span>
                {s.urgent && <span className="viewer-pill viewer-pill-high">Urgent</span>}
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

function Recommendation({ r, onOpen }: { r: ReportRecommendation; onOpen: (urls: string[], index: number, label: string) => void }) {
  return (
    <li className="viewer-rec" data-priority={r.priority} data-testid="report-recommendation">
      <div className="viewer-rec-head">
        <span className={`viewer-pill viewer-pill-${r.priority}`}>
          {r.priority.charAt(0).toUpperCase() + r.priority.slice(1)} · {r.urgency}
        </span>
        <strong>{r.subcategory}</strong>
        <span className="viewer-muted">
          {r.category}
          {r.score === null ? "" : ` · ${r.score}/100`}
        </span>
      </div>
      <p>{r.notes || r.description}</p>
      <Photos urls={r.photos} label={r.subcategory} onOpen={onOpen} />
      {/* A 'Monitor' finding (low priority) becomes a recurring check in one step (issue 13, MAINTENANCE). */}
      {r.priority === "low" && <MakeRecurring taskId={r.id} label={r.subcategory} />}
    </li>
  );
}

function back(event: React.MouseEvent<HTMLAnchorElement>, backHref: string) {
  // Opened from the list: go back in history, so the list comes back at its page (and its URL).
  const from = document.referrer ? new URL(document.referrer) : null;
  if (from && from.origin === location.origin && from.pathname === "/admin/reports" && history.length > 1) {
    event.preventDefault();
    history.back();
  } else event.currentTarget.href = backHref;
}

export default function ReportViewer({ reportId, backHref, initial }: Props) {
  // The page hands the report in; it is fetched on its own only when that data is empty (staff-side §2).
  // A plain fetch, not react-query: its hooks would take this page over its JS budget.
  const [loaded, setLoaded] = useState<{ data?: Report; error?: Error }>(hasData(initial) ? { data: initial } : {});
  useEffect(() => {
    if (loaded.data) return;
    let live = true;
    apiRequest<Report>("GET", `/api/reports/${reportId}`).then(
      (data) => live && setLoaded({ data }),
      (error: unknown) => live && setLoaded({ error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [reportId, loaded.data]);
  const query = { isPending: !loaded.data && !loaded.error, isError: Boolean(loaded.error), data: loaded.data, error: loaded.error };
  const [photos, setPhotos] = useState<{ urls: string[]; index: number; label: string } | null>(null);
  const openPhotos = (urls: string[], index: number, label: string) => setPhotos({ urls, index, label });

  const header = (
    <a className="btn btn-outline btn-sm" href={backHref} onClick={(e) => back(e, backHref)} data-testid="back-to-reports">
      ← Back to reports
    </a>
  );
  if (query.isPending) {
    return (
      <div className="viewer">
        {header}
        <div className="card viewer-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the report…
        </div>
      </div>
    );
  }
  if (query.isError || !hasData(query.data)) {
    return (
      <div className="viewer">
        {header}
        <div className="alert alert-danger" role="alert">
          Error loading reports: {query.error instanceof Error ? query.error.message : "the report has no data"}
        </div>
      </div>
    );
  }
  const report = query.data;
  const data = report.reportData;
  const s = data.summary;
  return (
    <article className="viewer" aria-labelledby="report-title">
      <div className="viewer-toolbar">
        {header}
        <div className="viewer-toolbar-actions">
          <a className="btn btn-outline btn-sm" href={`/api/reports/${report.id}/pdf?format=summary`} download>
            Summary PDF
          </a>
          <a className="btn btn-outline btn-sm" href={`/api/reports/${report.id}/pdf`} download>
            Full PDF
          </a>
          <button type="button" className="btn btn-green btn-sm" data-share-report={report.id}>
            Share Report
          </button>
        </div>
      </div>

      <header className="card viewer-hero">
        <ScoreRing score={data.overallScore} />
        <div className="viewer-hero-text">
          <p className="viewer-eyebrow">Report #{report.id}</p>
          <h1 id="report-title" className="admin-title">
            {data.property.address}
          </h1>
          <p className="viewer-muted">{addressLine(data.property)}</p>
          <p className="viewer-label" data-band={data.overallScore === null ? "none" : barColour(data.overallScore)}>
            {data.overallScore === null ? "Not scored" : `${data.overallScore} · ${adminLabel(data.overallScore)}`}
          </p>
          <dl className="viewer-facts">
            <div>
              <dt>Client</dt>
              <dd>{data.property.clientName ?? "—"}</dd>
            </div>
            <div>
              <dt>Inspected</dt>
              <dd>{longDate(data.inspection.inspectionDate)}</dd>
            </div>
            <div>
              <dt>Inspector</dt>
              <dd>{data.property.inspector ?? "—"}</dd>
            </div>
            <div>
              <dt>Generated</dt>
              <dd>{longDate(data.property.reportGeneratedAt)}</dd>
            </div>
          </dl>
          <a className="link" href={`/admin/property-history/${report.propertyId}`}>
            Property history
          </a>
        </div>
      </header>

      <div className="viewer-summaries">
        <section className="card" aria-labelledby="inspection-summary">
          <h2 id="inspection-summary" className="admin-card-title">
            Inspection summary
          </h2>
          <ul className="viewer-counts">
            {SUMMARY_ITEM_SCORES.map(({ label, score }) => (
              <li key={label} data-kind={label.toLowerCase()} data-testid={`count-${label.toLowerCase()}`}>
                <strong>{s.itemCounts?.[label] ?? 0}</strong>
                <span>
                  {label} ({score})
                </span>
              </li>
            ))}
          </ul>
          <p className="viewer-muted">{SUMMARY_SENTENCE}</p>
        </section>
        <section className="card" aria-labelledby="recommendation-summary">
          <h2 id="recommendation-summary" className="admin-card-title">
            Recommendation summary
          </h2>
          <ul className="viewer-counts">
            <li data-kind="high" data-testid="summary-high">
              <strong>{s.highPriority}</strong>
              <span>High · Urgent</span>
            </li>
            <li data-kind="medium" data-testid="summary-medium">
              <strong>{s.mediumPriority}</strong>
              <span>Medium · 30 Days</span>
            </li>
            <li data-kind="low" data-testid="summary-low">
              <strong>{s.lowPriority}</strong>
              <span>Low · 60 Days</span>
            </li>
            <li data-kind="total" data-testid="summary-total">
              <strong>{s.totalIssues}</strong>
              <span>Total issues</span>
            </li>
          </ul>
          <p className="viewer-muted">
            {data.metadata.totalCategoriesInspected} categories inspected. Each recommendation is a pending maintenance task of the property.
          </p>
        </section>
      </div>

      <section className="card" aria-labelledby="recommendations-title">
        <h2 id="recommendations-title" className="admin-card-title">
          Priority recommendations
        </h2>
        {data.recommendations.length ? (
          <ul className="viewer-recs">
            {data.recommendations.map((r) => (
              <Recommendation key={r.id} r={r} onOpen={openPhotos} />
            ))}
          </ul>
        ) : (
          <p className="empty-note">No item needs work: every scored item is above 40 and none is marked urgent.</p>
        )}
      </section>

      <section className="card" aria-labelledby="categories-title">
        <h2 id="categories-title" className="admin-card-title">
          Categories
        </h2>
        <ul className="viewer-categories">
          {data.allCategories.map((c) => (
            <Category key={c.categoryName} category={c} onOpen={openPhotos} />
          ))}
        </ul>
      </section>
      <PhotoViewer photos={photos} onClose={() => setPhotos(null)} />
    </article>
  );
}
