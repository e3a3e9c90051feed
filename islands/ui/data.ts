import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { apiRequest } from "./api";
import { LOGOUT_EVENT } from "./session";

// The islands' data hooks: a GET answer kept by its URL for the page's life, and one call's state. The spec's
// defaults hold (customer-side §7): a GET on the key, no retries, no refetch on focus, no polling, never stale
// until a write says so. react-query did this in 10 KB gzip, more than an island page can spend (docs/decisions.md#72).

type Loader<T> = (url: string) => Promise<T>;

interface Entry {
  data?: unknown;
  error: Error | null;
  /** The call under way, if any: a second caller waits for it instead of asking again. */
  loading?: Promise<void>;
  /** Asked again when next read (or now, for a mounted reader) after refresh(). */
  stale: boolean;
  load: Loader<unknown>;
  /** Mounted readers: refresh() asks again at once only for what is on screen. */
  readers: number;
}

const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const getVersion = () => version;
const toError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const getJson: Loader<unknown> = (url) => apiRequest("GET", url);

function entryOf(url: string, load: Loader<unknown>): Entry {
  let entry = entries.get(url);
  if (!entry) {
    entry = { error: null, stale: true, load, readers: 0 };
    entries.set(url, entry);
  }
  return entry;
}

/** Asks for `url` unless a call is under way; the old data stays until the answer replaces it. */
function fetchEntry(url: string, entry: Entry): Promise<void> {
  if (entry.loading) return entry.loading;
  entry.stale = false;
  entry.loading = entry
    .load(url)
    .then(
      (data) => {
        entry.data = data;
        entry.error = null;
      },
      (error: unknown) => {
        entry.error = toError(error);
      },
    )
    .finally(() => {
      entry.loading = undefined;
      changed();
    });
  changed();
  return entry.loading;
}

/** The answer for `url`, asked once (or again after refresh()); `load` defaults to a GET on the URL. */
export function loadData<T>(url: string, load: Loader<T> = getJson as Loader<T>): Promise<T> {
  const entry = entryOf(url, load);
  entry.load = load;
  return (entry.stale ? fetchEntry(url, entry) : (entry.loading ?? Promise.resolve())).then(() => {
    if (entry.error) throw entry.error;
    return entry.data as T;
  });
}

/** What is kept for `url`, if anything. */
export function peekData<T>(url: string): { data: T | undefined; error: Error | null; fetching: boolean } {
  const entry = entries.get(url);
  return { data: entry?.data as T | undefined, error: entry?.error ?? null, fetching: Boolean(entry?.loading) };
}

/** Replaces the answer kept for `url` (a 409's fresh times, say): its readers show it at once. */
export function setData<T>(url: string, update: T | ((old: T | undefined) => T | undefined)): void {
  const entry = entryOf(url, getJson);
  entry.data =
    typeof update === "function" ? (update as (old: T | undefined) => T | undefined)(entry.data as T) : update;
  entry.error = null;
  entry.stale = false;
  changed();
}

/**
 * After a write: the answer for `url` (every answer without one) is asked again, at once where it is on screen,
 * else when next read. Resolves once the answers on screen have come.
 */
export function refresh(url?: string): Promise<void> {
  const calls: Promise<void>[] = [];
  for (const [key, entry] of entries) {
    if (url !== undefined && key !== url) continue;
    entry.stale = true;
    // A call already under way may have been answered before the write: ask again after it.
    if (entry.readers > 0)
      calls.push(entry.loading ? entry.loading.then(() => fetchEntry(key, entry)) : fetchEntry(key, entry));
  }
  changed();
  return Promise.all(calls).then(() => undefined);
}

// Logout clears cached data (staff-side §4).
if (typeof window !== "undefined") window.addEventListener(LOGOUT_EVENT, () => entries.clear());

export interface Loaded<T> {
  data: T | undefined;
  error: Error | null;
  /** No answer yet (nor an error) for a URL being asked. */
  isPending: boolean;
  isFetching: boolean;
}

/**
 * The answer for `url`, kept for the page's life; none while `url` is null. `load` (a GET by default) must be a
 * function that never changes, e.g. one defined at module level.
 */
export function useData<T>(url: string | null, load: Loader<T> = getJson as Loader<T>): Loaded<T> {
  // Any change re-renders the reader; refresh() itself asks again for what is on screen.
  useSyncExternalStore(subscribe, getVersion, getVersion);
  useEffect(() => {
    if (url === null) return;
    const entry = entryOf(url, load);
    entry.load = load;
    entry.readers += 1;
    if (entry.stale) void fetchEntry(url, entry);
    return () => {
      entry.readers -= 1;
    };
  }, [url, load]);
  if (url === null) return { data: undefined, error: null, isPending: false, isFetching: false };
  const { data, error, fetching } = peekData<T>(url);
  return { data, error, isPending: data === undefined && !error, isFetching: fetching };
}

/**
 * One call at a time, with its state: pending until it answers, then succeeded or failed (the handlers run).
 * `mutate` resolves once the handlers have run; the latest `call` and handlers are used.
 */
export function useSubmission<T, A extends unknown[] = []>(
  call: (...args: A) => Promise<T>,
  handlers: { onSuccess?: (result: T) => void; onError?: (error: Error) => void } = {},
) {
  const [state, setState] = useState<"idle" | "pending" | "success" | "error">("idle");
  const latest = useRef({ call, handlers });
  latest.current = { call, handlers };
  const mutate = useCallback((...args: A): Promise<void> => {
    setState("pending");
    // A call that throws before its first await fails like one that rejects.
    return Promise.resolve()
      .then(() => latest.current.call(...args))
      .then(
        (result) => {
          setState("success");
          latest.current.handlers.onSuccess?.(result);
        },
        (error: unknown) => {
          setState("error");
          latest.current.handlers.onError?.(toError(error));
        },
      );
  }, []);
  return { mutate, isPending: state === "pending", isSuccess: state === "success", isError: state === "error" };
}
