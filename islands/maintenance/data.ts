import { useEffect, useState, useSyncExternalStore } from "react";
import { apiRequest } from "../ui/api";

// A small fetch hook for this island instead of react-query's hooks: their 3.7 KB gzip would take the page
// over its 90 KB budget. The spec's defaults hold (no retries, no refetch on focus); every write calls
// refreshAll(), and everything shown is fetched again (the old data stays on screen meanwhile).

let version = 0;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const getVersion = () => version;

/** After a write: every useJson of the page loads again. */
export function refreshAll(): void {
  version += 1;
  for (const listener of listeners) listener();
}

export interface Loaded<T> {
  data: T | undefined;
  error: Error | null;
  isPending: boolean;
}

const getJson = <T>(url: string) => apiRequest<T>("GET", url);

/** GETs `url` (through `load`, a function that never changes, e.g. one defined at module level). */
export function useJson<T>(url: string, load: (url: string) => Promise<T> = getJson): Loaded<T> {
  const current = useSyncExternalStore(subscribe, getVersion, getVersion);
  const [state, setState] = useState<{ url: string; version: number; data?: T; error: Error | null }>({
    url: "",
    version: -1,
    error: null,
  });
  useEffect(() => {
    let live = true;
    load(url).then(
      (data) => live && setState({ url, version: current, data, error: null }),
      (error: unknown) =>
        live && setState({ url, version: current, error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [url, current, load]);
  const data = state.url === url ? state.data : undefined;
  const error = state.url === url && state.version === current ? state.error : null;
  return { data, error, isPending: data === undefined && !error };
}

/** A write's state: pending while it runs; `run` resolves after success or failure handling. */
export function useWrite<T>(send: () => Promise<T>, onSuccess: (result: T) => void, onError: (error: Error) => void) {
  const [isPending, setPending] = useState(false);
  const run = async () => {
    setPending(true);
    try {
      const result = await send();
      setPending(false);
      onSuccess(result);
    } catch (error) {
      setPending(false);
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
  return { isPending, run };
}
