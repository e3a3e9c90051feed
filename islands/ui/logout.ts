// Logout in the browser (staff-side §4): what this browser forgets, and the question asked first when the inspection
// form holds unsent changes. A chunk of its own, fetched by the admin script on the first touch of Logout: no page's
// first screen needs it (docs/decisions.md#79).
import { INSPECTION_FORM_DB, LOGOUT_EVENT } from "./session";

/** Haven's own names in browser storage: its keys and its IndexedDB databases start with 'haven'. */
const isHavens = (name: string) => /^haven/i.test(name) || name.startsWith("htmx-");

/**
 * Forgets what this browser kept of the signed-in user: in-memory query caches (via LOGOUT_EVENT),
 * sessionStorage, Haven's localStorage keys and Haven's IndexedDB databases. Never throws.
 */
export async function clearCachedData(): Promise<void> {
  try {
    window.dispatchEvent(new Event(LOGOUT_EVENT));
  } catch {
    // an island's listener failed: the storage still goes
  }
  try {
    sessionStorage.clear();
  } catch {
    // storage disabled
  }
  try {
    for (const key of Object.keys(localStorage)) if (isHavens(key)) localStorage.removeItem(key);
  } catch {
    // storage disabled
  }
  try {
    const databases = (await indexedDB.databases?.()) ?? [];
    await Promise.all(
      databases
        .map((db) => db.name)
        .filter((name): name is string => Boolean(name && isHavens(name)))
        .map(
          (name) =>
            // A tab that still holds the database open blocks the deletion: do not wait for it forever.
            new Promise<void>((resolve) => {
              const request = indexedDB.deleteDatabase(name);
              request.onsuccess = request.onerror = request.onblocked = () => resolve();
              setTimeout(resolve, 1500);
            }),
        ),
    );
  } catch {
    // IndexedDB unavailable
  }
}

/**
 * How many inspection form changes this browser holds that the server has not accepted: entries changed
 * since their last save, and photos not uploaded. 0 when there are none or they cannot be read.
 */
export async function unsentInspectionChanges(): Promise<number> {
  try {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(INSPECTION_FORM_DB);
      // No form database here yet: do not create one just to look.
      request.onupgradeneeded = () => request.transaction?.abort();
      request.onsuccess = () => resolve(request.result);
      request.onerror = request.onblocked = () => reject(request.error);
    });
    try {
      const all = <T>(store: string) =>
        new Promise<T[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as T[]);
          request.onerror = () => reject(request.error);
        });
      const [entries, photos] = await Promise.all([
        all<{ rev: number; syncedRev: number }>("entries"),
        all<{ serverId?: number }>("photos"),
      ]);
      return entries.filter((e) => e.rev > e.syncedRev).length + photos.filter((p) => p.serverId === undefined).length;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

export const unsentChangesQuestion = (count: number) =>
  `${count} inspection ${count === 1 ? "change on this device has" : "changes on this device have"} not reached the server yet. ` +
  "Logging out deletes them from this device. Log out anyway?";

/**
 * Logout (staff-side §4): tells the server, clears the cached data and goes to /, even when the call fails.
 * When inspection changes are still unsent, it asks first; false when the user chose to stay.
 */
export async function logout(): Promise<boolean> {
  const unsent = await unsentInspectionChanges();
  if (unsent > 0 && !window.confirm(unsentChangesQuestion(unsent))) return false;
  try {
    await fetch("/api/auth/logout", {
      method: "POST",
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
  } catch {
    // offline or the server is down: the browser still forgets everything
  }
  await clearCachedData();
  window.location.assign("/");
  return true;
}
