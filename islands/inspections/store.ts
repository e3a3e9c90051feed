// The form's state, written through to IndexedDB (device-db.ts) on every change (docs/decisions.md#18): a reload,
// a closed tab or a killed browser finds everything here, and the sync engine sends it from here.
import type { InspectionWithEntries } from "../../src/modules/inspections/inspections.schemas";
import type { CategoryWeights, EntryScore } from "../../src/modules/inspections/template-rules";
import { INSPECTION_FORM_DB } from "../ui/session";
import { toast } from "../ui/toast";
import { openDatabase, putAll, settled, write } from "./device-db";
import {
  DEFAULT_ROOMS,
  type LocalEntry,
  type LocalInspection,
  type LocalPhoto,
  type Rooms,
  blankEntry,
  entryKey,
  isDirty,
  roomsFor,
} from "./model";

// Stores: inspections (LocalInspection by id), entries (LocalEntry by [inspectionId, key]) and photos (LocalPhoto by
// clientId), the last two indexed byInspection.
let dbPromise: Promise<IDBDatabase> | null = null;
export const openFormDb = () =>
  (dbPromise ??= openDatabase(INSPECTION_FORM_DB, 1, (db) => {
    db.createObjectStore("inspections", { keyPath: "id" });
    db.createObjectStore("entries", { keyPath: ["inspectionId", "key"] }).createIndex("byInspection", "inspectionId");
    db.createObjectStore("photos", { keyPath: "clientId" }).createIndex("byInspection", "inspectionId");
  }));

export interface FormState {
  inspection: LocalInspection;
  entries: Map<string, LocalEntry>;
  photos: Map<string, LocalPhoto>;
  /** Entry keys and photo client ids on their way to the server right now. */
  sending: Set<string>;
  online: boolean;
}

export type EntryChange = Partial<Pick<LocalEntry, "score" | "notes" | "urgent" | "photos">>;

export class FormStore {
  private listeners = new Set<() => void>();
  private writes: Promise<unknown> = Promise.resolve();
  /** Called after every change made on this device (the sync engine listens). */
  onLocalChange: () => void = () => {};

  private constructor(public state: FormState) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  getState = () => this.state;

  /** Replaces part of the state and tells the screen (the sync engine writes what it learns through this too). */
  set(next: Partial<FormState>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  /** IndexedDB writes run one after another, in the order the changes were made. */
  persist(change: (db: IDBDatabase) => Promise<unknown>) {
    this.writes = this.writes
      .then(() => openFormDb().then(change))
      .catch((error) => {
        console.error("Could not keep a change on this device", error);
        // Storage full or refused: say so, so that this tab stays open until the change is sent.
        toast({
          title: "Not kept on this device",
          description: "The browser refused to store this change. Keep this page open until it is saved.",
          variant: "destructive",
        });
      });
  }

  /** Resolves once every change so far is in IndexedDB. */
  flushed(): Promise<unknown> {
    return this.writes;
  }

  // ---- changes made on this device ----

  updateEntry(categoryName: string, subcategoryName: string, change: EntryChange) {
    const key = entryKey(categoryName, subcategoryName);
    const before = this.state.entries.get(key) ?? blankEntry(this.state.inspection.id, categoryName, subcategoryName);
    const entry: LocalEntry = { ...before, ...change, rev: before.rev + 1, error: undefined };
    this.set({ entries: new Map(this.state.entries).set(key, entry) });
    this.persist((db) => putAll(db, "entries", [entry]));
    this.onLocalChange();
  }

  addPhotos(categoryName: string, subcategoryName: string, photos: LocalPhoto[]) {
    const all = new Map(this.state.photos);
    for (const p of photos) all.set(p.clientId, p);
    this.set({ photos: all });
    this.persist((db) => putAll(db, "photos", photos));
    const current = this.state.entries.get(entryKey(categoryName, subcategoryName))?.photos ?? [];
    this.updateEntry(categoryName, subcategoryName, { photos: [...current, ...photos.map((p) => p.clientId)] });
  }

  removePhoto(entry: LocalEntry, clientId: string) {
    this.updateEntry(entry.categoryName, entry.subcategoryName, {
      photos: entry.photos.filter((id) => id !== clientId),
    });
  }

  setRooms(rooms: Rooms) {
    this.saveInspection({ ...this.state.inspection, rooms });
  }

  requestComplete(requested = true) {
    this.saveInspection({ ...this.state.inspection, completeRequested: requested });
    if (requested) this.onLocalChange();
  }

  setOnline(online: boolean) {
    if (online !== this.state.online) this.set({ online });
  }

  saveInspection(inspection: LocalInspection) {
    this.set({ inspection });
    this.persist((db) => putAll(db, "inspections", [inspection]));
  }

  // ---- opening an inspection ----

  /** What this device holds for the inspection, or null when it was never opened here. */
  static async fromDevice(inspectionId: number): Promise<FormStore | null> {
    // No IndexedDB (a private window of some browsers): the form still works online, without the offline copy.
    const db = await openFormDb().catch(() => null);
    if (!db) return null;
    const tx = db.transaction(["inspections", "entries", "photos"]);
    const byInspection = <T>(store: string) =>
      settled(tx.objectStore(store).index("byInspection").getAll(inspectionId) as IDBRequest<T[]>);
    const [inspection, entries, photos] = await Promise.all([
      settled(tx.objectStore("inspections").get(inspectionId) as IDBRequest<LocalInspection | undefined>),
      byInspection<LocalEntry>("entries"),
      byInspection<LocalPhoto>("photos"),
    ]);
    if (!inspection) return null;
    return new FormStore({
      inspection,
      entries: new Map(entries.map((e) => [e.key, e])),
      photos: new Map(photos.map((p) => [p.clientId, p])),
      sending: new Set(),
      online: navigator.onLine,
    });
  }

  /**
   * The server's copy merged with this device's: an entry changed here and not yet accepted keeps this
   * device's version; every other entry takes the server's. The result is written back to IndexedDB.
   */
  static async merge(
    server: InspectionWithEntries,
    local: FormStore | null,
    categories: readonly CategoryWeights[],
  ): Promise<FormStore> {
    const entries = new Map(local?.state.entries ?? []);
    const photos = new Map(local?.state.photos ?? []);
    const byServerId = new Map(
      [...photos.values()].filter((p) => p.serverId !== undefined).map((p) => [p.serverId!, p.clientId]),
    );
    for (const { entries: list } of server.categories) {
      for (const e of list) {
        const key = entryKey(e.categoryName, e.subcategoryName);
        const mine = entries.get(key);
        if (mine && isDirty(mine)) continue;
        const clientIds = e.photoIds.map((id) => {
          const known = byServerId.get(id);
          if (known) return known;
          const clientId = `server-${id}`;
          photos.set(clientId, { clientId, inspectionId: server.id, serverId: id });
          return clientId;
        });
        entries.set(key, {
          ...(mine ?? blankEntry(server.id, e.categoryName, e.subcategoryName)),
          score: e.score as EntryScore | null,
          notes: e.notes ?? "",
          urgent: e.urgent,
          photos: clientIds,
          onServer: true,
          error: undefined,
        });
      }
    }
    const p = server.property;
    const inspection: LocalInspection = {
      id: server.id,
      status: server.status,
      propertyLabel: [p.address, p.city, p.province].filter(Boolean).join(", "),
      clientName: p.clientName,
      visit: server.visit ?? local?.state.inspection.visit,
      rooms: roomsFor(categories, entries.values(), local?.state.inspection.rooms ?? DEFAULT_ROOMS),
      completeRequested: server.status === "completed" ? false : (local?.state.inspection.completeRequested ?? false),
      loadedAt: new Date().toISOString(),
    };
    const store = new FormStore({ inspection, entries, photos, sending: new Set(), online: navigator.onLine });
    store.persist((db) =>
      write(db, ["inspections", "entries", "photos"], (tx) => {
        tx.objectStore("inspections").put(inspection);
        for (const e of entries.values()) tx.objectStore("entries").put(e);
        for (const ph of photos.values()) tx.objectStore("photos").put(ph);
      }),
    );
    return store;
  }
}
