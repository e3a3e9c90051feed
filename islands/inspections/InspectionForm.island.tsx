import { useEffect, useState } from "react";
import type { InspectionFormProps } from "../../src/modules/inspections/form.routes";
import { lazyPart, useLazy } from "../ui/lazy";
import { registerServiceWorker } from "./offline";

// Each page loads only its half (the JS budget): the start screen on /new, the editor once there is an inspection
// (islands/ui/lazy.tsx: no Suspense, whose 300 ms hold-back the editor cannot afford; the 1 s budget,
// docs/architecture.md).
const editor = lazyPart(() => import("./InspectionEditor").then((m) => m.InspectionEditor));
const start = lazyPart(() => import("./StartInspection").then((m) => m.default));

/**
 * The inspection form (staff-side §2; docs/decisions.md#18): pick a property and start, then score
 * every item. Everything is kept on this device at once and sent in the background.
 */
export default function InspectionForm({
  mode,
  inspectionId,
  reportId = null,
  upcoming,
  categories,
}: InspectionFormProps) {
  const [id, setId] = useState<number | null>(inspectionId);
  useEffect(registerServiceWorker, []);
  const Start = useLazy(start, id === null);
  const EditorPart = useLazy(editor, id !== null);
  if (id === null && Start) return <Start onStarted={setId} upcoming={upcoming} />;
  if (id !== null && EditorPart)
    return <EditorPart inspectionId={id} mode={mode} reportId={reportId} categories={categories} />;
  return (
    <p className="mt-6 text-ink/75" role="status">
      Loading…
    </p>
  );
}
