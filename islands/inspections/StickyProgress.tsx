// The bar kept at the bottom of the inspection form (InspectionEditor.tsx): progress, what is saved, the next
// unscored item and completion.
import { CompletionBar } from "./Completion";
import type { Completion, Progress } from "./model";
import type { FormState } from "./store";

/** What the sticky bar says about saving: completed, offline, sending, waiting or all saved. */
export function saveStateLabel(completed: boolean, state: FormState, waiting: number): string {
  if (completed) return "Completed";
  if (!state.online) return waiting ? `Offline · ${waiting} waiting on this device` : "Offline · everything saved";
  if (state.sending.size) return `Sending… ${waiting} waiting`;
  return waiting ? `${waiting} waiting to be sent` : "All changes saved";
}

interface StickyProgressProps {
  progress: Progress;
  saveState: string;
  waiting: number;
  online: boolean;
  /** What completing needs, while it can still be asked for (not completed, not queued). */
  completion: Completion | null;
  /** Null once the inspection is completed. */
  onNextUnscored: (() => void) | null;
  onComplete: () => void;
  onShow: (slot: { key: string; categoryName: string }) => void;
}

/** The bar kept at the bottom of the screen: progress, what is saved, the next unscored item and completion. */
export function StickyProgress({
  progress,
  saveState,
  waiting,
  online,
  completion,
  onNextUnscored,
  onComplete,
  onShow,
}: StickyProgressProps) {
  return (
    <div className="sticky-progress" data-testid="sticky-bar">
      <div className="sticky-progress-row">
        <div className="min-w-0">
          <p className="text-sm font-semibold" data-testid="overall-progress">
            {progress.completed}/{progress.total} · {progress.percent}%
          </p>
          <p
            className="text-sm"
            role="status"
            data-testid="save-state"
            data-waiting={waiting}
            data-online={String(online)}
          >
            {saveState}
          </p>
        </div>
        {onNextUnscored && (
          <button type="button" className="btn btn-gold btn-sm shrink-0" onClick={onNextUnscored}>
            Next<span className="wide-only"> unscored</span>
          </button>
        )}
      </div>
      {completion && <CompletionBar completion={completion} onComplete={onComplete} onShow={onShow} />}
      <div className="progress-track" aria-hidden="true">
        <div className="progress-fill" style={{ width: `${progress.percent}%` }} />
      </div>
    </div>
  );
}
