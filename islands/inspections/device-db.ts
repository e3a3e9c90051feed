// The few IndexedDB calls the form's store makes, as promises: what the idb library gave it, in a few lines
// (its 1 KB gzip was part of the form's first screen, docs/decisions.md#79).

/** A request's result once it succeeds. */
export const settled = <T>(request: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/** Opens (and on a new version, sets up) a database. */
export function openDatabase(name: string, version: number, upgrade: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  const request = indexedDB.open(name, version);
  request.onupgradeneeded = () => upgrade(request.result);
  return settled(request);
}

/** One read-write transaction over `stores`: resolves once it commits, rejects when it fails or aborts. */
export function write(db: IDBDatabase, stores: string[], work: (tx: IDBTransaction) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(stores, "readwrite");
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error ?? new DOMException("The transaction was aborted", "AbortError"));
    work(tx);
  });
}

/** Puts the values into one store, in one transaction. */
export const putAll = (db: IDBDatabase, store: string, values: readonly unknown[]): Promise<void> =>
  write(db, [store], (tx) => {
    const target = tx.objectStore(store);
    for (const value of values) target.put(value);
  });
