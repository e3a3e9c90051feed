// My Home's view of the recommendations (ClientReport.island.tsx with `reportId`): where each item of
// the homeowner's own report stands, or a plain 'Ask for a quote' form (a server post).
import type { HomeReportPayload } from "../../src/modules/my-home/my-home.schemas";
import type { ClientRecommendation } from "../../src/modules/sharing/sharing.schemas";
import { RecommendationList } from "./RecommendationList";
import { useWords } from "./report-words";

type Item = HomeReportPayload["items"][string];

const TASK_STATUSES = new Set(["scheduled", "in_progress", "completed", "cancelled"]);

/** Where a recommendation of the homeowner's own report stands, or the form that asks for a quote. */
function PortalItem({ rec, item, reportId }: { rec: ClientRecommendation; item: Item | undefined; reportId: number }) {
  const { t, around, to, item: name } = useWords();
  if (!item) return null;
  if (item.quote) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-item-state="quote">
        {item.quote.status === "quoted" ? (
          <a className="link" href={to(`/my-home/quotes#quote-${item.quote.id}`)}>
            {t("report.portal.quote", { status: "quoted" })}
          </a>
        ) : (
          t("report.portal.quote", { status: item.quote.status })
        )}
      </p>
    );
  }
  if (item.status !== "pending") {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-item-state={item.status}>
        {TASK_STATUSES.has(item.status) ? t("report.portal.task", { status: item.status }) : item.status}
      </p>
    );
  }
  return (
    <form method="post" action={to("/my-home/quote-requests")} className="mt-3" data-ask-quote={rec.id}>
      <input type="hidden" name="recommendationId" value={rec.id} />
      <input type="hidden" name="back" value={`/my-home/reports/${reportId}`} />
      <button type="submit" className="btn btn-outline btn-sm">
        {around(
          "report.portal.ask",
          {},
          "sr",
          <span className="sr-only">{t("report.portal.askFor", { item: name(rec) })}</span>,
        )}
      </button>
    </form>
  );
}

interface PortalRecommendationsProps {
  recommendations: ClientRecommendation[];
  /** Shared with the homeowner for someone else's property: read-only. */
  shared: boolean | undefined;
  items: HomeReportPayload["items"] | undefined;
  reportId: number;
}

export function PortalRecommendations({ recommendations, shared, items, reportId }: PortalRecommendationsProps) {
  const { t } = useWords();
  return (
    <section className="card mt-6" aria-labelledby="rec-title" data-portal-recommendations>
      <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
        {t("report.recommendations")}
      </h2>
      <p className="mt-1 text-sm text-ink/80">{shared ? t("report.portal.shared") : t("report.portal.lead")}</p>
      <RecommendationList
        recommendations={recommendations}
        control={(r) => (shared ? null : <PortalItem rec={r} item={items?.[String(r.id)]} reportId={reportId} />)}
      />
    </section>
  );
}
