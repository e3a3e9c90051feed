import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { type BarColour, barColour, categoryBand, clientLabel, clientPriorityLabel } from "../../src/modules/reports/bands";
import type { HomeReportPayload } from "../../src/modules/my-home/my-home.schemas";
import type { ClientRecommendation, ClientReportPayload, ResponseAction } from "../../src/modules/sharing/sharing.schemas";
import { ApiError, apiRequest } from "../ui/api";
import { toast } from "../ui/toast";

/** This island uses react-query: the loader wraps it in the query provider (islands/main.ts). */
export const queries = true;

// The one-time client report (staff-side §2, §8, §9): animated score, categories, and a response per
// recommendation. The link's cookie travels with every call; a 410 means another browser holds it.
// The marketing sample (`sample`) is the same page, read-only: its choices are shown, never sent.
// My Home (`reportId`, issue 20) is the same view for a signed-in homeowner: no link, never one-time; each item
// shows where it stands, with a plain 'Ask for a quote' form (a server post) instead of the one-time answers.

const SCORE_DURATION_MS = 4000;
const NO_SCORE = 95;
const PHOTOS_SHOWN = 3;

const BAND_TEXT: Record<BarColour, string> = { green: "text-band-green", yellow: "text-band-yellow", red: "text-band-red" };
const BAR_FILL: Record<BarColour, string> = { green: "fill-band-green", yellow: "fill-band-yellow-fill", red: "fill-band-red" };
const CHIP: Record<string, string> = { high: "bg-band-red text-white", medium: "bg-gold-300 text-green-950", low: "bg-green-900 text-cream" };

type Choice = { action: ResponseAction; notes: string };

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/** Counts up to the score over 4 s, eased; a reader who asks for less motion gets the number at once. */
function useCountUp(target: number): number {
  const [value, setValue] = useState(0);
  useEffect(() => {
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) {
      setValue(target);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const step = (now: number) => {
      const t = Math.min(1, (now - start) / SCORE_DURATION_MS);
      setValue(Math.round(target * easeOutCubic(t)));
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [target]);
  return value;
}

function ScoreDial({ score, label }: { score: number; label: string }) {
  const shown = useCountUp(score);
  const r = 52;
  const c = 2 * Math.PI * r;
  return (
    <figure
      className="dial relative m-0 h-48 w-48 flex-none md:h-56 md:w-56"
      role="img"
      aria-label={`Overall score ${score} out of 100: ${label}`}
      data-dial
      data-value={score}
      data-duration={SCORE_DURATION_MS}
      data-dial-done={shown === score ? "1" : "0"}
    >
      <svg viewBox="0 0 120 120" aria-hidden="true" className="h-full w-full -rotate-90">
        <circle cx="60" cy="60" r={r} fill="none" strokeWidth="10" className="stroke-green-800/15" />
        <circle cx="60" cy="60" r={r} fill="none" strokeWidth="10" strokeLinecap="round" className="stroke-gold-400" strokeDasharray={c.toFixed(2)} strokeDashoffset={(c * (1 - shown / 100)).toFixed(2)} />
      </svg>
      <span className="absolute inset-0 flex flex-col items-center justify-center font-serif font-bold leading-none text-green-900" aria-hidden="true">
        <span className="text-5xl md:text-6xl" data-dial-number>
          {shown}
        </span>
        <small className="mt-1 font-sans text-xs font-semibold uppercase tracking-wide text-green-700">out of 100</small>
      </span>
    </figure>
  );
}

function Bar({ score }: { score: number }) {
  const colour = barColour(score);
  return (
    <svg className="h-2.5 w-full" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true" data-bar={colour}>
      <rect width="100" height="4" rx="2" className="fill-green-900/10" />
      <rect width={Math.max(0, Math.min(100, score))} height="4" rx="2" className={BAR_FILL[colour]} />
    </svg>
  );
}

function Photos({ rec }: { rec: ClientRecommendation }) {
  const [all, setAll] = useState(false);
  if (!rec.photos.length) return null;
  const shown = all ? rec.photos : rec.photos.slice(0, PHOTOS_SHOWN);
  const more = rec.photos.length - PHOTOS_SHOWN;
  return (
    <ul className="client-photos" aria-label={`Photos of ${rec.subcategory}`}>
      {shown.map((src, i) => (
        <li key={src}>
          <img src={src} alt={`${rec.subcategory}, ${i + 1} of ${rec.photos.length}`} loading="lazy" />
        </li>
      ))}
      {!all && more > 0 && (
        <li>
          <button type="button" className="client-photos-more" onClick={() => setAll(true)} aria-label={`Show ${more} more photos of ${rec.subcategory}`}>
            +{more} more
          </button>
        </li>
      )}
    </ul>
  );
}

function ResponseChoice({
  rec,
  choice,
  onChange,
  locked,
}: {
  rec: ClientRecommendation;
  choice: Choice | undefined;
  onChange: (choice: Choice | undefined) => void;
  locked: boolean;
}) {
  const id = useId();
  if (locked) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-recorded-response={choice?.action ?? "none"}>
        {choice?.action === "request_quote" ? "Quote requested" : choice?.action === "ignore" ? "Set aside" : "No response"}
        {choice?.notes ? <span className="font-normal text-ink/80"> · {choice.notes}</span> : null}
      </p>
    );
  }
  return (
    <fieldset className="client-response" data-response-for={rec.id}>
      <legend className="sr-only">Your response to {rec.subcategory}</legend>
      <div className="flex flex-wrap gap-2">
        {(
          [
            ["request_quote", "Request a quote"],
            ["ignore", "Ignore"],
          ] as const
        ).map(([action, label]) => (
          <label key={action} className="client-choice" data-checked={choice?.action === action}>
            <input
              type="radio"
              name={`response-${rec.id}`}
              value={action}
              checked={choice?.action === action}
              onChange={() => onChange({ action, notes: choice?.notes ?? "" })}
            />
            <span>{label}</span>
          </label>
        ))}
        {choice && (
          <button type="button" className="btn btn-sm client-clear" onClick={() => onChange(undefined)}>
            Clear
          </button>
        )}
      </div>
      {choice?.action === "request_quote" && (
        <div className="field mt-3">
          <label htmlFor={`${id}-notes`}>Notes for the quote (optional)</label>
          <textarea id={`${id}-notes`} rows={2} maxLength={2000} value={choice.notes} onChange={(e) => onChange({ action: "request_quote", notes: e.target.value })} />
        </div>
      )}
    </fieldset>
  );
}

const TASK_STATUS: Record<string, string> = { scheduled: "Scheduled", in_progress: "In progress", completed: "Done", cancelled: "Cancelled" };
const QUOTE_STATUS: Record<string, string> = { pending: "Quote requested", quoted: "Quote ready: answer it under Quotes", accepted: "Quote accepted" };

/** My Home: where a recommendation of the homeowner's own report stands, or the form that asks for a quote. */
function PortalItem({ rec, item, reportId }: { rec: ClientRecommendation; item: HomeReportPayload["items"][string] | undefined; reportId: number }) {
  if (!item) return null;
  if (item.quote) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-item-state="quote">
        {item.quote.status === "quoted" ? <a className="link" href={`/my-home/quotes#quote-${item.quote.id}`}>{QUOTE_STATUS.quoted}</a> : QUOTE_STATUS[item.quote.status]}
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

function NotFound() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-20 text-center" role="alert">
      <h1 className="font-serif text-3xl font-bold text-green-900">Report Not Found</h1>
      <p className="mt-3 text-ink/80">The requested report could not be found or the link has expired.</p>
    </div>
  );
}

export default function ClientReport({ token, sample = false, reportId }: { token?: string; sample?: boolean; reportId?: number }) {
  const portal = reportId !== undefined;
  const url = portal ? `/api/my-home/reports/${reportId}` : `/api/client-report/${token}`;
  const client = useQueryClient();
  const { data, error, isPending } = useQuery<Omit<ClientReportPayload, "share"> & { share?: ClientReportPayload["share"] } & Partial<Omit<HomeReportPayload, "report" | "property">>>({ queryKey: [url] });
  const [choices, setChoices] = useState<Record<number, Choice>>({});
  const [submitting, setSubmitting] = useState(false);
  const done = useRef<HTMLDivElement>(null);

  // Another browser holds the link (or it was revoked, or it expired): the spec's expired page.
  useEffect(() => {
    if (error instanceof ApiError && error.status === 410) window.location.replace("/report-expired");
  }, [error]);

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
      <div className="flex justify-center py-24" role="status" aria-label="Loading your report">
        <span className="spinner" />
      </div>
    );
  }
  if (error || !data) return error instanceof ApiError && error.status === 410 ? null : <NotFound />;

  const { report, share, property } = data;
  const score = report.overallScore ?? NO_SCORE;
  const label = clientLabel(score);
  const responded = Boolean(share?.respondedAt);
  const recorded = Object.fromEntries((share?.responses ?? []).map((r) => [r.maintenanceTaskId, { action: r.action, notes: r.notes ?? "" }]));
  const shownChoices: Record<number, Choice> = responded ? recorded : choices;
  const recommendations = report.reportData.recommendations;
  const answering = barShown;
  const answered = Object.keys(choices).length;
  const categories = report.reportData.allCategories.filter((c): c is typeof c & { score: number } => c.score !== null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const responses = Object.entries(choices).map(([id, c]) => ({
      maintenanceTaskId: Number(id),
      action: c.action,
      notes: c.action === "request_quote" && c.notes.trim() ? c.notes.trim() : null,
    }));
    if (!responses.length) {
      toast({ title: "No Responses", description: "Please select at least one response before submitting.", variant: "destructive" });
      return;
    }
    if (sample) {
      toast({ title: "Sample Report", description: "This sample sends nothing. In your own report, these choices go to your Haven provider, who prepares the quotes." });
      return;
    }
    setSubmitting(true);
    try {
      await apiRequest("POST", `${url}/responses`, { responses });
      toast({ title: "Responses Submitted", description: "Thank you. Your Haven provider will be in touch soon." });
      await client.invalidateQueries({ queryKey: [url] });
      requestAnimationFrame(() => done.current?.focus());
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 410) return window.location.replace("/report-expired");
      toast({ title: "Error", description: "Failed to submit responses. Please try again.", variant: "destructive" });
      if (failure instanceof ApiError && failure.status === 409) await client.invalidateQueries({ queryKey: [url] });
    } finally {
      setSubmitting(false);
    }
  }

  // Each item with its control: the one-time answer (a link) or where it stands in My Home.
  const recommendationList = (control: (r: ClientRecommendation) => ReactNode) =>
    recommendations.length === 0 ? (
      <p className="mt-4 text-ink/80">Nothing needs attention. Well done.</p>
    ) : (
      <ul className="mt-4 divide-y divide-green-900/10" data-recommendations>
        {recommendations.map((r) => (
          <li key={r.id} className="py-5" data-recommendation={r.id}>
            <div className="flex flex-wrap items-center gap-2 text-xs font-bold uppercase tracking-wide">
              <span className={`rounded-full px-2.5 py-1 ${CHIP[r.priority]}`}>{clientPriorityLabel(r.priority)}</span>
              {r.urgency && <span className="rounded-full border border-green-900/25 px-2.5 py-1 text-green-900">{r.urgency}</span>}
            </div>
            <h3 className="mt-2 font-semibold text-green-900">
              {r.category} · {r.subcategory}
            </h3>
            {r.description && r.description !== r.notes && <p className="mt-1 text-ink/90">{r.description}</p>}
            {r.notes && <p className="mt-1 text-ink/80">{r.notes}</p>}
            <Photos rec={r} />
            {control(r)}
          </li>
        ))}
      </ul>
    );

  return (
    <div data-client-report={report.id}>
      {/* My Home keeps the site's header and the portal's tabs above the report. */}
      {!portal && (
      <div className="bg-green-950 px-4 py-4 text-cream">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4">
          <span className="font-serif text-xl font-bold text-gold-300">Haven</span>
          <span className="flex items-center gap-3 text-sm text-cream/90">
            Prepared for {property.clientName}
            {sample && <span className="rounded-full bg-gold-300 px-3 py-1 text-xs font-bold uppercase tracking-wide text-green-950">Sample</span>}
          </span>
        </div>
      </div>
      )}
      <div className="mx-auto max-w-5xl px-4 py-8 md:py-10">
        <h1 className="font-serif text-3xl font-bold text-green-900 md:text-4xl">Your Haven Health Report</h1>
        <p className="mt-2 mb-8 text-ink/80">
          {property.address}, {property.city}
          {property.province ? `, ${property.province}` : ""}
        </p>

        <div className="card flex flex-col items-center gap-8 md:flex-row">
          <ScoreDial score={score} label={label} />
          <div className="flex-1 text-center md:text-left">
            <p className="font-serif text-3xl font-bold text-green-900" data-report-label>
              {label}
            </p>
            <p className="mt-2 text-sm text-ink/80">Report of {new Date(report.createdAt).toLocaleDateString("en-CA", { year: "numeric", month: "long", day: "numeric" })}</p>
            <dl className="mt-5 grid grid-cols-3 gap-3 text-center" data-summary>
              <div className="rounded-xl bg-band-red/10 p-3">
                <dt className="text-xs font-semibold uppercase text-band-red">Urgent</dt>
                <dd className="font-serif text-2xl font-bold">{report.reportData.summary.highPriority}</dd>
              </div>
              <div className="rounded-xl bg-gold-300/30 p-3">
                <dt className="text-xs font-semibold uppercase text-green-950">30 Days</dt>
                <dd className="font-serif text-2xl font-bold">{report.reportData.summary.mediumPriority}</dd>
              </div>
              <div className="rounded-xl bg-green-900/10 p-3">
                <dt className="text-xs font-semibold uppercase text-green-800">60 Days</dt>
                <dd className="font-serif text-2xl font-bold">{report.reportData.summary.lowPriority}</dd>
              </div>
            </dl>
          </div>
        </div>

        {categories.length > 0 && (
          <section className="card mt-6" aria-labelledby="cat-title">
            <h2 id="cat-title" className="font-serif text-2xl font-bold text-green-900">
              Category Breakdown
            </h2>
            <ul className="mt-5 grid gap-x-10 gap-y-4 md:grid-cols-2" data-categories>
              {categories.map((c) => (
                <li key={c.categoryName} data-category={c.categoryName}>
                  <div className="flex justify-between gap-3 text-sm">
                    <span className="font-semibold">{c.categoryName}</span>
                    <span className={`flex-none font-semibold ${BAND_TEXT[barColour(c.score)]}`}>
                      {c.score} · {categoryBand(c.score)}
                    </span>
                  </div>
                  <div className="mt-1">
                    <Bar score={c.score} />
                  </div>
                </li>
              ))}
            </ul>
          </section>
        )}

        {portal ? (
          <section className="card mt-6" aria-labelledby="rec-title" data-portal-recommendations>
            <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
              Recommendations
            </h2>
            <p className="mt-1 text-sm text-ink/80">
              {data.shared ? "This report was shared with you: it is read-only." : "Ask for a quote on any item you want Haven to take care of."}
            </p>
            {recommendationList((r) => (data.shared ? null : <PortalItem rec={r} item={data.items?.[String(r.id)]} reportId={report.id} />))}
          </section>
        ) : (
          <form id="client-responses" className="card mt-6" aria-labelledby="rec-title" onSubmit={submit} noValidate>
            <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
              Recommendations
            </h2>
            {responded ? (
              <div ref={done} tabIndex={-1} className="client-done mt-3" data-responded>
                <p className="font-semibold">Responses Submitted</p>
                <p className="text-sm">Thank you. Your Haven provider will be in touch soon about the quotes you asked for.</p>
              </div>
            ) : sample ? (
              <p className="mt-1 text-sm text-ink/80" data-sample-note>
                A read-only sample: in a real report you request a quote or set aside each item, then submit once.
              </p>
            ) : (
              <p className="mt-1 text-sm text-ink/80">Choose a response for the items you want to act on, then submit once.</p>
            )}
            {recommendationList((r) => (
              <ResponseChoice
                rec={r}
                choice={shownChoices[r.id]}
                locked={responded}
                onChange={(choice) =>
                  setChoices((current) => {
                    const next = { ...current };
                    if (choice) next[r.id] = choice;
                    else delete next[r.id];
                    return next;
                  })
                }
              />
            ))}
          </form>
        )}
        {answering && (
          // Sticky across the whole report, so a long report never hides the one way to answer. The button
          // sits on the left: wide screens show toasts bottom right.
          <div className="sticky bottom-0 z-30 -mx-4 mt-6 border-t border-green-900/15 bg-white px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.12)]" data-answer-bar>
            <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
              <button type="submit" form="client-responses" className="btn btn-gold" disabled={submitting}>
                {submitting ? "Submitting…" : "Submit Responses"}
              </button>
              <p className="text-sm text-ink/80" aria-live="polite" data-answer-count>
                <strong>{answered}</strong> of {recommendations.length} answered
                {answered === 0 && <span className="text-ink/70"> · choose a response for each item you want to act on</span>}
              </p>
            </div>
          </div>
        )}
        {sample && (
          <p className="mt-10 text-center">
            <a className="btn btn-gold btn-lg" href="/pricing">
              See Plans
            </a>
          </p>
        )}
      </div>
    </div>
  );
}
