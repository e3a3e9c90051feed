// The one-time answers of a shared report's link (ClientReport.island.tsx): a response per recommendation,
// sent once from the sticky answer bar; once sent, the recorded answers, read-only.
import { type FormEvent, type Ref, useId } from "react";
import type { ClientRecommendation, ResponseAction } from "../../src/modules/sharing/sharing.schemas";
import { RecommendationList } from "./RecommendationList";
import { useWords } from "./report-words";

export type Choice = { action: ResponseAction; notes: string };

interface ResponseChoiceProps {
  rec: ClientRecommendation;
  choice: Choice | undefined;
  onChange: (choice: Choice | undefined) => void;
  /** Answered already: the recorded choice, read-only. */
  locked: boolean;
}

function ResponseChoice({ rec, choice, onChange, locked }: ResponseChoiceProps) {
  const { t, item } = useWords();
  const id = useId();
  if (locked) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-recorded-response={choice?.action ?? "none"}>
        {t("report.recorded", { action: choice?.action ?? "none" })}
        {choice?.notes ? <span className="font-normal text-ink/80"> · {choice.notes}</span> : null}
      </p>
    );
  }
  return (
    <fieldset className="client-response" data-response-for={rec.id}>
      <legend className="sr-only">{t("report.responseTo", { item: item(rec) })}</legend>
      <div className="flex flex-wrap gap-2">
        {(
          [
            ["request_quote", t("report.requestQuote")],
            ["ignore", t("report.ignore")],
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
            {t("report.clear")}
          </button>
        )}
      </div>
      {choice?.action === "request_quote" && (
        <div className="field mt-3">
          <label htmlFor={`${id}-notes`}>{t("report.notes")}</label>
          <textarea
            id={`${id}-notes`}
            rows={2}
            maxLength={2000}
            value={choice.notes}
            onChange={(e) => onChange({ action: "request_quote", notes: e.target.value })}
          />
        </div>
      )}
    </fieldset>
  );
}

interface AnswerFormProps {
  recommendations: ClientRecommendation[];
  /** The recorded answers once sent, else the choices made so far. */
  choices: Record<number, Choice>;
  responded: boolean;
  /** The marketing sample: read-only, its choices shown but never sent. */
  sample: boolean;
  onChoose: (id: number, choice: Choice | undefined) => void;
  onSubmit: (event: FormEvent) => void;
  /** The 'Responses Submitted' note, focused once the answers are sent. */
  doneRef: Ref<HTMLDivElement>;
}

/** The form the answer bar submits (its button names the form by id). */
export function AnswerForm({
  recommendations,
  choices,
  responded,
  sample,
  onChoose,
  onSubmit,
  doneRef,
}: AnswerFormProps) {
  const { t } = useWords();
  return (
    <form id="client-responses" className="card mt-6" aria-labelledby="rec-title" onSubmit={onSubmit} noValidate>
      <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
        {t("report.recommendations")}
      </h2>
      {responded ? (
        <div ref={doneRef} tabIndex={-1} className="client-done mt-3" data-responded>
          <p className="font-semibold">{t("report.submitted.title")}</p>
          <p className="text-sm">{t("report.submitted.text")}</p>
        </div>
      ) : sample ? (
        <p className="mt-1 text-sm text-ink/80" data-sample-note>
          {t("report.sample.note")}
        </p>
      ) : (
        <p className="mt-1 text-sm text-ink/80">{t("report.choose")}</p>
      )}
      <RecommendationList
        recommendations={recommendations}
        control={(r) => (
          <ResponseChoice
            rec={r}
            choice={choices[r.id]}
            locked={responded}
            onChange={(choice) => onChoose(r.id, choice)}
          />
        )}
      />
    </form>
  );
}

/**
 * Sticky across the whole report, so a long report never hides the one way to answer. The button sits on
 * the left: wide screens show toasts bottom right.
 */
export function AnswerBar({ answered, total, submitting }: { answered: number; total: number; submitting: boolean }) {
  const { t, around } = useWords();
  return (
    <div
      className="sticky bottom-0 z-30 -mx-4 mt-6 border-t border-green-900/15 bg-white px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.12)]"
      data-answer-bar
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button type="submit" form="client-responses" className="btn btn-gold" disabled={submitting}>
          {submitting ? t("report.submitting") : t("report.submit")}
        </button>
        <p className="text-sm text-ink/80" aria-live="polite" data-answer-count>
          {around("report.answered", { total }, "answered", <strong>{answered}</strong>)}
          {answered === 0 && <span className="text-ink/70">{t("report.answeredNone")}</span>}
        </p>
      </div>
    </div>
  );
}
