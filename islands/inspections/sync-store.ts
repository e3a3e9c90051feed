// What the sync engine (sync.ts) learns from the server, written into the form's store and IndexedDB: what is on its
// way, what was stored or refused, and a completion. In the engine's chunk: a form with nothing to send needs none of
// it (docs/decisions.md#79).
import { putAll } from "./device-db";
import type { LocalEntry, LocalPhoto } from "./model";
import type { FormStore } from "./store";

export function setSending(store: FormStore, ids: string[], sending: boolean) {
  const next = new Set(store.state.sending);
  for (const id of ids) sending ? next.add(id) : next.delete(id);
  store.set({ sending: next });
}

export function photoStored(store: FormStore, clientId: string, serverId: number) {
  const photo = store.state.photos.get(clientId);
  if (!photo) return;
  const next = { ...photo, serverId, error: undefined };
  store.set({ photos: new Map(store.state.photos).set(clientId, next) });
  store.persist((db) => putAll(db, "photos", [next]));
}

/** The server refused a photo (not an image, too large): it leaves its entry, with the reason kept. */
export function photoRefused(store: FormStore, clientId: string, message: string) {
  const photo = store.state.photos.get(clientId);
  if (!photo) return;
  const next = { ...photo, error: message };
  store.set({ photos: new Map(store.state.photos).set(clientId, next) });
  store.persist((db) => putAll(db, "photos", [next]));
  for (const entry of store.state.entries.values()) {
    if (entry.photos.includes(clientId)) store.removePhoto(entry, clientId);
  }
}

/** The server accepted these versions of these entries. */
export function entriesSaved(store: FormStore, sent: { key: string; rev: number }[]) {
  const entries = new Map(store.state.entries);
  const changed: LocalEntry[] = [];
  for (const { key, rev } of sent) {
    const entry = entries.get(key);
    if (!entry) continue;
    const next = { ...entry, syncedRev: Math.max(entry.syncedRev, rev), onServer: true, error: undefined };
    entries.set(key, next);
    changed.push(next);
  }
  store.set({ entries });
  store.persist((db) => putAll(db, "entries", changed));
}

export function entriesRefused(store: FormStore, keys: string[], message: string) {
  const entries = new Map(store.state.entries);
  for (const key of keys) {
    const entry = entries.get(key);
    if (entry) entries.set(key, { ...entry, error: message });
  }
  store.set({ entries });
}

/**
 * The server completed the inspection: everything is there, so this device lets go of its copies of
 * the images (the records stay; thumbnails now come from the server and the worker's photo cache).
 */
export function completed(store: FormStore, status: string) {
  store.saveInspection({ ...store.state.inspection, status, completeRequested: false });
  const stored = [...store.state.photos.values()]
    .filter((p) => p.blob && p.serverId !== undefined)
    .map(({ blob: _blob, ...p }) => p);
  if (!stored.length) return;
  store.persist((db) => putAll(db, "photos", stored));
}

/** The payload of one entry (staff-side §3): photos as the server's URLs. */
export function entryPayload(e: LocalEntry, photos: Map<string, LocalPhoto>) {
  return {
    inspectionId: e.inspectionId,
    categoryName: e.categoryName,
    subcategoryName: e.subcategoryName,
    score: e.score ?? null,
    notes: e.notes.trim() === "" ? null : e.notes,
    urgent: e.urgent,
    photos: e.photos.map((id) => `/api/photos/${photos.get(id)?.serverId}`),
  };
}

/** True when every photo of the entry is stored on the server (so the entry can be sent). */
export const photosUploaded = (e: LocalEntry, photos: Map<string, LocalPhoto>) =>
  e.photos.every((id) => photos.get(id)?.serverId !== undefined);
