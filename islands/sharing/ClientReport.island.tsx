import { type FormEvent, useEffect, useRef, useState } from "react";
import type { HomeReportPayload } from "../../src/modules/my-home/my-home.schemas";
import { clientLabel } from "../../src/modules/inspections/bands";
import type { IslandMessages } from "../ui/i18n";
import type { ClientReportPayload } from "../../src/modules/sharing/sharing.schemas";
import { ApiError, apiRequest } from "../ui/api";
import { refresh, useData } from "../ui/data";
import { toast } from "../ui/toast";
import { CategoryBreakdown } from "./CategoryBreakdown";
import { AnswerBar, AnswerForm, type Choice } from "./OneTimeAnswers";
import { PortalRecommendations } from "./PortalRecommendations";
import { type ReportWords, WordsContext, reportWords, useWords } from "./report-words";
import { ScoreCard } from "./ScoreCard";

// The one-time client report (staff-side §2, §8, §9): animated score, categories, and a response per
// recommendation. The link's cookie travels with every call; a 410 means another browser holds it.
// The marketing sample (`sample`) is the same page, read-only: its choices are shown, never sent.
// My Home (`reportId`) is the same view for a signed-in homeowner: no link, never one-time; each item
// shows where it stands, with a plain 'Ask for a quote' form (a server post) instead of the one-time answers.

const NO_SCORE = 95;

/** The link's payload, or My Home's (no share; the items and whether it was shared with the homeowner). */
type ReportView = Omit<ClientReportPayload, "share"> & { share?: ClientReportPayload["share"] } & Partial<
    Omit<HomeReportPayload, "report" | "property">
  >;

/** Sends the choices once (the sample only says what it would do); then the 'Responses Submitted' note takes focus. */
function useSubmitResponses(url: string, choices: Record<number, Choice>, sample: boolean, words: ReportWords) {
  const { t } = words;
  const expired = words.to("/report-expired");
  const [submitting, setSubmitting] = useState(false);
  const done = useRef<HTMLDivElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const responses = Object.entries(choices).map(([id, c]) => ({
      maintenanceTaskId: Number(id),
      action: c.action,
      notes: c.action === "request_quote" && c.notes.trim() ? c.notes.trim() : null,
    }));
    if (!responses.length) {
      toast({ title: t("report.none.title"), description: t("report.none.text"), variant: "destructive" });
      return;
    }
    if (sample) {
      toast({ title: t("report.sample.title"), description: t("report.sample.text") });
      return;
    }
    setSubmitting(true);
    try {
      await apiRequest("POST", `${url}/responses`, { responses });
      toast({ title: t("report.submitted.title"), description: t("report.submitted.toast") });
      await refresh(url);
      requestAnimationFrame(() => done.current?.focus());
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 410) return window.location.replace(expired);
      toast({ title: t("report.error.title"), description: t("report.error.text"), variant: "destructive" });
      if (failure instanceof ApiError && failure.status === 409) await refresh(url);
    } finally {
      setSubmitting(false);
    }
  }
  return { submitting, submit, done };
}

function NotFound() {
  const { t } = useWords();
  return (
    <div className="mx-auto max-w-2xl px-4 py-20 text-center" role="alert">
      <h1 className="font-serif text-3xl font-bold text-green-900">{t("report.notFound.title")}</h1>
      <p className="mt-3 text-ink/80">{t("report.notFound.text")}</p>
    </div>
  );
}

export default function ClientReport(props: {
  token?: string;
  sample?: boolean;
  reportId?: number;
  /** The `report` and `scoring` messages in the page's language. */
  i18n: IslandMessages;
}) {
  const [words] = useState(() => reportWords(props.i18n));
  return (
    <WordsContext.Provider value={words}>
      <Report {...props} words={words} />
    </WordsContext.Provider>
  );
}

function Report({
  token,
  sample = false,
  reportId,
  words,
}: {
  token?: string;
  sample?: boolean;
  reportId?: number;
  words: ReportWords;
}) {
  const { t } = words;
  const expired = words.to("/report-expired");
  const portal = reportId !== undefined;
  const url = portal ? `/api/my-home/reports/${reportId}` : `/api/client-report/${token}`;
  const { data, error, isPending } = useData<ReportView>(url);
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const { submitting, submit, done } = useSubmitResponses(url, choices, sample, words);

  // Another browser holds the link (or it was revoked, or it expired): the spec's expired page.
  useEffect(() => {
    if (error instanceof ApiError && error.status === 410) window.location.replace(expired);
  }, [error, expired]);

  // While the answer bar shows, focus and scrolling keep what they reveal above it (WCAG 2.4.11).
  const barShown = Boolean(data?.share && !data.share.respondedAt && data.report.reportData.recommendations.length > 0);
  useEffect(() => {
    if (!barShown) return;
    const root = document.documentElement;
    root.style.scrollPaddingBottom = "6rem";
    return () => {
      root.style.scrollPaddingBottom = "";
    };
  }, [barShown]);

  if (isPending) {
    return (
      <div className="flex justify-center py-24" role="status" aria-label={t("report.loading")}>
        <span className="spinner" />
      </div>
    );
  }
  if (error || !data) return error instanceof ApiError && error.status === 410 ? null : <NotFound />;

  const { report, share, property } = data;
  const score = report.overallScore ?? NO_SCORE;
  const responded = Boolean(share?.respondedAt);
  const recorded = Object.fromEntries(
    (share?.responses ?? []).map((r) => [r.maintenanceTaskId, { action: r.action, notes: r.notes ?? "" }]),
  );
  const recommendations = report.reportData.recommendations;
  const choose = (id: number, choice: Choice | undefined) =>
    setChoices((current) => {
      const next = { ...current };
      if (choice) next[id] = choice;
      else delete next[id];
      return next;
    });

  return (
    <div data-client-report={report.id}>
      {/* My Home keeps the site's header and the portal's tabs above the report. */}
      {!portal && (
        <div className="bg-green-950 px-4 py-4 text-cream">
          <div className="mx-auto flex max-w-5xl items-center justify-between gap-4">
            <span className="font-serif text-xl font-bold text-gold-300">Haven</span>
            <span className="flex items-center gap-3 text-sm text-cream/90">
              {t("report.preparedFor", { name: property.clientName })}
              {sample && (
                <span className="rounded-full bg-gold-300 px-3 py-1 text-xs font-bold uppercase tracking-wide text-green-950">
                  {t("report.sampleBadge")}
                </span>
              )}
            </span>
          </div>
        </div>
      )}
      <div className="mx-auto max-w-5xl px-4 py-8 md:py-10">
        <h1 className="font-serif text-3xl font-bold text-green-900 md:text-4xl">{t("report.title")}</h1>
        <p className="mt-2 mb-8 text-ink/80">
          {property.address}, {property.city}
          {property.province ? `, ${property.province}` : ""}
        </p>
        <ScoreCard
          score={score}
          label={words.label("scoring.band", clientLabel(score))}
          band={clientLabel(score)}
          createdAt={report.createdAt}
          summary={report.reportData.summary}
        />
        <CategoryBreakdown categories={report.reportData.allCategories} />
        {portal ? (
          <PortalRecommendations
            recommendations={recommendations}
            shared={data.shared}
            items={data.items}
            reportId={report.id}
          />
        ) : (
          <AnswerForm
            recommendations={recommendations}
            choices={responded ? recorded : choices}
            responded={responded}
            sample={sample}
            onChoose={choose}
            onSubmit={submit}
            doneRef={done}
          />
        )}
        {barShown && (
          <AnswerBar answered={Object.keys(choices).length} total={recommendations.length} submitting={submitting} />
        )}
        {sample && (
          <p className="mt-10 text-center">
            <a className="btn btn-gold btn-lg" href={words.to("/pricing")}>
              {t("report.seePlans")}
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
