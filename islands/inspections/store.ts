// The form's state, written through to IndexedDB (idb) on every change (docs/decisions.md#18): a reload,
// a closed tab or a killed browser finds everything here, and the sync engine sends it from here.
import { type DBSchema, type IDBPDatabase, openDB } from "idb";
import type { InspectionWithEntries } from "../../src/modules/inspections/inspections.schemas";
import type { EntryScore } from "../../src/modules/inspections/template";
import { INSPECTION_FORM_DB } from "../ui/session";
import { toast } from "../ui/toast";
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

interface FormDb extends DBSchema {
  inspections: { key: number; value: LocalInspection };
  entries: { key: [number, string]; value: LocalEntry; indexes: { byInspection: number } };
  photos: { key: string; value: LocalPhoto; indexes: { byInspection: number } };
}

let dbPromise: Promise<IDBPDatabase<FormDb>> | null = null;
export const openFormDb = () =>
  (dbPromise ??= openDB<FormDb>(INSPECTION_FORM_DB, 1, {
    upgrade(db) {
      db.createObjectStore("inspections", { keyPath: "id" });
      db.createObjectStore("entries", { keyPath: ["inspectionId", "key"] }).createIndex("byInspection", "inspectionId");
      db.createObjectStore("photos", { keyPath: "clientId" }).createIndex("byInspection", "inspectionId");
    },
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

  private set(next: Partial<FormState>) {
    this.state = { ...this.state, ...next };
    for (const listener of this.listeners) listener();
  }

  /** IndexedDB writes run one after another, in the order the changes were made. */
  private persist(write: (db: IDBPDatabase<FormDb>) => Promise<unknown>) {
    this.writes = this.writes
      .then(() => openFormDb().then(write))
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
    this.persist((db) => db.put("entries", entry));
    this.onLocalChange();
  }

  addPhotos(categoryName: string, subcategoryName: string, photos: LocalPhoto[]) {
    const all = new Map(this.state.photos);
    for (const p of photos) all.set(p.clientId, p);
    this.set({ photos: all });
    this.persist(async (db) => {
      const tx = db.transaction("photos", "readwrite");
      await Promise.all([...photos.map((p) => tx.store.put(p)), tx.done]);
    });
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

  // ---- what the sync engine learns ----

  setSending(ids: string[], sending: boolean) {
    const next = new Set(this.state.sending);
    for (const id of ids) sending ? next.add(id) : next.delete(id);
    this.set({ sending: next });
  }

  photoStored(clientId: string, serverId: number) {
    const photo = this.state.photos.get(clientId);
    if (!photo) return;
    const next = { ...photo, serverId, error: undefined };
    this.set({ photos: new Map(this.state.photos).set(clientId, next) });
    this.persist((db) => db.put("photos", next));
  }

  /** The server refused a photo (not an image, too large): it leaves its entry, with the reason kept. */
  photoRefused(clientId: string, message: string) {
    const photo = this.state.photos.get(clientId);
    if (!photo) return;
    const next = { ...photo, error: message };
    this.set({ photos: new Map(this.state.photos).set(clientId, next) });
    this.persist((db) => db.put("photos", next));
    for (const entry of this.state.entries.values()) {
      if (entry.photos.includes(clientId)) this.removePhoto(entry, clientId);
    }
  }

  /** The server accepted these versions of these entries. */
  entriesSaved(sent: { key: string; rev: number }[]) {
    const entries = new Map(this.state.entries);
    const changed: LocalEntry[] = [];
    for (const { key, rev } of sent) {
      const entry = entries.get(key);
      if (!entry) continue;
      const next = { ...entry, syncedRev: Math.max(entry.syncedRev, rev), onServer: true, error: undefined };
      entries.set(key, next);
      changed.push(next);
    }
    this.set({ entries });
    this.persist(async (db) => {
      const tx = db.transaction("entries", "readwrite");
      await Promise.all([...changed.map((e) => tx.store.put(e)), tx.done]);
    });
  }

  entriesRefused(keys: string[], message: string) {
    const entries = new Map(this.state.entries);
    for (const key of keys) {
      const entry = entries.get(key);
      if (entry) entries.set(key, { ...entry, error: message });
    }
    this.set({ entries });
  }

  /**
   * The server completed the inspection: everything is there, so this device lets go of its copies of
   * the images (the records stay; thumbnails now come from the server and the worker's photo cache).
   */
  completed(status: string) {
    this.saveInspection({ ...this.state.inspection, status, completeRequested: false });
    const stored = [...this.state.photos.values()]
      .filter((p) => p.blob && p.serverId !== undefined)
      .map(({ blob: _blob, ...p }) => p);
    if (!stored.length) return;
    this.persist(async (db) => {
      const tx = db.transaction("photos", "readwrite");
      await Promise.all([...stored.map((p) => tx.store.put(p)), tx.done]);
    });
  }

  private saveInspection(inspection: LocalInspection) {
    this.set({ inspection });
    this.persist((db) => db.put("inspections", inspection));
  }

  // ---- opening an inspection ----

  /** What this device holds for the inspection, or null when it was never opened here. */
  static async fromDevice(inspectionId: number): Promise<FormStore | null> {
    // No IndexedDB (a private window of some browsers): the form still works online, without the offline copy.
    const db = await openFormDb().catch(() => null);
    if (!db) return null;
    const inspection = await db.get("inspections", inspectionId);
    if (!inspection) return null;
    const [entries, photos] = await Promise.all([
      db.getAllFromIndex("entries", "byInspection", inspectionId),
      db.getAllFromIndex("photos", "byInspection", inspectionId),
    ]);
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
  static async merge(server: InspectionWithEntries, local: FormStore | null): Promise<FormStore> {
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
      rooms: roomsFor(entries.values(), local?.state.inspection.rooms ?? DEFAULT_ROOMS),
      completeRequested: server.status === "completed" ? false : (local?.state.inspection.completeRequested ?? false),
      loadedAt: new Date().toISOString(),
    };
    const store = new FormStore({ inspection, entries, photos, sending: new Set(), online: navigator.onLine });
    store.persist(async (db) => {
      const tx = db.transaction(["inspections", "entries", "photos"], "readwrite");
      await Promise.all([
        tx.objectStore("inspections").put(inspection),
        ...[...entries.values()].map((e) => tx.objectStore("entries").put(e)),
        ...[...photos.values()].map((ph) => tx.objectStore("photos").put(ph)),
        tx.done,
      ]);
    });
    return store;
  }
}
