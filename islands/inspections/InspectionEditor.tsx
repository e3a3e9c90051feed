import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { InspectionWithEntries } from "../../src/modules/inspections/inspections.schemas";
import { type CategoryWeights, DEFAULT_OPEN_CATEGORIES } from "../../src/modules/inspections/template-rules";
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { lazyPart, useLazy, usePreloadOnTouch } from "../ui/lazy";
import { toast } from "../ui/toast";
import { BackgroundSync, syncPart } from "./background-sync";
import { CategorySection } from "./CategorySection";
import { openSlot } from "./Completion";
import { StickyProgress, saveStateLabel } from "./StickyProgress";
import { VisitHeader } from "./VisitHeader";
import { allSlots, completionOf, nextUnscored, progressOf, waitingOf } from "./model";
import { keepPageForOffline } from "./offline";
import { FormStore } from "./store";

/** The completion dialog and the completed notice (docs/decisions.md#79); with the sync engine, fetched on first touch. */
const completionParts = lazyPart(() => import("./CompletionParts"));
const ON_TOUCH = [completionParts, syncPart];

type Load =
  | { state: "loading" }
  | { state: "ready"; store: FormStore; sync: BackgroundSync }
  | { state: "error"; message: string };

/** Opens the inspection: the server's copy merged with this device's, or this device's alone when offline. */
async function openInspection(inspectionId: number, categories: readonly CategoryWeights[]): Promise<FormStore> {
  // Both at once: the device's copy and the server's.
  const fromDevice = FormStore.fromDevice(inspectionId);
  const fromServer = apiRequest<InspectionWithEntries>("GET", `/api/inspections/${inspectionId}`);
  fromServer.catch(() => undefined);
  const local = await fromDevice;
  try {
    return await FormStore.merge(await fromServer, local, categories);
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
  categories,
}: {
  inspectionId: number;
  mode: "new" | "edit";
  reportId?: number | null;
  /** The template's categories, from the page (form.routes.ts). */
  categories: CategoryWeights[];
}) {
  const [load, setLoad] = useState<Load>({ state: "loading" });

  useEffect(() => {
    let sync: BackgroundSync | null = null;
    let cancelled = false;
    openInspection(inspectionId, categories).then(
      (store) => {
        if (cancelled) return;
        sync = new BackgroundSync(store);
        sync.start();
        setLoad({ state: "ready", store, sync });
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
      sync?.stop();
    };
  }, [inspectionId, categories]);

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
  return <Form store={load.store} sync={load.sync} mode={mode} reportId={reportId} categories={categories} />;
}

function Form({
  store,
  sync,
  mode,
  reportId,
  categories,
}: {
  store: FormStore;
  sync: BackgroundSync;
  mode: "new" | "edit";
  reportId: number | null;
  categories: CategoryWeights[];
}) {
  const state = useSyncExternalStore(store.subscribe, store.getState);
  const { inspection, entries } = state;
  const completed = inspection.status === "completed";
  const [open, setOpen] = useState<Set<string>>(() => new Set(DEFAULT_OPEN_CATEGORIES));
  const slots = useMemo(() => allSlots(categories, inspection.rooms), [categories, inspection.rooms]);
  const progress = progressOf(slots, entries);
  const completion = completionOf(categories, slots, entries);
  const [confirming, setConfirming] = useState(false);
  const waiting = waitingOf(state);
  const lastJump = useRef<string | undefined>(undefined);
  const root = useRef<HTMLDivElement>(null);
  usePreloadOnTouch(root, ON_TOUCH);
  const parts = useLazy(completionParts, completed || confirming);

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
    sync.ready().then(
      (engine) => engine.schedule(0),
      () => undefined,
    );
  };

  // 'Save Inspection': the engine sends everything now; when its code cannot be fetched (offline, before the
  // service worker keeps it), the same words as its own offline failure.
  const save = () =>
    sync.ready().then(
      (engine) => engine.saveAll(),
      () =>
        toast({
          title: "Failed to save inspection data",
          description: "Everything is kept on this device and will be sent when the network allows.",
          variant: "destructive",
        }),
    );

  return (
    <div ref={root} className="inspection-form" data-inspection-id={inspection.id}>
      <p className="mt-1 text-ink/80">
        <span className="font-semibold">{inspection.propertyLabel}</span> ·{" "}
        <span data-testid="inspection-status">{completed ? "Completed" : "In progress"}</span>
      </p>
      <VisitHeader clientName={inspection.clientName} visit={inspection.visit} />
      {completed && parts && <parts.CompletedNotice inspectionId={inspection.id} reportId={reportId} />}
      {inspection.completeRequested && !completed && (
        <p className="alert alert-waiting mt-3" role="status" data-testid="completion-waiting">
          Completion is waiting to be sent: it goes as soon as the network allows.
        </p>
      )}

      <div className="mt-4 grid gap-3">
        {categories.map((category) => (
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
          <button type="button" className="btn btn-green" onClick={() => void save()}>
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
      {confirming && parts && (
        <parts.CompleteDialog completion={completion} onConfirm={complete} onCancel={() => setConfirming(false)} />
      )}
    </div>
  );
}
