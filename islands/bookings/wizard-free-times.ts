// The schedule wizard's free times and its one booking call, without react-query: the page's JS stays within its
// 90 KB budget (docs/architecture.md). Each answer of the availability call is kept for the page's life under its
// URL, as the query cache kept it (never stale, no retry), and a 409's fresh times replace it.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { BookingAvailability } from "../../src/modules/bookings/bookings.constants";
import { apiRequest } from "../ui/api";

const answers = new Map<string, BookingAvailability>();
const asking = new Set<string>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Replaces the answer kept for this question (a 409's fresh times). */
export function setFreeTimes(key: string, answer: BookingAvailability): void {
  answers.set(key, answer);
  changed();
}

/** The free times for `key` (the availability call's URL), asked once; none while `key` is null or unanswered. */
export function useFreeTimes(key: string | null): { data: BookingAvailability | undefined; isFetching: boolean } {
  useSyncExternalStore(subscribe, () => version);
  useEffect(() => {
    if (key === null || answers.has(key) || asking.has(key)) return;
    asking.add(key);
    changed();
    apiRequest<BookingAvailability>("GET", key)
      .then(
        (answer) => answers.set(key, answer),
        // No answer: every time stays offered, and the server decides on submit.
        () => undefined,
      )
      .finally(() => {
        asking.delete(key);
        changed();
      });
  }, [key]);
  return { data: key === null ? undefined : answers.get(key), isFetching: key !== null && asking.has(key) };
}

/** One call at a time, with its state: pending until it answers, then succeeded or failed (the callbacks run). */
export function useSubmission<T>(
  call: () => Promise<T>,
  handlers: { onSuccess: (result: T) => void; onError: (error: unknown) => void },
) {
  const [state, setState] = useState<"idle" | "pending" | "success" | "error">("idle");
  const latest = useRef({ call, handlers });
  latest.current = { call, handlers };
  const mutate = useCallback(() => {
    setState("pending");
    latest.current.call().then(
      (result) => {
        setState("success");
        latest.current.handlers.onSuccess(result);
      },
      (error: unknown) => {
        setState("error");
        latest.current.handlers.onError(error);
      },
    );
  }, []);
  return { mutate, isPending: state === "pending", isSuccess: state === "success" };
}
