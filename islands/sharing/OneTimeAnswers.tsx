// The one-time answers of a shared report's link (ClientReport.island.tsx): a response per recommendation,
// sent once from the sticky answer bar; once sent, the recorded answers, read-only.
import { type FormEvent, type Ref, useId } from "react";
import type { ClientRecommendation, ResponseAction } from "../../src/modules/sharing/sharing.schemas";
import { RecommendationList } from "./RecommendationList";

export type Choice = { action: ResponseAction; notes: string };

interface ResponseChoiceProps {
  rec: ClientRecommendation;
  choice: Choice | undefined;
  onChange: (choice: Choice | undefined) => void;
  /** Answered already: the recorded choice, read-only. */
  locked: boolean;
}

function ResponseChoice({ rec, choice, onChange, locked }: ResponseChoiceProps) {
  const id = useId();
  if (locked) {
    return (
      <p className="mt-3 text-sm font-semibold text-green-900" data-recorded-response={choice?.action ?? "none"}>
        {choice?.action === "request_quote"
          ? "Quote requested"
          : choice?.action === "ignore"
            ? "Set aside"
            : "No response"}
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
  return (
    <form id="client-responses" className="card mt-6" aria-labelledby="rec-title" onSubmit={onSubmit} noValidate>
      <h2 id="rec-title" className="font-serif text-2xl font-bold text-green-900">
        Recommendations
      </h2>
      {responded ? (
        <div ref={doneRef} tabIndex={-1} className="client-done mt-3" data-responded>
          <p className="font-semibold">Responses Submitted</p>
          <p className="text-sm">
            Thank you. Your Haven provider will be in touch soon about the quotes you asked for.
          </p>
        </div>
      ) : sample ? (
        <p className="mt-1 text-sm text-ink/80" data-sample-note>
          A read-only sample: in a real report you request a quote or set aside each item, then submit once.
        </p>
      ) : (
        <p className="mt-1 text-sm text-ink/80">
          Choose a response for the items you want to act on, then submit once.
        </p>
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
  return (
    <div
      className="sticky bottom-0 z-30 -mx-4 mt-6 border-t border-green-900/15 bg-white px-4 py-3 shadow-[0_-4px_16px_rgb(0_0_0/0.12)]"
      data-answer-bar
    >
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button type="submit" form="client-responses" className="btn btn-gold" disabled={submitting}>
          {submitting ? "Submitting…" : "Submit Responses"}
        </button>
        <p className="text-sm text-ink/80" aria-live="polite" data-answer-count>
          <strong>{answered}</strong> of {total} answered
          {answered === 0 && <span className="text-ink/70"> · choose a response for each item you want to act on</span>}
        </p>
      </div>
    </div>
  );
}
