import { type RefObject, useEffect, useState } from "react";

/** A part of an island in a chunk of its own: `preload()` fetches it once; `loaded` is it once fetched. */
export interface LazyPart<C> {
  preload: () => Promise<C>;
  readonly loaded: C | null;
}

/**
 * A part of an island that first paint does not show (a dialog, a second view, the half of the inspection form a
 * page does not use), in a chunk of its own (docs/decisions.md#79). A failed fetch may be tried again.
 */
export function lazyPart<C>(load: () => Promise<C>): LazyPart<C> {
  let loaded: C | null = null;
  let pending: Promise<C> | null = null;
  return {
    get loaded() {
      return loaded;
    },
    preload() {
      pending ??= load().then(
        (part) => {
          loaded = part;
          return part;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
  };
}

/**
 * The part once fetched (fetched when `wanted`), null meanwhile: the caller renders nothing or a line of its own,
 * then the part at once. Not React.lazy: React holds a Suspense boundary's content back for 300 ms after its
 * fallback shows, which a dialog or the inspection form (its 1 s budget) would wait for. A failed fetch is thrown
 * from render, as a failed island chunk fails its island.
 */
export function useLazy<C>(part: LazyPart<C>, wanted: boolean): C | null {
  const [state, setState] = useState<{ part: C } | { error: unknown } | null>(null);
  const ready = part.loaded;
  useEffect(() => {
    if (!wanted || ready) return;
    let live = true;
    part.preload().then(
      (loaded) => live && setState({ part: loaded }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [part, wanted, ready]);
  if (!wanted) return null;
  if (state && "error" in state) throw state.error;
  return ready ?? (state ? state.part : null);
}

/**
 * Fetches the parts on the first pointer or focus inside `root`: by the time a click opens one, it is usually here,
 * and a page nobody touches fetches none of them.
 */
export function usePreloadOnTouch(root: RefObject<HTMLElement | null>, parts: LazyPart<unknown>[]): void {
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    const preload = () => {
      for (const part of parts) part.preload().catch(() => undefined);
    };
    element.addEventListener("pointerover", preload, { once: true });
    element.addEventListener("focusin", preload, { once: true });
    return () => {
      element.removeEventListener("pointerover", preload);
      element.removeEventListener("focusin", preload);
    };
  }, [root, parts]);
}
