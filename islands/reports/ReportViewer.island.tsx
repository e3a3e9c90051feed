import { useEffect, useState } from "react";
import type { ReportData } from "../../src/modules/reports/report-data";
import { apiRequest } from "../ui/api";
import { Categories, Recommendations } from "./ReportFindings";
import { ReportHero, ReportSummaries } from "./ReportOverview";
import { type OpenedPhotos, PhotoViewer } from "./ReportPhotos";

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
  /** Whether the signed-in role may share reports (an inspector may not; docs/decisions.md#36). */
  canShare?: boolean;
  /** Whether it may turn a finding into a recurring schedule (an inspector may not). */
  canSchedule?: boolean;
  /** Whether it may open the property's history (an inspector may not). */
  canOpenHistory?: boolean;
}

const hasData = (report: Report | null | undefined): report is Report & { reportData: ReportData } => {
  if (!report?.reportData) return false;
  const data =
    typeof report.reportData === "string" ? (JSON.parse(report.reportData) as ReportData) : report.reportData;
  if (!("allCategories" in data) && !("categories" in data)) return false;
  report.reportData = data;
  return true;
};

function back(event: React.MouseEvent<HTMLAnchorElement>, backHref: string) {
  // Opened from the list: go back in history, so the list comes back at its page (and its URL).
  const from = document.referrer ? new URL(document.referrer) : null;
  if (from && from.origin === location.origin && from.pathname === "/admin/reports" && history.length > 1) {
    event.preventDefault();
    history.back();
  } else event.currentTarget.href = backHref;
}

export default function ReportViewer({
  reportId,
  backHref,
  initial,
  canShare = true,
  canSchedule = true,
  canOpenHistory = true,
}: Props) {
  // The page hands the report in; it is fetched on its own only when that data is empty (staff-side §2).
  // A plain fetch, only when the page handed no report in.
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
  const query = {
    isPending: !loaded.data && !loaded.error,
    isError: Boolean(loaded.error),
    data: loaded.data,
    error: loaded.error,
  };
  const [photos, setPhotos] = useState<OpenedPhotos | null>(null);
  const openPhotos = (urls: string[], index: number, label: string) => setPhotos({ urls, index, label });

  const header = (
    <a
      className="btn btn-outline btn-sm"
      href={backHref}
      onClick={(e) => back(e, backHref)}
      data-testid="back-to-reports"
    >
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
          {canShare && (
            <button type="button" className="btn btn-green btn-sm" data-share-report={report.id}>
              Share Report
            </button>
          )}
        </div>
      </div>
      <ReportHero reportId={report.id} propertyId={report.propertyId} data={data} canOpenHistory={canOpenHistory} />
      <ReportSummaries data={data} />
      <Recommendations recommendations={data.recommendations} onOpen={openPhotos} canSchedule={canSchedule} />
      <Categories categories={data.allCategories} onOpen={openPhotos} />
      <PhotoViewer photos={photos} onClose={() => setPhotos(null)} />
    </article>
  );
}
