// What completing shows beyond the sticky bar: the dialog that asks first and the completed inspection's notice, in a
// chunk of its own (InspectionEditor.tsx fetches it on the first touch of the form, or for a completed inspection):
// an open inspection's first screen needs neither (docs/decisions.md#79).
import { useEffect, useRef, useState } from "react";
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { toast } from "../ui/toast";
import { type Completion, LOW_COVERAGE_PERCENT } from "./model";

/** Asks before completing (it cannot be undone): how many items are scored, and a plain warning when few are. */
export function CompleteDialog({
  completion,
  onConfirm,
  onCancel,
}: {
  completion: Completion;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const low = completion.percent < LOW_COVERAGE_PERCENT;
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby="complete-title"
      onClose={onCancel}
      data-testid="complete-dialog"
    >
      <h2 id="complete-title" className="font-serif text-xl font-bold text-green-900">
        Complete this inspection?
      </h2>
      <p className="mt-2" data-testid="complete-count">
        {completion.scored} of {completion.total} items are scored ({completion.percent}%).
      </p>
      {low && (
        <p className="alert alert-danger mt-3" role="alert" data-testid="complete-warning">
          Fewer than {LOW_COVERAGE_PERCENT}% of the items are scored: the report will only cover what was scored.
        </p>
      )}
      <p className="mt-2 text-sm text-ink/75">A completed inspection cannot be changed.</p>
      <div className="form-actions form-actions-plain">
        <button type="button" className="btn btn-outline" onClick={() => dialog.current?.close()}>
          Keep editing
        </button>
        <button type="button" className="btn btn-gold" onClick={onConfirm} data-testid="confirm-complete">
          Complete Inspection
        </button>
      </div>
    </dialog>
  );
}

/** A completed inspection links straight to its report, or generates it (staff-side §7's call) and then links to it. */
export function CompletedNotice({ inspectionId, reportId }: { inspectionId: number; reportId: number | null }) {
  const [report, setReport] = useState(reportId);
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    setBusy(true);
    try {
      const created = await apiRequest<{ id: number }>("POST", `/api/inspections/${inspectionId}/generate-report`);
      setReport(created.id);
      toast({ title: "Report generated successfully" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return handleUnauthorized();
      toast({
        title: "Failed to generate report",
        description: error instanceof Error ? error.message : undefined,
        variant: "destructive",
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="alert alert-success mt-3 completed-notice" role="status" data-testid="completed-notice">
      <span>This inspection is completed.</span>
      {report ? (
        <a className="btn btn-green btn-sm" href={`/admin/reports/${report}`} data-testid="view-report">
          View Report
        </a>
      ) : (
        <button
          type="button"
          className="btn btn-green btn-sm"
          onClick={() => void generate()}
          disabled={busy}
          data-testid="generate-report"
        >
          {busy ? "Generating…" : "Generate Report"}
        </button>
      )}
      <a className="link" href="/admin/inspections">
        Back to inspections
      </a>
    </div>
  );
}
