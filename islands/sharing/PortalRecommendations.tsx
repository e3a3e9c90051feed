// My Home's view of the recommendations (ClientReport.island.tsx with `reportId`): where each item of
// the homeowner's own report stands, or a plain 'Ask for a quote' form (a server post).
import type { HomeReportPayload } from "../../src/modules/my-home/my-home.schemas";
import type { ClientRecommendation } from "../../src/modules/sharing/sharing.schemas";
import { RecommendationList } from "./RecommendationList";

type Item = HomeReportPayload["items"][string];

const TASK_STATUS: Record<string, string> = {
  scheduled: "Scheduled",
  in_progress: "In progress",
  completed: "Done",
  cancelled: "Cancelled",
};
const QUOTE_STATUS: Record<string, string> = {
  pending: "Quote requested",
  quoted: "Quote ready: answer it under Quotes",
  accepted: "Quote accepted",
};

/** Where a recommendation of the homeowner's own report stands, or the form that asks for a quote. */
function PortalItem({ rec, item, reportId }: { rec: ClientRecommendation; item: Item | undefined; reportId: number }) {
  if (!item) return null;
  if (item.quote) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-item-state="quote">
        {item.quote.status === "quoted" ? (
          <a className="link" href={`/my-home/quotes#quote-${item.quote.id}`}>
            {QUOTE_STATUS.quoted}
          </a>
        ) : (
          QUOTE_STATUS[item.quote.status]
        )}
      </p>
    );
  }
  if (item.status !== "pending") {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-item-state={item.status}>
        {TASK_STATUS[item.status] ?? item.status}
      </p>
    );
  }
  return (
    <form method="post" action="/my-home/quote-requests" className="mt-3" data-ask-quote={rec.id}>
      <input type="hidden" name="recommendationId" value={rec.id} />
      <input type="hidden" name="back" value={`/my-home/reports/${reportId}`} />
      <button type="submit" className="btn btn-outline btn-sm">
        Ask for a quote<span className="sr-only"> for {rec.subcategory}</span>
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
  return (
    <section className="card mt-6" aria-labelledby="rec-title" data-portal-recommendations>
      <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
        Recommendations
      </h2>
      <p className="mt-1 text-sm text-ink/80">
        {shared
          ? "This report was shared with you: it is read-only."
          : "Ask for a quote on any item you want Haven to take care of."}
      </p>
      <RecommendationList
        recommendations={recommendations}
        control={(r) => (shared ? null : <PortalItem rec={r} item={items?.[String(r.id)]} reportId={reportId} />)}
      />
    </section>
  );
}
