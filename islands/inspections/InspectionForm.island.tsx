import { type ComponentType, useEffect, useState } from "react";
import type { InspectionFormProps } from "../../src/modules/inspections/form.routes";
import type { InspectionEditor as Editor } from "./InspectionEditor";
import { registerServiceWorker } from "./offline";
import type StartInspection from "./StartInspection";

// Each page loads only its half (the JS budget): the start screen on /new, the editor once there is an inspection.
// Loaded in an effect, not with React.lazy: React holds a Suspense boundary's content back for 300 ms after its
// fallback shows, and the editor cannot open the inspection until it is on screen (the 1 s budget, docs/architecture.md).
const loadEditor = () => import("./InspectionEditor").then((m) => m.InspectionEditor);
const loadStart = () => import("./StartInspection").then((m) => m.default);

/** The module's component once `load` (null: none wanted) has answered; null meanwhile. A failure is thrown. */
function useComponent<C extends ComponentType<never>>(load: (() => Promise<C>) | null): C | null {
  const [loaded, setLoaded] = useState<{ component: C } | { error: unknown } | null>(null);
  useEffect(() => {
    if (!load) return;
    let live = true;
    load().then(
      (component) => live && setLoaded({ component }),
      (error: unknown) => live && setLoaded({ error }),
    );
    return () => {
      live = false;
    };
  }, [load]);
  if (loaded && "error" in loaded) throw loaded.error;
  return loaded ? loaded.component : null;
}

/**
 * The inspection form (staff-side §2; docs/decisions.md#18): pick a property and start, then score
 * every item. Everything is kept on this device at once and sent in the background.
 */
export default function InspectionForm({ mode, inspectionId, reportId = null, upcoming }: InspectionFormProps) {
  const [id, setId] = useState<number | null>(inspectionId);
  useEffect(registerServiceWorker, []);
  const Start = useComponent<typeof StartInspection>(id === null ? loadStart : null);
  const EditorPart = useComponent<typeof Editor>(id === null ? null : loadEditor);
  if (id === null && Start) return <Start onStarted={setId} upcoming={upcoming} />;
  if (id !== null && EditorPart) return <EditorPart inspectionId={id} mode={mode} reportId={reportId} />;
  return (
    <p className="mt-6 text-ink/75" role="status">
      Loading…
    </p>
  );
}
