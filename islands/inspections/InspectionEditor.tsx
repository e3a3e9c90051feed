import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { InspectionWithEntries } from "../../src/modules/inspections/inspections.schemas";
import { DEFAULT_OPEN_CATEGORIES, INSPECTION_WEIGHTS } from "../../src/modules/inspections/template";
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { toast } from "../ui/toast";
import { CategorySection } from "./CategorySection";
import { CompleteDialog, CompletedNotice, openSlot } from "./Completion";
import { StickyProgress, saveStateLabel } from "./StickyProgress";
import { VisitHeader } from "./VisitHeader";
import { allSlots, completionOf, nextUnscored, progressOf } from "./model";
import { keepPageForOffline } from "./offline";
import { FormStore } from "./store";
import { SyncEngine } from "./sync";

type Load =
  | { state: "loading" }
  | { state: "ready"; store: FormStore; engine: SyncEngine }
  | { state: "error"; message: string };

/** Opens the inspection: the server's copy merged with this device's, or this device's alone when offline. */
async function openInspection(inspectionId: number): Promise<FormStore> {
  // Both at once: the device's copy and the server's.
  const fromDevice = FormStore.fromDevice(inspectionId);
  const fromServer = apiRequest<InspectionWithEntries>("GET", `/api/inspections/${inspectionId}`);
  fromServer.catch(() => undefined);
  const local = await fromDevice;
  try {
    return await FormStore.merge(await fromServer, local);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) handleUnauthorized();
    if (error instanceof ApiError && error.status !== 401 && error.status < 500) throw error;
    if (local) return local;
    throw new Error("This inspection has not been opened on this device yet, and the server cannot be reached.");
  }
}

export function InspectionEditor({
  inspectionId,
  mode,
  reportId = null,
}: {
  inspectionId: number;
  mode: "new" | "edit";
  reportId?: number | null;
}) {
  const [load, setLoad] = useState<Load>({ state: "loading" });

  useEffect(() => {
    let engine: SyncEngine | null = null;
    let cancelled = false;
    openInspection(inspectionId).then(
      (store) => {
        if (cancelled) return;
        engine = new SyncEngine(store);
        engine.start();
        setLoad({ state: "ready", store, engine });
        void keepPageForOffline(inspectionId);
      },
      (error: unknown) => {
        if (cancelled) return;
        const message =
          error instanceof ApiError && error.status === 404
            ? "Inspection not found."
            : error instanceof Error
              ? error.message
              : String(error);
        setLoad({ state: "error", message });
      },
    );
    return () => {
      cancelled = true;
      engine?.stop();
    };
  }, [inspectionId]);

  if (load.state === "loading") {
    return (
      <p className="mt-6 text-ink/75" role="status">
        Opening the inspection…
      </p>
    );
  }
  if (load.state === "error") {
    return (
      <div className="alert alert-danger mt-6" role="alert">
        {load.message}{" "}
        <a className="link" href="/admin/inspections">
          Back to inspections
        </a>
      </div>
    );
  }
  return <Form store={load.store} engine={load.engine} mode={mode} reportId={reportId} />;
}

function Form({
  store,
  engine,
  mode,
  reportId,
}: {
  store: FormStore;
  engine: SyncEngine;
  mode: "new" | "edit";
  reportId: number | null;
}) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { inspection, entries } = state;
  const completed = inspection.status === "completed";
  const [open, setOpen] = useState<Set<string>>(() => new Set(DEFAULT_OPEN_CATEGORIES));
  const slots = useMemo(() => allSlots(inspection.rooms), [inspection.rooms]);
  const progress = progressOf(slots, entries);
  const completion = completionOf(slots, entries);
  const [confirming, setConfirming] = useState(false);
  const waiting = SyncEngine.waiting(store);
  const lastJump = useRef<string | undefined>(undefined);

  const toggle = useCallback((name: string) => {
    setOpen((prev) => {
      const next = new Set(prev);
      next.has(name) ? next.delete(name) : next.add(name);
      return next;
    });
  }, []);

  const jumpToNextUnscored = () => {
    const slot = nextUnscored(slots, entries, lastJump.current);
    if (!slot) {
      toast({ title: "Every item has a score" });
      return;
    }
    lastJump.current = slot.key;
    show(slot);
  };

  /** Opens an item's section, brings its card into view and focuses its first score (or notes). */
  const show = (slot: { key: string; categoryName: string }) => {
    setOpen((prev) => new Set(prev).add(slot.categoryName));
    openSlot(slot.key);
  };

  const complete = () => {
    setConfirming(false);
    store.requestComplete(true);
    if (!navigator.onLine) {
      toast({
        title: "Completion queued",
        description: "The inspection will be completed as soon as the network is back.",
      });
    }
    engine.schedule(0);
  };

  return (
    <div className="inspection-form" data-inspection-id={inspection.id}>
      <p className="mt-1 text-ink/80">
        <span className="font-semibold">{inspection.propertyLabel}</span> ·{" "}
        <span data-testid="inspection-status">{completed ? "Completed" : "In progress"}</span>
      </p>
      <VisitHeader clientName={inspection.clientName} visit={inspection.visit} />
      {completed && <CompletedNotice inspectionId={inspection.id} reportId={reportId} />}
      {inspection.completeRequested && !completed && (
        <p className="alert alert-waiting mt-3" role="status" data-testid="completion-waiting">
          Completion is waiting to be sent: it goes as soon as the network allows.
        </p>
      )}

      <div className="mt-4 grid gap-3">
        {INSPECTION_WEIGHTS.map((category) => (
          <CategorySection
            key={category.name}
            category={category}
            rooms={inspection.rooms}
            entries={entries}
            photos={state.photos}
            sending={state.sending}
            open={open.has(category.name)}
            onToggle={toggle}
            store={store}
            readOnly={completed}
          />
        ))}
      </div>

      <div className="form-actions">
        <a className="btn btn-outline" href="/admin/inspections">
          Cancel
        </a>
        {!completed && (
          <button type="button" className="btn btn-green" onClick={() => void engine.saveAll()}>
            {mode === "new" ? "Save Inspection" : "Update Inspection"}
          </button>
        )}
      </div>

      <StickyProgress
        progress={progress}
        saveState={saveStateLabel(completed, state, waiting)}
        waiting={waiting}
        online={state.online}
        completion={!completed && !inspection.completeRequested ? completion : null}
        onNextUnscored={completed ? null : jumpToNextUnscored}
        onComplete={() => setConfirming(true)}
        onShow={show}
      />
      {confirming && (
        <CompleteDialog completion={completion} onConfirm={complete} onCancel={() => setConfirming(false)} />
      )}
    </div>
  );
}
