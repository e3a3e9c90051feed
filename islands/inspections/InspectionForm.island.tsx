import { lazy, Suspense, useEffect, useState } from "react";
import type { InspectionFormProps } from "../../src/modules/inspections/form.routes";
import { registerServiceWorker } from "./offline";

// Each page loads only its half (the JS budget): the start screen on /new, the editor once there is an inspection.
const InspectionEditor = lazy(() => import("./InspectionEditor").then((m) => ({ default: m.InspectionEditor })));
const StartInspection = lazy(() => import("./StartInspection"));

/**
 * The inspection form (staff-side §2; docs/decisions.md#18): pick a property and start, then score
 * every item. Everything is kept on this device at once and sent in the background.
 */
export default function InspectionForm({ mode, inspectionId, reportId = null, upcoming }: InspectionFormProps) {
  const [id, setId] = useState<number | null>(inspectionId);
  useEffect(registerServiceWorker, []);
  return (
    <Suspense
      fallback={
        <p className="mt-6 text-ink/75" role="status">
          Loading…
        </p>
      }
    >
      {id === null ? (
        <StartInspection onStarted={setId} upcoming={upcoming} />
      ) : (
        <InspectionEditor inspectionId={id} mode={mode} reportId={reportId} />
      )}
    </Suspense>
  );
}
