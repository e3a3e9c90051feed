import { memo, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { InspectionWithEntries } from "../../src/modules/inspections/inspections.schemas";
import {
  type CategoryWeights,
  DEFAULT_OPEN_CATEGORIES,
  INSPECTION_WEIGHTS,
} from "../../src/modules/inspections/template";
import { ApiError, apiRequest, handleUnauthorized } from "../ui/api";
import { toast } from "../ui/toast";
import { EntryCard } from "./EntryCard";
import { CompleteDialog, CompletedNotice, CompletionBar, openSlot } from "./Completion";
import {
  type Completion,
  type LocalEntry,
  type LocalPhoto,
  type Progress,
  type Rooms,
  allSlots,
  categorySlots,
  completionOf,
  hasData,
  nextUnscored,
  progressOf,
} from "./model";
import { keepPageForOffline } from "./offline";
import { FormStore, type FormState } from "./store";
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

const roomWord = (room: string) => room.toLowerCase();

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

/** What the sticky bar says about saving: completed, offline, sending, waiting or all saved. */
function saveStateLabel(completed: boolean, state: FormState, waiting: number): string {
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
function StickyProgress({
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
            Next unscored
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

interface SectionProps {
  category: CategoryWeights;
  rooms: Rooms;
  entries: Map<string, LocalEntry>;
  photos: Map<string, LocalPhoto>;
  sending: FormState["sending"];
  open: boolean;
  onToggle: (name: string) => void;
  store: FormStore;
  readOnly: boolean;
}

/** One collapsible category with its progress (completed over total, rounded %), room by room. */
const CategorySection = memo(function CategorySection({
  category,
  rooms,
  entries,
  photos,
  sending,
  open,
  onToggle,
  store,
  readOnly,
}: SectionProps) {
  const byRoom = categorySlots(category, rooms);
  const progress = progressOf(byRoom.flat(), entries);
  const panelId = `category-${category.name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`;
  const room = category.repeatable;
  const count = byRoom.length;
  const lastRoomEmpty =
    count > 1 && byRoom[count - 1]!.every((s) => !hasData(entries.get(s.key)) && !entries.get(s.key)?.onServer);

  const addRoom = () => {
    if (!room) return;
    const n = count + 1;
    store.setRooms({ ...rooms, [room]: n });
    toast({ title: `${room} ${n} added`, description: `Its items are named '… (${room} ${n})'.` });
  };
  const removeRoom = () => {
    if (!room) return;
    store.setRooms({ ...rooms, [room]: count - 1 });
    toast({ title: `${room} ${count} removed` });
  };

  return (
    <section className="category" data-category={category.name} aria-labelledby={`${panelId}-title`}>
      <div className="category-head">
        <h3 id={`${panelId}-title`} className="category-heading">
          <button
            type="button"
            className="category-toggle"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => onToggle(category.name)}
          >
            <span className="category-name">{category.name}</span>
            <span className="category-progress" data-testid="category-progress">
              {progress.completed}/{progress.total} ({progress.percent}%)
            </span>
            <svg viewBox="0 0 24 24" className="chevron" aria-hidden="true">
              <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </h3>
        {/* In the header, not below the last room: no scrolling past every card to add one. */}
        {room && !readOnly && (
          <button
            type="button"
            className="btn btn-outline btn-sm category-add"
            onClick={addRoom}
            data-testid="add-room"
          >
            Add {roomWord(room)}
          </button>
        )}
      </div>
      <div className="progress-track progress-thin" aria-hidden="true">
        <div className="progress-fill" style={{ width: `${progress.percent}%` }} />
      </div>
      <div id={panelId} className="category-body" hidden={!open}>
        {open && (
          <>
            {byRoom.map((slots, i) => (
              <div key={slots[0]?.subcategoryName ?? i} className="room">
                {room && (
                  <h4 className="room-heading">
                    {room} {i + 1}
                  </h4>
                )}
                <div className="entry-grid">
                  {slots.map((slot) => {
                    const entry = entries.get(slot.key);
                    const withPhotos = Boolean(entry?.photos.length);
                    return (
                      <EntryCard
                        key={slot.key}
                        slot={slot}
                        entry={entry}
                        photos={withPhotos ? photos : undefined}
                        sending={sending.has(slot.key)}
                        photosSending={withPhotos ? sending : undefined}
                        store={store}
                        readOnly={readOnly}
                      />
                    );
                  })}
                </div>
              </div>
            ))}
            {room && !readOnly && lastRoomEmpty && (
              <div className="room-actions">
                <button type="button" className="btn btn-outline btn-sm" onClick={removeRoom}>
                  Remove {room} {count}
                </button>
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
});
