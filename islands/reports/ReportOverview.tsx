// The top of the report viewer (ReportViewer.island.tsx): the score and the property's facts, then the two summaries.
import {
  adminLabel,
  barColour,
  overallLabel,
  priorityText,
  scoreChoiceLabel,
} from "../../src/modules/inspections/bands";
import { addressLine } from "../../src/shared/address";
import { type ReportData, SUMMARY_ITEM_SCORES, SUMMARY_SENTENCE } from "../../src/modules/reports/report-data";

const longDate = (iso: string | null | undefined) =>
  iso
    ? new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso).toLocaleDateString("en-CA", {
        year: "numeric",
        month: "long",
        day: "numeric",
        timeZone: "UTC",
      })
    : "—";

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

export function ReportHero({
  reportId,
  propertyId,
  data,
  canOpenHistory = true,
}: {
  reportId: number;
  propertyId: number;
  data: ReportData;
  /** False for an inspector, whose role may not open property history (docs/decisions.md#36). */
  canOpenHistory?: boolean;
}) {
  return (
    <header className="card viewer-hero">
      <ScoreRing score={data.overallScore} />
      <div className="viewer-hero-text">
        <p className="viewer-eyebrow">Report #{reportId}</p>
        <h1 id="report-title" className="admin-title">
          {data.property.address}
        </h1>
        <p className="viewer-muted">{addressLine(data.property)}</p>
        <p className="viewer-label" data-band={data.overallScore === null ? "none" : barColour(data.overallScore)}>
          {data.overallScore === null ? "Not scored" : `${data.overallScore} · ${adminLabel(data.overallScore)}`}
        </p>
        {data.overallScore !== null && (
          // Staff read the admin label; the homeowner's pages and PDFs say the client's (docs/decisions.md#41).
          <p className="viewer-muted" data-testid="client-label">
            The client reads: {overallLabel(data.overallScore, "client")}
          </p>
        )}
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
        {canOpenHistory && (
          <a className="link" href={`/admin/property-history/${propertyId}`}>
            Property history
          </a>
        )}
      </div>
    </header>
  );
}

/** The items by score band, and the recommendations by priority. */
export function ReportSummaries({ data }: { data: ReportData }) {
  const s = data.summary;
  return (
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
                {scoreChoiceLabel(score)} ({score})
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
            <span>{priorityText("high")}</span>
          </li>
          <li data-kind="medium" data-testid="summary-medium">
            <strong>{s.mediumPriority}</strong>
            <span>{priorityText("medium")}</span>
          </li>
          <li data-kind="low" data-testid="summary-low">
            <strong>{s.lowPriority}</strong>
            <span>{priorityText("low")}</span>
          </li>
          <li data-kind="total" data-testid="summary-total">
            <strong>{s.totalIssues}</strong>
            <span>Total issues</span>
          </li>
        </ul>
        <p className="viewer-muted">
          {data.metadata.totalCategoriesInspected} categories inspected. Each recommendation is a pending maintenance
          task of the property.
        </p>
      </section>
    </div>
  );
}
